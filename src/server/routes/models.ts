import { body, empty, json, param } from '../http.ts';
import type { RouteModule } from './deps.ts';
import { deleteCacheSchema, modelImportSchema, modelSchema, seededModelSchema } from '../../wire/models.ts';
import { registerModelStreams } from './modelStreams.ts';
import type { Model, SeededModel } from '../../core/wire.ts';

/**
 * Routes of the models area (interface.md 4.6 and 4.7), plus POST /models/import for a model file
 * already on disk. Static paths come before `/:model` ones.
 */
export const modelsRoutes: RouteModule = (router, deps) => {
  const models = deps.core.models;
  registerModelStreams(router, deps);

  router.get('/models', (ctx) => json(ctx, models.list()));
  router.post('/models/create', (ctx) => json(ctx, models.create(body(ctx, seededModelSchema, 'SeededModel') as SeededModel)));
  router.post('/models/import', async (ctx) => json(ctx, await models.importFile(body(ctx, modelImportSchema, 'model import'))));
  router.post('/models/unload', async (ctx) => {
    await models.unloadAll();
    empty(ctx);
  });
  router.post('/models/:model/delete', async (ctx) => {
    await models.delete(param(ctx, 'model'));
    empty(ctx);
  });
  router.post('/models/:model/delete/cache', async (ctx) => {
    body(ctx, deleteCacheSchema, 'ModelDeleteCacheInput');
    json(ctx, await models.deleteCache(param(ctx, 'model')));
  });

  router.post('/model/update', async (ctx) => json(ctx, await models.update(body(ctx, modelSchema, 'Model') as Model)));
  router.get('/model/:model', (ctx) => json(ctx, models.get(param(ctx, 'model'))));
  router.post('/model/:model/download', async (ctx) => json(ctx, await models.download(param(ctx, 'model'))));
  router.post('/model/:model/download/cancel', async (ctx) => json(ctx, await models.cancelDownload(param(ctx, 'model'))));
  router.post('/model/:model/load', async (ctx) => json(ctx, await models.load(param(ctx, 'model'))));
  router.post('/model/:model/unload', async (ctx) => json(ctx, await models.unload(param(ctx, 'model'))));
};
