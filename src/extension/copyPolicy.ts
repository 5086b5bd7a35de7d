/**
 * This window's own connector settings. The host applies the settings of the window (or CLI) that
 * hosts; a client window would otherwise see its minimum length and reuse threshold do nothing. It
 * applies them to what it asks and to the answer, so they can make its suggestions stricter than the
 * host's (never looser: the host does not return what its own settings leave out).
 */
import type { Asset, Suggestion } from '../core/piecesTypes.ts';
import { hasSignificantLength } from '../core/connector/decision.ts';

export interface CopyThresholds {
  readonly minLength: number;
  readonly reuseThreshold: number;
}

/** Whether a copy is long enough to ask the host about. */
export function worthAsking(text: string, thresholds: CopyThresholds): boolean {
  return hasSignificantLength(text, thresholds.minLength);
}

/** The best saved asset the host suggests reusing whose similarity reaches this window's threshold. */
export function reuseMatch(suggestion: Suggestion, thresholds: CopyThresholds): Asset | undefined {
  if (!suggestion.reuse?.suggested) return undefined;
  const scores = suggestion.distribution ?? {};
  const listed = suggestion.reuse.assets?.iterable ?? [];
  const candidates = listed.length > 0 ? listed : (suggestion.assets?.iterable ?? []);
  // A host that gives no score for an asset made its own choice; the window does not second-guess it.
  return candidates.find((asset) => (scores[asset.id] ?? 1) >= thresholds.reuseThreshold);
}
