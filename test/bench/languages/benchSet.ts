/** The language benchmark's snippets and the 25 languages it covers (see docs/languages.md). */
import { readFileSync } from 'node:fs';
import { chooseLanguage, standsWithoutModel, type ModelGuess } from '../../../src/core/classify/decision.ts';

export const benchLanguages = [
  'py', 'js', 'ts', 'java', 'c', 'cpp', 'cs', 'go', 'rs', 'rb', 'php', 'swift', 'kt', 'sh', 'sql', 'html', 'css', 'lua',
  'hs', 'scala', 'r', 'pl', 'ps1', 'yaml', 'md',
] as const;

export interface BenchSnippet {
  /** The ClassificationSpecific its file's extension means. */
  readonly language: string;
  /** short: 4–12 lines; medium: 15–40; line: 1–3 lines a user would save alone (extract.ts, SIZES=lines). */
  readonly size: 'short' | 'medium' | 'line';
  /** package/path:first line */
  readonly source: string;
  readonly text: string;
}

export const heldOutFile = new URL('./heldout.json', import.meta.url);

export function readBenchSet(file: URL | string = heldOutFile): BenchSnippet[] {
  return JSON.parse(readFileSync(file, 'utf8')) as BenchSnippet[];
}

/**
 * What LanguageClassifier.classify decides without hints once the text states nothing, from
 * guesslang's stored answers: the token model, guesslang asked (`onAsk`) only where it is unsure.
 */
export function gatedAnswer(text: string, answers: readonly ModelGuess[], onAsk?: () => void): string {
  const alone = chooseLanguage(text, []);
  if (standsWithoutModel(alone, text)) return alone.specific;
  onAsk?.();
  return chooseLanguage(text, answers).specific;
}
