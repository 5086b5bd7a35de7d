import { empty, input, json, param } from '../http.ts';
import type { RouteModule } from './deps.ts';
import { modelOperations as op } from '../../wire/models.ts';
import { registerModelStreams } from './modelStreams.ts';

/**
 * Routes of the models area (interface.md 4.6 and 4.7), plus POST /models/import for a model file
 * already on disk. Static paths come before `/:model` ones.
 */
export const modelsRoutes: RouteModule = (router, deps) => {
  const models = deps.core.models;
  registerModelStreams(router, deps);

  router.get('/models', (ctx) => json(ctx, models.list()));
  router.post(op.create.path, (ctx) => json(ctx, models.create(input(ctx, op.create))));
  router.post(op.import.path, async (ctx) => json(ctx, await models.importFile(input(ctx, op.import))));
  router.post('/models/unload', async (ctx) => {
    await models.unloadAll();
    empty(ctx);
  });
  router.post('/models/:model/delete', async (ctx) => {
    await models.delete(param(ctx, 'model'));
    empty(ctx);
  });
  router.post(op.deleteCache.path, async (ctx) => {
    input(ctx, op.deleteCache);
    json(ctx, await models.deleteCache(param(ctx, 'model')));
  });

  router.post(op.update.path, async (ctx) => json(ctx, await models.update(input(ctx, op.update))));
  router.get('/model/:model', (ctx) => json(ctx, models.get(param(ctx, 'model'))));
  router.post('/model/:model/download', async (ctx) => json(ctx, await models.download(param(ctx, 'model'))));
  router.post('/model/:model/download/cancel', async (ctx) => json(ctx, await models.cancelDownload(param(ctx, 'model'))));
  router.post('/model/:model/load', async (ctx) => json(ctx, await models.load(param(ctx, 'model'))));
  router.post('/model/:model/unload', async (ctx) => json(ctx, await models.unload(param(ctx, 'model'))));
};
