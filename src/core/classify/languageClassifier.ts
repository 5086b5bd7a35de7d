/**
 * Detects the language of a code snippet. The guesslang model of
 * `@vscode/vscode-languagedetection` runs in a worker thread (loadable and unloadable, so the
 * Models area can list it); short or low-confidence snippets fall back to a highlight.js subset.
 * (Implemented by the classification work; this is the contract the assets and models areas use.)
 */
import type { ClassificationSpecific } from '../wire.ts';
import type { Disposable } from '../events.ts';

export interface LanguageGuess {
  readonly specific: ClassificationSpecific;
  /** 0..1 */
  readonly confidence: number;
  /** Which method decided. */
  readonly source: 'model' | 'fallback' | 'default';
}

export class LanguageClassifier implements Disposable {
  /** Whether the worker with the model is running. */
  get loaded(): boolean {
    return false;
  }

  /** Starts the worker (idempotent). */
  async load(): Promise<void> {}

  /** Stops the worker; until the next load only the fallback classifies. */
  async unload(): Promise<void> {}

  async classify(text: string): Promise<LanguageGuess> {
    void text;
    return { specific: 'txt' as ClassificationSpecific, confidence: 0, source: 'default' };
  }

  dispose(): void {
    void this.unload();
  }
}
