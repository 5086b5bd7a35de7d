/**
 * Satchel's own sync operations (docs/sync.md), not part of the Pieces interface:
 *   POST /satchel/sync   sets the remote when the body names one, then syncs; answers NDJSON:
 *                        progress lines, then the summary or an error line. A client that
 *                        disconnects cancels the sync (before its push; after it, it finishes).
 *   GET  /satchel/sync   the sync's status: the remote (without credentials), changes waiting,
 *                        conflict copies, the last sync's summary.
 *   GET  /satchel/sync/conflicts                 the conflict copies: [{ copy, original, name, language, yours }]
 *   GET  /satchel/sync/conflicts/:copy           its two versions as this machine names them: { mine, theirs, differs }
 *   POST /satchel/sync/conflicts/:copy/resolve   { keep: mine | theirs | both, fields? }
 */
import { z } from 'zod';
import type { SyncProgress, SyncSummary } from '../core/sync/syncEngine.ts';
import type { ConflictChoice, ConflictField, ConflictSides, SyncConflict, SyncStatus } from '../core/sync/syncService.ts';
import { lazy, get, json, ndjson, none, post } from './operation.ts';
import type { LongOperationLine } from './longOperation.ts';

const syncRequest = lazy(() => z
  .object({
    /** A URL or path the user's git can push to; sets the remote (a new one starts over). */
    remote: z.string().min(1).max(4096).optional(),
    branch: z.string().min(1).max(100).optional(),
    /** Go ahead with a sync that deletes more than the share of the library that stops it otherwise. */
    confirmDeletes: z.boolean().optional(),
    /** The share of the library (0-100 %) a sync may delete without asking (default 50). */
    maxDeletePercent: z.number().min(0).max(100).optional(),
  })
  .default({}));

export type SyncLine = LongOperationLine<SyncProgress, 'summary', SyncSummary>;

/** Kept in step with core's CONFLICT_CHOICES and CONFLICT_FIELDS (conflictCopies.ts: wire runs no code of core's). */
const CHOICES = ['mine', 'theirs', 'both'] as const satisfies readonly ConflictChoice[];
const FIELDS = ['name', 'language', 'tags', 'websites', 'description', 'code', 'prefixes', 'syntax', 'favorited'] as const satisfies readonly ConflictField[];

/** `fields`: those taken from the version kept (default: all of them). */
const resolveRequest = lazy(() => z.object({
  keep: z.enum(CHOICES),
  fields: z.array(z.enum(FIELDS)).max(FIELDS.length).optional(),
}));

export const syncOperations = {
  sync: post('/satchel/sync', ndjson<SyncLine>(), 'sync request', syncRequest),
  status: get('/satchel/sync', json<SyncStatus>()),
  conflicts: get('/satchel/sync/conflicts', json<SyncConflict[]>()),
  conflict: get('/satchel/sync/conflicts/:copy', json<ConflictSides>()),
  resolve: post('/satchel/sync/conflicts/:copy/resolve', none, 'conflict resolution', resolveRequest),
} as const;
