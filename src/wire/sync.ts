/**
 * Satchel's own sync operations (docs/sync.md), not part of the Pieces interface:
 *   POST /satchel/sync   sets the remote when the body names one, then syncs; answers NDJSON:
 *                        progress lines, then the summary or an error line. A client that
 *                        disconnects cancels the sync (before its push; after it, it finishes).
 *   GET  /satchel/sync   the sync's status: the remote (without credentials), changes waiting,
 *                        conflict copies, the last sync's summary.
 */
import { z } from 'zod';
import type { SyncProgress, SyncSummary } from '../core/sync/syncEngine.ts';
import type { SyncStatus } from '../core/sync/syncService.ts';
import { get, json, ndjson, post } from './operation.ts';

const syncRequest = z
  .object({
    /** A URL or path the user's git can push to; sets the remote (a new one starts over). */
    remote: z.string().min(1).max(4096).optional(),
    branch: z.string().min(1).max(100).optional(),
    /** Go ahead with a sync that deletes more than the share of the library that stops it otherwise. */
    confirmDeletes: z.boolean().optional(),
  })
  .default({});

export type SyncLine =
  | { readonly progress: SyncProgress }
  | { readonly summary: SyncSummary }
  | { readonly error: { readonly code: string; readonly message: string } };

export const syncOperations = {
  sync: post('/satchel/sync', ndjson<SyncLine>(), 'sync request', syncRequest),
  status: get('/satchel/sync', json<SyncStatus>()),
} as const;
