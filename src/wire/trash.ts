/**
 * Satchel's trash operations (not part of the Pieces interface; docs/trash.md). A deleted asset or
 * conversation is gone to every operation of the interface; these list it, bring it back whole or
 * delete it for good.
 *
 *   GET  /satchel/trash?limit=&after=&kind=asset|conversation   TrashPage (newest deleted first; `next` pages on)
 *   GET  /satchel/trash/{id}                                     TrashItem
 *   POST /satchel/trash/{id}/restore                             TrashRestored (ETag: an asset's current revision)
 *   POST /satchel/trash/{id}/delete                              TrashDeleted (for good, with an asset's revisions)
 *   POST /satchel/trash/empty                                    NDJSON: progress lines, then `emptied` or `error`
 */
import type { Emptied, EmptyProgress, TrashDeleted, TrashItem, TrashPage, TrashRestored } from '../core/trash/trashService.ts';
import { get, json, ndjson, post } from './operation.ts';
import type { LongOperationLine } from './longOperation.ts';

export type { Emptied, EmptyProgress, TrashDeleted, TrashItem, TrashPage, TrashRestored } from '../core/trash/trashService.ts';

/** A line of POST /satchel/trash/empty's reply. */
export type EmptyLine = LongOperationLine<EmptyProgress, 'emptied', Emptied>;

export const trashOperations = {
  list: get('/satchel/trash', json<TrashPage>()),
  get: get('/satchel/trash/:id', json<TrashItem>()),
  restore: post('/satchel/trash/:id/restore', json<TrashRestored>()),
  deleteForever: post('/satchel/trash/:id/delete', json<TrashDeleted>()),
  /** Reads no body; the backup first when it is a mass delete, then the deletes, each reported; a client that leaves stops it. */
  empty: post('/satchel/trash/empty', ndjson<EmptyLine>()),
} as const;
