/**
 * Satchel's trash routes (src/wire/trash.ts): thin over core's TrashService. A restore is a write
 * by the request's author (an asset's restore is a revision, its ETag the asset's new revision);
 * emptying the trash answers NDJSON as it goes, and stops if the client leaves.
 */
import { route, type RouteModule } from './deps.ts';
import { json, param, queryString } from '../http.ts';
import { longOperationReply } from '../ndjson.ts';
import { requestAuthor, sendRevision } from '../writeOptions.ts';
import { InvalidInputError } from '../../core/errors.ts';
import { isTrashKind } from '../../core/trash/trashService.ts';
import { trashOperations as op } from '../../wire/trash.ts';

export const trashRoutes: RouteModule = (router, { core }) => {
  route(router, op.list, (ctx) => {
    const limit = queryString(ctx, 'limit');
    const kind = queryString(ctx, 'kind');
    if (limit !== undefined && limit !== '' && !/^\d{1,6}$/.test(limit)) throw new InvalidInputError(`Query parameter limit must be a whole number, not ${JSON.stringify(limit.slice(0, 32))}`);
    if (kind !== undefined && kind !== '' && !isTrashKind(kind)) throw new InvalidInputError(`Query parameter kind must be asset or conversation, not ${JSON.stringify(kind.slice(0, 32))}`);
    json(
      ctx,
      core.trash.list({
        limit: limit === undefined || limit === '' ? undefined : Number(limit),
        after: queryString(ctx, 'after'),
        kind: kind === undefined || kind === '' ? undefined : kind,
      }),
    );
  });

  route(router, op.get, (ctx) => json(ctx, core.trash.get(param(ctx, 'id'))));

  route(router, op.restore, (ctx) => {
    const restored = core.trash.restore(param(ctx, 'id'), { author: requestAuthor(ctx) });
    if (restored.revision !== undefined) sendRevision(ctx, restored.revision);
    json(ctx, restored);
  });

  route(router, op.deleteForever, (ctx) => json(ctx, core.trash.deleteForever(param(ctx, 'id'))));

  route(router, op.empty, (ctx) => {
    // Before the reply starts: a second empty is a 409, as a refusal, not an error line after a 200.
    core.trash.refuseWhileEmptying();
    void longOperationReply(
      ctx,
      core.context.logger,
      op.empty,
      (signal, onProgress) => core.trash.empty({ signal, onProgress }),
      (emptied) => ({ emptied }),
    );
  });
};
