/**
 * Satchel's memories route (src/wire/memories.ts): the newest memories with their cited files
 * checked now, on the line of whole-record reads (each check reads files).
 */
import { route, type RouteModule } from './deps.ts';
import { json, queryString } from '../http.ts';
import { InvalidInputError } from '../../core/errors.ts';
import { MAX_LISTED_MEMORIES, memoryOperations as op } from '../../wire/memories.ts';

/** Characters of each memory's text the listing shows. */
const LISTED_CHARS = 200;

export const memoryRoutes: RouteModule = (router, { core, reads }) => {
  route(router, op.list, async (ctx) => {
    const raw = queryString(ctx, 'limit');
    if (raw !== undefined && raw !== '' && !/^\d{1,6}$/.test(raw)) throw new InvalidInputError(`Query parameter limit must be a whole number, not ${JSON.stringify(raw.slice(0, 32))}`);
    const limit = raw === undefined || raw === '' ? MAX_LISTED_MEMORIES : Math.min(MAX_LISTED_MEMORIES, Math.max(1, Number(raw)));
    const memories = await reads.run(() => core.memories.views(core.memories.newest(limit), LISTED_CHARS));
    if (memories !== undefined) json(ctx, { memories });
  });
};
