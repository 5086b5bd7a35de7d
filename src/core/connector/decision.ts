/**
 * What to say about a copied snippet: suggest reusing saved ones, suggest saving it, or stay quiet.
 * Pure: the caller supplies the fingerprints, the index matches, the application's last copy and the
 * quieting of each kind, so every rule here is unit-tested without a store.
 */
import { quietedMinimum, quietedThreshold, type Quieting, type QuietingSettings } from './quieting.ts';
import type { IndexMatch } from './fingerprintIndex.ts';
import type { CodeShape } from './codeShape.ts';
import { FINGERPRINT_CHARS } from './fingerprint.ts';
import { indexedPrefix } from '../search/tokens.ts';

export interface DecisionSettings extends QuietingSettings {
  /** Copies with fewer non-whitespace characters are trivial. */
  readonly minLength: number;
  /** Copies with fewer fingerprints cannot be compared reliably (0/500 false positives needs 4). */
  readonly minFingerprints: number;
  /** A saved snippet whose similarity reaches this is suggested for reuse (models.md §4: 0.5). */
  readonly reuseThreshold: number;
  /** Lines of code a copy needs before saving it is suggested (one-liners are not: see codeShape.ts). */
  readonly saveMinLines: number;
  /** Tokens on those lines that code defining something or opening a block needs (a two-line function has 10 to 40). */
  readonly saveMinBlockTokens: number;
  /** Tokens other code needs (a recipe of commands, a query). */
  readonly saveMinTokens: number;
  /** A copy equal (token for token) to the application's previous copy within this window is a repeat. */
  readonly repeatWindowMs: number;
  /** The most saved snippets a reuse suggestion lists. */
  readonly maxReuseAssets: number;
}

/** `holds_secret`: the copy holds a credential (issue 32): saving it is never suggested quietly; the user may save it by hand. */
export type QuietReason = 'too_short' | 'no_code' | 'repeat' | 'muted' | 'quieted' | 'not_worth_saving' | 'holds_secret';

export type Decision =
  | { readonly kind: 'none'; readonly reason: QuietReason; readonly matches: readonly IndexMatch[] }
  | { readonly kind: 'reuse'; readonly matches: readonly IndexMatch[] }
  | { readonly kind: 'save'; readonly matches: readonly IndexMatch[] };

export interface DecisionInput {
  readonly text: string;
  /** `normalizedKey(text)`. */
  readonly key: string;
  readonly fingerprintCount: number;
  /** `codeShape` of the fingerprinted text. */
  readonly shape: CodeShape;
  /** Matches at or above the base reuse threshold, best first. */
  readonly matches: readonly IndexMatch[];
  readonly lastCopy?: { readonly key: string; readonly at: number };
  readonly quieting: { readonly reuse: Quieting; readonly save: Quieting };
  readonly now: number;
  /** The secrets detector found a value in the copy. */
  readonly holdsSecret?: boolean | undefined;
}

/**
 * Whether `text` has at least `min` non-whitespace characters. The count stops at `min`, and only
 * the fingerprinted prefix is read: a copy is judged by what is compared of it, and counting all
 * of a 60 MB copy cost 4 s.
 */
export function hasSignificantLength(text: string, min: number): boolean {
  const judged = indexedPrefix(text, FINGERPRINT_CHARS);
  let count = 0;
  for (let i = 0; i < judged.length && count < min; i++) if (!isWhitespace(judged.charCodeAt(i))) count++;
  return count >= min;
}

/** Whether a copy is too trivial to talk about at all (before any index lookup). */
export function trivialReason(
  text: string,
  key: string,
  lastCopy: DecisionInput['lastCopy'],
  now: number,
  settings: DecisionSettings,
): QuietReason | undefined {
  if (!hasSignificantLength(text, settings.minLength)) return 'too_short';
  if (!/[\p{L}\p{N}]/u.test(indexedPrefix(text, FINGERPRINT_CHARS))) return 'no_code';
  if (lastCopy && lastCopy.key === key && now - lastCopy.at <= settings.repeatWindowMs) return 'repeat';
  return undefined;
}

export function decide(input: DecisionInput, settings: DecisionSettings): Decision {
  const trivial = trivialReason(input.text, input.key, input.lastCopy, input.now, settings);
  if (trivial) return { kind: 'none', reason: trivial, matches: [] };
  const near = input.matches.filter((match) => match.score >= settings.reuseThreshold);
  if (input.fingerprintCount < settings.minFingerprints) {
    // Too few fingerprints to claim a near-duplicate (a small function has 1 to 3): reuse is never
    // suggested, and saving only when nothing saved resembles it.
    if (near.length > 0 || !worthSaving(input.shape, settings, 0)) return { kind: 'none', reason: 'too_short', matches: [] };
    return saveOrQuiet(input, settings);
  }

  const { reuse } = input.quieting;
  if (near.length > 0) {
    // Already saved: the only useful prompt is reuse, and saving a duplicate is never suggested.
    if (isMuted(reuse, input.now)) return { kind: 'none', reason: 'muted', matches: near };
    const threshold = quietedThreshold(settings.reuseThreshold, reuse.level);
    const strong = near.filter((match) => match.score >= threshold).slice(0, settings.maxReuseAssets);
    return strong.length > 0 ? { kind: 'reuse', matches: strong } : { kind: 'none', reason: 'quieted', matches: near };
  }
  return saveOrQuiet(input, settings);
}

/**
 * Whether code of this shape is worth suggesting to save at a save-quieting level: two lines of
 * code or more, with enough tokens on them (fewer when it defines something or opens a block).
 */
export function worthSaving(shape: CodeShape, settings: DecisionSettings, level: number): boolean {
  const minimum = shape.block ? settings.saveMinBlockTokens : settings.saveMinTokens;
  return shape.lines >= settings.saveMinLines && shape.tokens >= quietedMinimum(minimum, level);
}

function saveOrQuiet(input: DecisionInput, settings: DecisionSettings): Decision {
  const { save } = input.quieting;
  if (isMuted(save, input.now)) return { kind: 'none', reason: 'muted', matches: [] };
  if (worthSaving(input.shape, settings, save.level)) return input.holdsSecret === true ? { kind: 'none', reason: 'holds_secret', matches: [] } : { kind: 'save', matches: [] };
  return { kind: 'none', reason: worthSaving(input.shape, settings, 0) ? 'quieted' : 'not_worth_saving', matches: [] };
}

function isMuted(quieting: Quieting, now: number): boolean {
  return quieting.mutedUntil !== undefined && quieting.mutedUntil > now;
}

/** `\\s` of a regular expression, for one UTF-16 code unit. */
function isWhitespace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}
