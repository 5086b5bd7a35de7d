/**
 * How a language is chosen from the model's guesses and the fallback. Pure, so the worker runs it
 * next to the model (keeping highlight.js off the host's event loop) and the host runs it without
 * the model when it is unloaded, slow or gone.
 */
import type { ClassificationSpecific } from '../wire.ts';
import { classifyWithFallback, looksLikeProse } from './fallbackClassifier.ts';
import { specificFromGuesslang } from './languages.ts';

/** One of the model's answers (a guesslang language id), as its worker reports it. */
export interface ModelGuess {
  readonly languageId: string;
  readonly confidence: number;
}

export interface LanguageGuess {
  readonly specific: ClassificationSpecific;
  /** 0..1 */
  readonly confidence: number;
  /** Which method decided: a hint (the caller's or the text's own shebang or modeline), the model, the fallback. */
  readonly source: 'hint' | 'model' | 'fallback' | 'default';
}

/** guesslang's wrong answers measured at ≤ 0.11 and its right ones mostly ≥ 0.24 (models.md §1.2). */
const modelThreshold = 0.2;
/** The model answers nothing below 20 characters. */
export const modelMinLength = 20;
/** The model reads no further than this; sending more would only copy bytes. */
export const modelMaxLength = 100_000;

export function isBlank(text: string): boolean {
  return text.trim() === '';
}

export function wantsModel(text: string): boolean {
  return text.trim().length >= modelMinLength;
}

/** The model's answer when it is sure enough and names a language the client knows, else the fallback's. */
export function chooseLanguage(text: string, guesses: readonly ModelGuess[]): LanguageGuess {
  if (isBlank(text)) return { specific: 'txt', confidence: 0, source: 'default' };
  const top = guesses[0];
  const specific = top === undefined ? undefined : specificFromGuesslang(top.languageId);
  if (top === undefined || specific === undefined || top.confidence < modelThreshold) {
    return { ...classifyWithFallback(text), source: 'fallback' };
  }
  // guesslang has no "plain text" class; sentences come out as Markdown.
  if (specific === 'md' && looksLikeProse(text)) return { specific: 'txt', confidence: top.confidence, source: 'model' };
  return { specific, confidence: top.confidence, source: 'model' };
}
