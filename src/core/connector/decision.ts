/**
 * What to say about a copied snippet: suggest reusing saved ones, suggest saving it, or stay quiet.
 * Pure: the caller supplies the fingerprints, the index matches, the application's last copy and the
 * quieting of each kind, so every rule here is unit-tested without a store.
 */
import { quietedMinimum, quietedThreshold, type Quieting, type QuietingSettings } from './quieting.ts';
import type { IndexMatch } from './fingerprintIndex.ts';

export interface DecisionSettings extends QuietingSettings {
  /** Copies with fewer non-whitespace characters are trivial. */
  readonly minLength: number;
  /** Copies with fewer fingerprints cannot be compared reliably (0/500 false positives needs 4). */
  readonly minFingerprints: number;
  /** A saved snippet whose similarity reaches this is suggested for reuse (models.md §4: 0.5). */
  readonly reuseThreshold: number;
  /** Fingerprints a copy needs before saving it is suggested (about 2.5 tokens each). */
  readonly saveMinFingerprints: number;
  /** A copy equal (token for token) to the application's previous copy within this window is a repeat. */
  readonly repeatWindowMs: number;
  /** The most saved snippets a reuse suggestion lists. */
  readonly maxReuseAssets: number;
}

export type QuietReason = 'too_short' | 'no_code' | 'repeat' | 'muted' | 'quieted' | 'not_worth_saving';

export type Decision =
  | { readonly kind: 'none'; readonly reason: QuietReason; readonly matches: readonly IndexMatch[] }
  | { readonly kind: 'reuse'; readonly matches: readonly IndexMatch[] }
  | { readonly kind: 'save'; readonly matches: readonly IndexMatch[] };

export interface DecisionInput {
  readonly text: string;
  /** `normalizedKey(text)`. */
  readonly key: string;
  readonly fingerprintCount: number;
  /** Matches at or above the base reuse threshold, best first. */
  readonly matches: readonly IndexMatch[];
  readonly lastCopy?: { readonly key: string; readonly at: number };
  readonly quieting: { readonly reuse: Quieting; readonly save: Quieting };
  readonly now: number;
}

/** The length `minLength` is compared with: non-whitespace characters. */
export function significantLength(text: string): number {
  return text.replace(/\s+/gu, '').length;
}

/** Whether a copy is too trivial to talk about at all (before any index lookup). */
export function trivialReason(
  text: string,
  key: string,
  lastCopy: DecisionInput['lastCopy'],
  now: number,
  settings: DecisionSettings,
): QuietReason | undefined {
  if (significantLength(text) < settings.minLength) return 'too_short';
  if (!/[\p{L}\p{N}]/u.test(text)) return 'no_code';
  if (lastCopy && lastCopy.key === key && now - lastCopy.at <= settings.repeatWindowMs) return 'repeat';
  return undefined;
}

export function decide(input: DecisionInput, settings: DecisionSettings): Decision {
  const trivial = trivialReason(input.text, input.key, input.lastCopy, input.now, settings);
  if (trivial) return { kind: 'none', reason: trivial, matches: [] };
  if (input.fingerprintCount < settings.minFingerprints) return { kind: 'none', reason: 'too_short', matches: [] };

  const { reuse, save } = input.quieting;
  const near = input.matches.filter((match) => match.score >= settings.reuseThreshold);
  if (near.length > 0) {
    // Already saved: the only useful prompt is reuse, and saving a duplicate is never suggested.
    if (isMuted(reuse, input.now)) return { kind: 'none', reason: 'muted', matches: near };
    const threshold = quietedThreshold(settings.reuseThreshold, reuse.level);
    const strong = near.filter((match) => match.score >= threshold).slice(0, settings.maxReuseAssets);
    return strong.length > 0 ? { kind: 'reuse', matches: strong } : { kind: 'none', reason: 'quieted', matches: near };
  }
  if (isMuted(save, input.now)) return { kind: 'none', reason: 'muted', matches: [] };
  if (input.fingerprintCount < quietedMinimum(settings.saveMinFingerprints, save.level)) {
    return { kind: 'none', reason: save.level > 0 ? 'quieted' : 'not_worth_saving', matches: [] };
  }
  return { kind: 'save', matches: [] };
}

function isMuted(quieting: Quieting, now: number): boolean {
  return quieting.mutedUntil !== undefined && quieting.mutedUntil > now;
}
