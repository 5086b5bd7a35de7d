/**
 * Satchel's sync routes (wire/sync.ts): thin over core's sync area. The sync's progress and its
 * summary are answered as NDJSON; a client that disconnects cancels it.
 */
import { empty, input, json, param } from '../http.ts';
import { longOperationReply } from '../ndjson.ts';
import { route, type RouteModule } from './deps.ts';
import { syncOperations as op } from '../../wire/sync.ts';
import { writeOptions } from '../writeOptions.ts';

export const syncRoutes: RouteModule = (router, { core }) => {
  route(router, op.sync, (ctx) => {
    const request = input(ctx, op.sync);
    if (request.remote !== undefined) core.sync.configure(request.remote, request.branch);
    void longOperationReply(
      ctx,
      core.context.logger,
      op.sync,
      (signal, onProgress) => core.sync.sync({ signal, onProgress, confirmDeletes: request.confirmDeletes, maxDeletePercent: request.maxDeletePercent }),
      (summary) => ({ summary }),
    );
  });

  route(router, op.status, (ctx) => {
    json(ctx, core.sync.status());
  });

  route(router, op.conflicts, (ctx) => {
    json(ctx, core.sync.conflicts());
  });

  route(router, op.conflict, (ctx) => {
    json(ctx, core.sync.conflict(param(ctx, 'copy')));
  });

  route(router, op.resolve, (ctx) => {
    const { keep, fields } = input(ctx, op.resolve);
    core.sync.resolve(param(ctx, 'copy'), keep, writeOptions(ctx), fields);
    empty(ctx);
  });
};
