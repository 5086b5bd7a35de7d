import { empty, input, json, param } from '../http.ts';
import { route, type RouteModule } from './deps.ts';
import { modelOperations as op } from '../../wire/models.ts';
import { registerModelStreams } from './modelStreams.ts';
import { piecesView, piecesViews } from '../../core/models/piecesView.ts';

/**
 * Routes of the models area (interface.md 4.6 and 4.7), plus POST /models/import for a model file
 * already on disk. Static paths come before `/:model` ones. Every model an operation of the Pieces
 * interface answers is shown as Pieces clients' chat pickers need it (piecesView); the import and
 * the /satchel/ reads give the true state.
 */
export const modelsRoutes: RouteModule = (router, deps) => {
  const models = deps.core.models;
  registerModelStreams(router, deps);

  route(router, op.list, (ctx) => json(ctx, piecesViews(models.list())));
  route(router, op.satchelList, (ctx) => json(ctx, models.list()));
  route(router, op.create, (ctx) => json(ctx, piecesView(models.create(input(ctx, op.create)))));
  // Satchel's own operation (no Pieces client calls it): the true state.
  route(router, op.import, async (ctx) => json(ctx, await models.importFile(input(ctx, op.import))));
  route(router, op.unloadAll, async (ctx) => {
    await models.unloadAll();
    empty(ctx);
  });
  route(router, op.delete, async (ctx) => {
    await models.delete(param(ctx, 'model'));
    empty(ctx);
  });
  route(router, op.deleteCache, async (ctx) => {
    input(ctx, op.deleteCache);
    json(ctx, await models.deleteCache(param(ctx, 'model')));
  });

  route(router, op.update, async (ctx) => json(ctx, piecesView(await models.update(input(ctx, op.update)))));
  route(router, op.get, (ctx) => json(ctx, piecesView(models.get(param(ctx, 'model')))));
  route(router, op.satchelGet, (ctx) => json(ctx, models.get(param(ctx, 'model'))));
  route(router, op.download, async (ctx) => json(ctx, piecesView(await models.download(param(ctx, 'model')))));
  route(router, op.cancelDownload, async (ctx) => json(ctx, piecesView(await models.cancelDownload(param(ctx, 'model')))));
  route(router, op.load, async (ctx) => json(ctx, piecesView(await models.load(param(ctx, 'model')))));
  route(router, op.unload, async (ctx) => json(ctx, piecesView(await models.unload(param(ctx, 'model')))));
};
