/** Routes of the Asset area (interface.md 4.2): one asset's snapshot, update, scores, exports and links. */
import type { Context } from 'koa';
import type { RouteModule } from './deps.ts';
import { empty, input, json, param, queryString, transferables } from '../http.ts';
import { parseExportType } from '../../core/assets/exporter.ts';
import { assetOperations as op } from '../../wire/assets.ts';
import { sendRevision, writeOptions } from '../writeOptions.ts';
import type { Satchel } from '../../core/satchel.ts';

/** GET /asset/{id} (and its spellings): the asset, its current revision as the ETag. */
export function snapshot(ctx: Context, core: Satchel): void {
  const id = param(ctx, 'asset');
  const asset = core.assets.get(id, { transferables: transferables(ctx) });
  sendRevision(ctx, core.history.current(id));
  json(ctx, asset);
}


/** Path segment of each associable kind → the record kind it names. */
const LINKABLE = [
  ['tags', 'tag', 'tag'],
  ['websites', 'website', 'website'],
  ['workstream_summaries', 'workstream_summary', 'workstream_summary'],
] as const;

export const assetRoutes: RouteModule = (router, { core }) => {
  const assets = core.assets;

  // If-Match makes an update conditional on the revision the caller read (412 when it moved on);
  // the Pieces clients never send it. Replies carry the asset's current revision as the ETag.
  router.post(op.update.path, (ctx) => {
    const update = input(ctx, op.update);
    const updated = assets.update(update, writeOptions(ctx, { current: () => core.history.current(update.id) }));
    sendRevision(ctx, core.history.current(updated.id));
    json(ctx, transferables(ctx) ? updated : assets.get(updated.id, { transferables: false }));
  });

  router.post(op.reclassify.path, (ctx) => {
    const { asset, ext } = input(ctx, op.reclassify);
    const reclassified = assets.reclassify(asset.id, ext, writeOptions(ctx, { current: () => core.history.current(asset.id) }));
    sendRevision(ctx, core.history.current(reclassified.id));
    json(ctx, transferables(ctx) ? reclassified : assets.get(reclassified.id, { transferables: false }));
  });

  router.get('/asset/:asset', (ctx) => snapshot(ctx, core));

  router.post(op.snapshotPost.path, (ctx) => {
    input(ctx, op.snapshotPost);
    snapshot(ctx, core);
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
    json(ctx, { iterable: core.conversations.listForAsset(id, transferables(ctx)) });
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
      assets.associate(param(ctx, 'asset'), kind, param(ctx, name), writeOptions(ctx));
      empty(ctx);
    });
    router.post(`/asset/:asset/${segment}/disassociate/:${name}`, (ctx) => {
      assets.disassociate(param(ctx, 'asset'), kind, param(ctx, name), writeOptions(ctx));
      empty(ctx);
    });
  }
};
