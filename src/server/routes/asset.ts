/** Routes of the Asset area (interface.md 4.2): one asset's snapshot, update, scores, exports and links. */
import type { Context } from 'koa';
import { route, type RouteModule } from './deps.ts';
import { empty, input, json, jsonStream, param, queryString, transferables } from '../http.ts';
import { jsonValueReply } from '../jsonEncode.ts';
import { parseExportType } from '../../core/assets/exporter.ts';
import { assetOperations as op } from '../../wire/assets.ts';
import { sendRevision, writeOptions } from '../writeOptions.ts';
import { withSlot } from '../searchSlots.ts';
import type { Satchel } from '../../core/satchel.ts';

/**
 * GET /asset/{id} (and its spellings): the asset, its current revision as the ETag, and its
 * `sensitives` (scanned first by `scanned`, before the read takes its slot).
 */
export function snapshot(ctx: Context, core: Satchel): void {
  const id = param(ctx, 'asset');
  const asset = core.assets.get(id, { transferables: transferables(ctx) });
  sendRevision(ctx, core.history.current(id));
  json(ctx, asset);
}


/**
 * Runs `read` once the asset's secrets are current: a snippet written a moment ago is scanned
 * before it is shown, outside the line of reads (which starts one read per turn of the loop).
 */
export async function scanned(ctx: Context, core: Satchel, read: () => Promise<void>): Promise<void> {
  await core.assets.secrets.findingsNow(param(ctx, 'asset'));
  await read();
}

/** Each associable kind: its two operations, the path parameter naming the record, and its kind. */
const LINKABLE = [
  [op.associateTag, op.disassociateTag, 'tag', 'tag'],
  [op.associateWebsite, op.disassociateWebsite, 'website', 'website'],
  [op.associateWorkstreamSummary, op.disassociateWorkstreamSummary, 'workstream_summary', 'workstream_summary'],
] as const;

export const assetRoutes: RouteModule = (router, { core, reads }) => {
  const assets = core.assets;

  // If-Match makes an update conditional on the revision the caller read (412 when it moved on);
  // the Pieces clients never send it. Replies carry the asset's current revision as the ETag.
  route(router, op.update, (ctx) => {
    const update = input(ctx, op.update);
    const updated = assets.writes.update(update, writeOptions(ctx, { current: () => core.history.current(update.id) }));
    sendRevision(ctx, core.history.current(updated.id));
    json(ctx, transferables(ctx) ? updated : assets.get(updated.id, { transferables: false }));
  });

  route(router, op.reclassify, (ctx) => {
    const { asset, ext } = input(ctx, op.reclassify);
    const reclassified = assets.writes.reclassify(asset.id, ext, writeOptions(ctx, { current: () => core.history.current(asset.id) }));
    sendRevision(ctx, core.history.current(reclassified.id));
    json(ctx, transferables(ctx) ? reclassified : assets.get(reclassified.id, { transferables: false }));
  });

  route(router, op.snapshot, (ctx) => scanned(ctx, core, () => withSlot(ctx, reads, () => snapshot(ctx, core))));

  route(router, op.snapshotPost, (ctx) => {
    input(ctx, op.snapshotPost);
    return scanned(ctx, core, () => withSlot(ctx, reads, () => snapshot(ctx, core)));
  });

  route(router, op.formats, (ctx) => {
    json(ctx, assets.formats(param(ctx, 'asset'), transferables(ctx)));
  });

  route(router, op.activities, (ctx) => {
    json(ctx, assets.activities(param(ctx, 'asset')));
  });

  route(router, op.conversations, (ctx) => {
    const id = param(ctx, 'asset');
    assets.get(id, { transferables: false });
    jsonStream(ctx, jsonValueReply(core.conversations.reads.listForAsset(id, transferables(ctx))));
  });

  route(router, op.export, (ctx) => {
    const type = parseExportType(queryString(ctx, 'export_type', 'exportType'));
    json(ctx, assets.exportAs(param(ctx, 'asset'), type));
  });

  route(router, op.incrementScores, (ctx) => {
    const increment = input(ctx, op.incrementScores) ?? {};
    assets.writes.incrementScores(param(ctx, 'asset'), increment);
    empty(ctx);
  });

  for (const [associate, disassociate, name, kind] of LINKABLE) {
    route(router, associate, (ctx) => {
      assets.writes.associate(param(ctx, 'asset'), kind, param(ctx, name), writeOptions(ctx));
      empty(ctx);
    });
    route(router, disassociate, (ctx) => {
      assets.writes.disassociate(param(ctx, 'asset'), kind, param(ctx, name), writeOptions(ctx));
      empty(ctx);
    });
  }
};
