/**
 * Satchel's history routes (src/wire/history.ts): an asset's revisions listed, read whole and
 * restored, and the edit of what a revision keeps. Each reply carries the asset's current revision
 * as its ETag; the writes honour If-Match (or `expectedRevision`) and answer 412 when the asset
 * moved on. A deleted asset's revisions are listed and read until they are purged.
 */
import { route, type RouteModule } from './deps.ts';
import { input, json, param, transferables } from '../http.ts';
import { historyOperations as op, type RevisionReply } from '../../wire/history.ts';
import type { Revision } from '../../core/history/historyService.ts';
import { isBinary } from '../../core/history/state.ts';
import { sendRevision, writeOptions } from '../writeOptions.ts';
import { withSlot } from '../searchSlots.ts';

function revisionReply(revision: Revision): RevisionReply {
  const { content, description, ...rest } = revision;
  return {
    ...rest,
    content: isBinary(content) ? { base64: Buffer.from(Uint8Array.from(content.bytes)).toString('base64') } : { text: content.text },
    description: description ?? null,
  };
}

export const historyRoutes: RouteModule = (router, { core, reads }) => {
  const history = core.history;

  route(router, op.list, (ctx) => {
    const list = history.list(param(ctx, 'asset'));
    sendRevision(ctx, list.current);
    json(ctx, list);
  });

  route(router, op.get, (ctx) =>
    withSlot(ctx, reads, async () => {
      const asset = param(ctx, 'asset');
      const revision = await history.read(asset, param(ctx, 'revision'));
      sendRevision(ctx, history.current(asset));
      json(ctx, revisionReply(revision));
    }),
  );

  route(router, op.restore, (ctx) => {
    const asset = param(ctx, 'asset');
    const request = input(ctx, op.restore);
    const by = writeOptions(ctx, { expected: request?.expectedRevision, current: () => history.current(asset) });
    const current = history.restore(asset, param(ctx, 'revision'), by);
    sendRevision(ctx, current.id);
    json(ctx, current);
  });

  route(router, op.edit, (ctx) => {
    const id = param(ctx, 'asset');
    const { expectedRevision, content, ...rest } = input(ctx, op.edit);
    const by = writeOptions(ctx, { expected: expectedRevision, current: () => history.current(id) });
    const edited = core.assets.writes.edit(id, { ...rest, ...(content !== undefined ? { content: { text: content } } : {}) }, by);
    sendRevision(ctx, edited.revision);
    // As /asset/update: `transferables=false` answers the asset without its formats' content.
    json(ctx, transferables(ctx) ? edited : { ...edited, asset: core.assets.get(id, { transferables: false }) });
  });
};
