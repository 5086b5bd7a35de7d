/**
 * How a language is chosen from guesslang's answers, the token model and the fallback. Pure, so
 * the worker runs it next to guesslang (keeping the work off the host's event loop) and the host
 * runs it without guesslang when that is unloaded, slow or gone.
 *
 * Measured on held-out real code of 4-40 lines (docs/languages.md): guesslang alone is right on
 * 74.7% of snippets, the token model alone on 92.5%, the token model with guesslang where it is
 * unsure on 92.3%; the old rule (guesslang at 0.2 confidence or more, highlight.js below) on 73.0%.
 * On one to three lines the rules and the token model alone are right on 71.8%.
 * highlight.js only answers where the token model knows too few of the snippet's tokens to have an
 * opinion.
 */
import type { ClassificationSpecific } from '../piecesTypes.ts';
import { combine, tunedCombination, type Combination, type ExtraScores, type ModelGuess } from './combination.ts';
import { correctedBySyntax } from './corrections.ts';
import { highlightJsGuess, ruledBeforeModels } from './fallbackClassifier.ts';
import type { TokenModel } from './tokenModel.ts';
import { loadTokenModel, readTokenModel } from './tokenModelFile.ts';

export type { ModelGuess } from './combination.ts';

export interface LanguageGuess {
  readonly specific: ClassificationSpecific;
  /** 0..1 */
  readonly confidence: number;
  /**
   * Which method decided: a hint (the caller's, or the text's own shebang or modeline), guesslang
   * with the token model, the token model alone (guesslang unloaded or the text too short for
   * it), the highlight.js fallback, or the default for a blank text.
   */
  readonly source: 'hint' | 'model' | 'tokens' | 'fallback' | 'default';
}

/** The model answers nothing below 20 characters. */
export const modelMinLength = 20;
/** The model reads no further than this; sending more would only copy bytes. */
export const modelMaxLength = 100_000;
/**
 * The token model's confidence at or above which guesslang is not asked: on the tuning packages,
 * out of fold, it asks guesslang for 1.2% of the snippets, so the 95th percentile of the time a
 * snippet takes is the token model's, and is as good as asking it for 11% (92.7% against 92.0%;
 * test/bench/languages/tune.ts, docs/languages.md).
 */
export const sureWithoutModel = 0.6;

/**
 * Texts of fewer lines than this are never sent to guesslang: on one to three lines of the tuning
 * packages it is right on 27% alone, and asking it where the token model is unsure lost 0.3 points
 * out of fold (docs/languages.md, "One to three lines"), for 20-70 ms a save.
 */
export const modelMinLines = 4;

/** Whether the text, blank lines around it aside, has at least `count` lines (read no further than that). */
function hasLines(text: string, count: number): boolean {
  const body = text.trim();
  let lines = 1;
  for (let at = body.indexOf('\n'); at !== -1 && lines < count; at = body.indexOf('\n', at + 1)) lines++;
  return lines >= count;
}

/**
 * Whether chooseLanguage's answer without guesslang stands: guesslang could not change it, the text
 * is too short for it, or the token model is sure.
 */
export function standsWithoutModel(alone: LanguageGuess, text: string, sure = sureWithoutModel): boolean {
  return alone.source !== 'tokens' || alone.confidence >= sure || !hasLines(text, modelMinLines);
}
/** Markdown's own marks: a heading, a list item, a quote, a table row, emphasis, a link or image, code spans, a rule, a comment. */
const markdownSyntax = /^ {0,3}(#{1,6}\s|[-*+]\s|\d{1,3}[.)]\s|>|\||={3,}\s*$|-{3,}\s*$|```|~~~)|\*\*\S|__\S|\]\(|`[^`\n]+`|<!--/m;

/** Fewer known tokens than this and the token model has no opinion worth taking. */
const minKnownTokens = 3;

/**
 * The token model is let go this long after it was last used: it holds ~9 MB of the host's memory,
 * and reading it again from its file takes 60–80 ms, so a host that classifies a save now and
 * then holds it only while snippets are being classified.
 */
const TOKEN_MODEL_IDLE_MS = 5 * 60_000;

let tokenModel: TokenModel | undefined;
let loading: Promise<TokenModel> | undefined;
let idleMs = TOKEN_MODEL_IDLE_MS;
let letGo: NodeJS.Timeout | undefined;

function keepHeld(): void {
  if (letGo) letGo.refresh();
  else {
    letGo = setTimeout(letGoOfTokenModel, idleMs);
    letGo.unref();
  }
}

/** Read from its file on first use (and after it was let go), parsing its 60,000 tokens in one go: what a worker does. */
function tokens(): TokenModel {
  keepHeld();
  tokenModel ??= readTokenModel();
  return tokenModel;
}

/**
 * The token model, read when it is not held without holding the caller's event loop for more than
 * a part of it (tokenModelFile.ts): what the host's thread awaits before chooseLanguage.
 */
export async function tokenModelReady(): Promise<TokenModel> {
  if (tokenModel === undefined) {
    loading ??= loadTokenModel().finally(() => {
      loading = undefined;
    });
    const loaded = await loading;
    tokenModel ??= loaded;
  }
  keepHeld();
  return tokenModel;
}

function letGoOfTokenModel(): void {
  clearTimeout(letGo);
  letGo = undefined;
  tokenModel = undefined;
}

/** Whether the token model is held now (tests: that an idle one is let go). */
export function tokenModelHeld(): boolean {
  return tokenModel !== undefined;
}

/** Test seam: how long the token model is kept after its last use (restored with no argument); lets go of it now. */
export function setTokenModelIdleMsForTests(ms = TOKEN_MODEL_IDLE_MS): void {
  idleMs = ms;
  letGoOfTokenModel();
}

/** An object or array JSON.parse reads: too few tokens for either model on one line, and certain. */
function isJson(text: string): boolean {
  const trimmed = text.trim();
  if (trimmed.length > 100_000 || !/^[[{]/.test(trimmed)) return false;
  try {
    JSON.parse(trimmed);
    return true;
  } catch {
    return false;
  }
}

export function isBlank(text: string): boolean {
  return text.trim() === '';
}

export function wantsModel(text: string): boolean {
  return text.trim().length >= modelMinLength;
}

/**
 * Decides between the combination's first two languages when they are a pair it knows (a
 * benchmark's candidate: docs/languages.md, seventh pass); undefined leaves the combination's answer.
 */
export type PairDecider = (text: string, first: ClassificationSpecific, second: ClassificationSpecific, margin: number) => ClassificationSpecific | undefined;

/**
 * Prose as text, one-line commands and SQL statements by their first word, then the models
 * combined. `model` and `weights` are the shipped ones unless a benchmark scores others; `extra` is
 * a further model a benchmark adds, counted with `weights.extraWeight`, and `pair` a pair specialist
 * it tries, before the corrections (none ships: docs/languages.md).
 */
export function chooseLanguage(
  text: string,
  guesses: readonly ModelGuess[],
  model: TokenModel = tokens(),
  weights: Combination = tunedCombination,
  extra?: (text: string) => ExtraScores,
  pair?: PairDecider,
): LanguageGuess {
  if (isBlank(text)) return { specific: 'txt', confidence: 0, source: 'default' };
  const head = text.slice(0, 3_000);
  // guesslang has no "plain text" class and the token model none either.
  const ruled = ruledBeforeModels(head);
  if (ruled !== undefined) return { ...ruled, source: 'fallback' };
  if (isJson(text)) return { specific: 'json', confidence: 0.9, source: 'fallback' };
  const scores = model.score(text);
  if (scores.known < minKnownTokens) return { ...highlightJsGuess(text), source: 'fallback' };
  const combined = combine(scores, guesses, weights, (weights.extraWeight ?? 0) > 0 ? extra?.(text) : undefined);
  const specific = (combined.runnerUp !== undefined && pair?.(text, combined.specific, combined.runnerUp, combined.margin ?? 0)) || combined.specific;
  let corrected = correctedBySyntax(text, specific);
  // Markdown holds every language's code, so the models read code as Markdown; a text with none of
  // Markdown's marks is the language read next (issue 31's eighth pass, chosen out of fold).
  if (corrected === 'md' && combined.runnerUp !== undefined && !markdownSyntax.test(head)) corrected = correctedBySyntax(text, combined.runnerUp);
  return { specific: corrected, confidence: combined.confidence, source: guesses.length > 0 ? 'model' : 'tokens' };
}
