import type { StoreContext } from '../context.ts';
import type { LanguageClassifier } from '../classify/languageClassifier.ts';
import type { TextGenerator } from './textGenerator.ts';

export interface ModelSettings {
  /** Unload a loaded model after this many idle milliseconds (0 = never). */
  readonly idleUnloadMs: number;
}

export const defaultModelSettings: ModelSettings = { idleUnloadMs: 15 * 60_000 };

/** The model catalog, downloads, and loading models into memory. */
export class ModelService {
  private readonly context: StoreContext;
  private readonly dataDir: string;
  readonly settings: ModelSettings;

  private readonly classifier: LanguageClassifier;

  constructor(context: StoreContext, dataDir: string, classifier: LanguageClassifier, settings: Partial<ModelSettings>) {
    this.context = context;
    this.classifier = classifier;
    this.dataDir = dataDir;
    this.settings = { ...defaultModelSettings, ...settings };
  }

  /** The loaded text model, if any; conversations fall back to offline methods without one. */
  textGenerator(): TextGenerator | undefined {
    return undefined;
  }

  async close(): Promise<void> {}
}
