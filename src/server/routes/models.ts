import { empty, input, json, param } from '../http.ts';
import { route, type RouteModule } from './deps.ts';
import { modelOperations as op } from '../../wire/models.ts';
import { registerModelStreams } from './modelStreams.ts';

/**
 * Routes of the models area (interface.md 4.6 and 4.7), plus POST /models/import for a model file
 * already on disk. Static paths come before `/:model` ones.
 */
export const modelsRoutes: RouteModule = (router, deps) => {
  const models = deps.core.models;
  registerModelStreams(router, deps);

  route(router, op.list, (ctx) => json(ctx, models.list()));
  route(router, op.create, (ctx) => json(ctx, models.create(input(ctx, op.create))));
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

  route(router, op.update, async (ctx) => json(ctx, await models.update(input(ctx, op.update))));
  route(router, op.get, (ctx) => json(ctx, models.get(param(ctx, 'model'))));
  route(router, op.download, async (ctx) => json(ctx, await models.download(param(ctx, 'model'))));
  route(router, op.cancelDownload, async (ctx) => json(ctx, await models.cancelDownload(param(ctx, 'model'))));
  route(router, op.load, async (ctx) => json(ctx, await models.load(param(ctx, 'model'))));
  route(router, op.unload, async (ctx) => json(ctx, await models.unload(param(ctx, 'model'))));
};
