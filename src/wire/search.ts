/**
 * The search area's two other modes (`/search/full_text`, `/search/neural_code`, as the Pieces
 * CLI's `search --mode fts|ncs` calls them) and Satchel's own semantic recall: whether search is
 * hybrid, and cancelling the back-fill of embeddings.
 */
import type * as W from '../core/wire.ts';
import type { RecallStatus } from '../core/search/semanticRecall.ts';
import { get, json, post } from './operation.ts';

/**
 * How a search with a query ran: fused with vector similarity (`hybrid`, with the embedding model
 * and how many snippets have a vector so far) or by words only, and why. Satchel's own key in
 * /search/neural_code's reply; clients of the interface drop it.
 */
export type SearchMode =
  | { readonly mode: 'hybrid'; readonly model: string; readonly vectors: number }
  | { readonly mode: 'lexical'; readonly reason: string };

export const searchOperations = {
  fullText: get('/search/full_text', json<W.SearchedAssets>()),
  neuralCode: get('/search/neural_code', json<W.SearchedAssets & { readonly search?: SearchMode }>()),
  semantic: get('/search/semantic', json<RecallStatus>()),
  cancelSemantic: post('/search/semantic/cancel', json<{ cancelled: boolean; status: RecallStatus }>()),
} as const;
