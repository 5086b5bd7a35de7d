/**
 * The search area's two other modes (`/search/full_text`, `/search/neural_code`, as the Pieces
 * CLI's `search --mode fts|ncs` calls them) and Satchel's own semantic recall: whether search is
 * hybrid, and cancelling the back-fill of embeddings.
 */
import type * as W from '../core/piecesTypes.ts';
import type { RecallStatus, SearchMode } from '../core/search/semanticRecall.ts';
import { get, json, post } from './operation.ts';

export type { SearchMode } from '../core/search/semanticRecall.ts';

/**
 * Headers of /search/neural_code's reply saying how it ran: the mode alone, and the whole
 * SearchMode as JSON. Headers, not a key of the body: the body is the interface's SearchedAssets,
 * key for key.
 */
export const SEARCH_MODE_HEADER = 'x-satchel-search';
export const SEARCH_PLAN_HEADER = 'x-satchel-search-plan';

/** The headers that carry `mode`; the JSON escapes all but printable ASCII, so any reason fits a header. */
export function searchModeHeaders(mode: SearchMode): Record<string, string> {
  const plan = JSON.stringify(mode).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return { [SEARCH_MODE_HEADER]: mode.mode, [SEARCH_PLAN_HEADER]: plan };
}

export const searchOperations = {
  fullText: get('/search/full_text', json<W.SearchedAssets>()),
  neuralCode: get('/search/neural_code', json<W.SearchedAssets>()),
  semantic: get('/search/semantic', json<RecallStatus>()),
  cancelSemantic: post('/search/semantic/cancel', json<{ cancelled: boolean; status: RecallStatus }>()),
} as const;
