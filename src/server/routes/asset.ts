/** Routes of the Asset area (interface.md 4.2): one asset's snapshot, update, scores, exports and links. */
import type { Context } from 'koa';
import type { RouteModule } from './deps.ts';
import { empty, input, json, jsonStream, param, queryString, transferables } from '../http.ts';
import { jsonValueReply } from '../jsonEncode.ts';
import { parseExportType } from '../../core/assets/exporter.ts';
import { assetOperations as op } from '../../wire/assets.ts';


/** Path segment of each associable kind → the record kind it names. */
const LINKABLE = [
  ['tags', 'tag', 'tag'],
  ['websites', 'website', 'website'],
  ['workstream_summaries', 'workstream_summary', 'workstream_summary'],
] as const;

export const assetRoutes: RouteModule = (router, { core }) => {
  const assets = core.assets;

  router.post(op.update.path, (ctx) => {
    const updated = assets.update(input(ctx, op.update));
    json(ctx, transferables(ctx) ? updated : assets.get(updated.id, { transferables: false }));
  });

  router.post(op.reclassify.path, (ctx) => {
    const { asset, ext } = input(ctx, op.reclassify);
    const reclassified = assets.reclassify(asset.id, ext);
    json(ctx, transferables(ctx) ? reclassified : assets.get(reclassified.id, { transferables: false }));
  });

  router.get('/asset/:asset', (ctx) => {
    json(ctx, assets.get(param(ctx, 'asset'), { transferables: transferables(ctx) }));
  });

  router.post(op.snapshotPost.path, (ctx) => {
    input(ctx, op.snapshotPost);
    json(ctx, assets.get(param(ctx, 'asset'), { transferables: transferables(ctx) }));
  });

  router.get('/asset/:asset/formats', (ctx) => {
    json(ctx, assets.formats(param(ctx, 'asset'), transferables(ctx)));
  });

  router.get('/asset/:asset/activities', (ctx) => {
    json(ctx, assets.activities(param(ctx, 'asset')));
  });

  router.get('/asset/:asset/conversations', (ctx) => {
    const id = param(ctx, 'asset');
    assets.get(id, { transferables: false });
    jsonStream(ctx, jsonValueReply(core.conversations.reads.listForAsset(id, transferables(ctx))));
  });

  router.get('/asset/:asset/export', (ctx) => {
    const type = parseExportType(queryString(ctx, 'export_type', 'exportType'));
    json(ctx, assets.exportAs(param(ctx, 'asset'), type));
  });

  router.post(op.incrementScores.path, (ctx) => {
    const increment = input(ctx, op.incrementScores) ?? {};
    assets.incrementScores(param(ctx, 'asset'), increment);
    empty(ctx);
  });

  for (const [segment, name, kind] of LINKABLE) {
    router.post(`/asset/:asset/${segment}/associate/:${name}`, (ctx) => {
      assets.associate(param(ctx, 'asset'), kind, param(ctx, name));
      empty(ctx);
    });
    router.post(`/asset/:asset/${segment}/disassociate/:${name}`, (ctx) => {
      assets.disassociate(param(ctx, 'asset'), kind, param(ctx, name));
      empty(ctx);
    });
  }
};
