/**
 * Satchel's memories operations (not part of the Pieces interface): the memories agents saved
 * (create_pieces_memory, save_memory), newest first, each with its cited files checked now, so
 * the editor's Memories node can say which may be stale. A memory is an asset: it is opened,
 * edited, deleted and restored through the asset operations.
 */
import type { MemoryView } from '../core/memories/memories.ts';
import { get, json } from './operation.ts';

export type { MemoryView } from '../core/memories/memories.ts';

export interface MemoryList {
  /** Newest first, at most the limit asked (default and most 500). */
  readonly memories: readonly MemoryView[];
}

/** Memories listed at most. */
export const MAX_LISTED_MEMORIES = 500;

export const memoryOperations = {
  /** `?limit=`: how many, newest first (1–500, default 500). Each memory's text is its opening (200 characters). */
  list: get('/satchel/memories', json<MemoryList>()),
} as const;
