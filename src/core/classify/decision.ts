/**
 * How a language is chosen from guesslang's answers, the token model and the fallback. Pure, so
 * the worker runs it next to guesslang (keeping the work off the host's event loop) and the host
 * runs it without guesslang when that is unloaded, slow or gone.
 *
 * Measured on held-out real code (docs/languages.md): guesslang alone is right on 74.7% of
 * snippets, the token model alone on 88.9%, the token model with guesslang where it is unsure on
 * 90.0%; the old rule (guesslang at 0.2 confidence or more, highlight.js below) on 73.0%. highlight.js now only answers where the
 * token model knows too few of the snippet's tokens to have an opinion.
 */
import type { ClassificationSpecific } from '../piecesTypes.ts';
import { combine, type ModelGuess } from './combination.ts';
import { classifyWithFallback, looksLikeCommandLine, looksLikeProse, looksLikeSqlStatement } from './fallbackClassifier.ts';
import { TokenModel, type TokenModelData } from './tokenModel.ts';
import trained from './tokenModel.json' with { type: 'json' };

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
 * out of fold, it skips 80% of the snippets for 0.7 points (test/bench/languages/tune.ts).
 */
export const sureWithoutModel = 0.999;

/** Whether chooseLanguage's answer without guesslang stands: guesslang could not change it, or the token model is sure. */
export function standsWithoutModel(alone: LanguageGuess, sure = sureWithoutModel): boolean {
  return alone.source !== 'tokens' || alone.confidence >= sure;
}
/** Fewer known tokens than this and the token model has no opinion worth taking. */
const minKnownTokens = 3;

const typeScriptOnly =
  /[\w)\]]\??:\s*(string|number|boolean|any|unknown|void|never|object|readonly|Promise|Array|Record|[A-Z]\w*(<|\[\]|\s*[|=,;)])|\{|\()|\b(interface|type|enum|namespace|declare|implements|abstract|readonly|private|protected|public)\s+\w|\bas\s+(const|\w+)\b|<\w+(,\s*\w+)*>\s*\(|\w!\./;

/**
 * What the models read as one of `from` but has syntax only `to` has is `to`. Chosen out of fold on
 * the tuning packages, where each was right on the snippets it changed (in brackets) and wrong on
 * none unless said.
 */
const corrections: readonly { readonly from: readonly ClassificationSpecific[]; readonly to: ClassificationSpecific; readonly syntax: RegExp }[] = [
  // A type annotation, an interface, a type alias, `as const`, `import type`, a member's modifier (10).
  {
    from: ['js'],
    to: 'ts',
    syntax: /[\w)\]]\??:\s*(string|number|boolean|any|unknown|void|never|Promise<|Array<|Record<)\b|\binterface\s+\w+\s*(<|\{|extends)|\btype\s+\w+\s*(<[^>]*>)?\s*=\s*[^=]|\bas\s+const\b|\bimport\s+type\b|\b(private|public|protected|readonly)\s+\w+\s*[:;=(]/,
  },
  // Kotlin's `fun`, `val`, a typed `var` (61; 8 read as Scala).
  { from: ['java'], to: 'kt', syntax: /\bfun\s+\w+|\bval\s+\w+|\bvar\s+\w+\s*:/ },
  { from: ['scala'], to: 'kt', syntax: /\bfun\s+[\w.<>]+\(/ },
  // Kotlin's `fun f(` or a `val` declared read as TypeScript, JavaScript or Swift (36).
  { from: ['ts', 'js', 'swift'], to: 'kt', syntax: /\bfun\s+[\w.<>]+\(|^\s*(override\s+|private\s+)?val\s+\w+\s*[:=]/m },
  // Perl's documentation, POD (28).
  { from: ['md'], to: 'pl', syntax: /^=(head\d|item|over|back|cut|pod|begin|end|encoding)\b/m },
  // Perl's `my $x`, `sub f {`, `=~` read as PHP (4).
  { from: ['php'], to: 'pl', syntax: /\bmy\s+[$@%]|\bsub\s+\w+\s*\{|=~/ },
  // A page's tags around its styles (4), or read as XML (11; 1 wrong, Python holding HTML templates).
  { from: ['xml'], to: 'html', syntax: /<(div|p|a|br|span|table|tr|td|ul|li|h[1-6]|body|head|title|img|form|input)\b|<!DOCTYPE html/i },
  { from: ['css'], to: 'html', syntax: /<(!DOCTYPE|html|head|body|style|div|link|meta|script|span|p|a|table)\b|<\/\w+>/i },
  // `std::`, templates, namespaces, access labels, C++'s standard headers, `::`, classes (9).
  {
    from: ['c'],
    to: 'cpp',
    syntax: /\bstd::|\btemplate\s*<|\bnamespace\s+\w+\s*\{|\bnullptr\b|\bconstexpr\b|\b(public|private|protected)\s*:|\bvirtual\b|#include\s*<(iostream|string|vector|map|memory|algorithm|utility|cstdint|cstddef|cstdlib|cstring|functional|type_traits)>|::|\bclass\s+\w+/,
  },
];

const commonJs = /\brequire\s*\(|\bmodule\.exports\b|\bexports\.\w+\s*=|['"]use strict['"]|@(param|type|returns?)\s*\{/;

let tokenModel: TokenModel | undefined;

/** Built on first use: parsing its 60,000 tokens takes tens of milliseconds. */
function tokens(): TokenModel {
  tokenModel ??= new TokenModel(trained satisfies TokenModelData);
  return tokenModel;
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

/** Prose as text, one-line commands and SQL statements by their first word, then the models combined. */
export function chooseLanguage(text: string, guesses: readonly ModelGuess[]): LanguageGuess {
  if (isBlank(text)) return { specific: 'txt', confidence: 0, source: 'default' };
  const head = text.slice(0, 3_000);
  // guesslang has no "plain text" class and the token model none either.
  if (looksLikeProse(head)) return { specific: 'txt', confidence: 0.5, source: 'fallback' };
  if (looksLikeCommandLine(head)) return { specific: 'sh', confidence: 0.6, source: 'fallback' };
  if (looksLikeSqlStatement(head)) return { specific: 'sql', confidence: 0.6, source: 'fallback' };
  if (isJson(text)) return { specific: 'json', confidence: 0.9, source: 'fallback' };
  const scores = tokens().score(text);
  if (scores.known < minKnownTokens) return { ...classifyWithFallback(text), source: 'fallback' };
  const combined = combine(scores, guesses);
  // CommonJS or JSDoc types and nothing only TypeScript has (a type annotation, an interface…): JavaScript;
  // Then the corrections.
  const javaScript = combined.specific === 'ts' && commonJs.test(text) && !typeScriptOnly.test(text);
  const corrected = corrections.find(({ from, syntax }) => from.includes(combined.specific) && syntax.test(text))?.to;
  const specific = javaScript ? 'js' : (corrected ?? combined.specific);
  return { specific, confidence: combined.confidence, source: guesses.length > 0 ? 'model' : 'tokens' };
}
