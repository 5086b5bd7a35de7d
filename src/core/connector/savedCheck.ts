/**
 * Whether a piece of code is already saved: the connector's suggest decision asked as a question
 * (by an agent, over MCP) rather than reported as a copy. A question is not a copy, so it leaves no
 * trace an application's copies would: it is not remembered for the repeat rule, counts no
 * suggestion, and is not quieted by the user's dismissals of copy-time prompts (asking twice gets
 * the same answer twice).
 */
import type { AssetService } from '../assets/assetService.ts';
import type { ConnectorService } from './connectorService.ts';
import { decide, type QuietReason } from './decision.ts';
import { copyFacts } from './copyFacts.ts';

export interface SavedMatch {
  readonly assetId: string;
  /** Similarity 0–1 (share of the code's fingerprints the saved snippet holds). */
  readonly score: number;
}

export type SavedCheck =
  /** Saved snippets at or above the reuse threshold, best first. */
  | { readonly kind: 'saved'; readonly matches: readonly SavedMatch[] }
  /** Compared and not saved; `worthSaving` when the connector would suggest saving it. */
  | { readonly kind: 'not_saved'; readonly worthSaving: boolean }
  /** Too short or without code to compare reliably (the connector stays quiet on such copies). */
  | { readonly kind: 'too_trivial'; readonly reason: QuietReason };

const NEUTRAL = { level: 0, dismissals: 0 } as const;

export function checkSaved(connector: ConnectorService, assets: AssetService, text: string, now = Date.now()): SavedCheck {
  const { key, prints, shape } = copyFacts(text);
  const settings = connector.settings;
  // Only the user's own snippets count as saved: suggested and pseudo assets are indexed too.
  const matches = connector.index
    .query(prints, { minScore: settings.reuseThreshold, limit: settings.maxReuseAssets * 2 })
    .filter((match) => assets.isOrdinary(match.assetId));
  const decision = decide(
    { text, key, fingerprintCount: prints.length, shape, matches, quieting: { reuse: NEUTRAL, save: NEUTRAL }, now },
    settings,
  );
  switch (decision.kind) {
    case 'reuse':
      return { kind: 'saved', matches: decision.matches.map((match) => ({ assetId: match.assetId, score: Math.round(match.score * 1000) / 1000 })) };
    case 'save':
      return { kind: 'not_saved', worthSaving: true };
    default:
      // With no quieting and no previous copy, the only other answers are the trivial ones.
      return decision.reason === 'not_worth_saving' ? { kind: 'not_saved', worthSaving: false } : { kind: 'too_trivial', reason: decision.reason };
  }
}
