/**
 * The three asset streams. Each sends the full set on connect and then one frame per committed
 * change: identifier frames mark deletions with `deleted: true`; Assets frames carry the deleted
 * asset's last state with its `deleted` timestamp and an index of -1. A plain GET on a stream path
 * answers with the connect frame as a one-shot snapshot (what the client's generated method does).
 * Satchel's own fourth, `/satchel/assets/stream/recent`, is the identifiers stream whose connect
 * frame names only the newest few: what the editor's Assets view reads on connect.
 */
import type { Satchel } from '../../core/satchel.ts';
import { route, type RouteModule } from './deps.ts';
import type { Asset, Assets, StreamedIdentifiers } from '../../core/piecesTypes.ts';
import type { ChangeEvent } from '../../core/events.ts';
import { jsonStream } from '../http.ts';
import { jsonArrayReply } from '../jsonEncode.ts';
import { mapPages } from '../../core/assets/assetStore.ts';
import { registerSharedStream } from '../sharedFrames.ts';
import { assetOperations as op } from '../../wire/assets.ts';
import { RECENT_IDENTIFIERS, snippetOperations } from '../../wire/snippets.ts';

/** The StreamedIdentifiers of every asset, encoded a page at a time (1M ids in one value held the loop for seconds). */
function identifiersFrame(core: Satchel): AsyncGenerator<Buffer> {
  return jsonArrayReply('iterable', mapPages(core.assets.identifierPages(), (id) => ({ asset: { id } })));
}

/** The StreamedIdentifiers of the newest assets (a page's worth: small enough to be one value). */
function recentIdentifiersFrame(core: Satchel): StreamedIdentifiers {
  return { iterable: core.assets.newest(RECENT_IDENTIFIERS).map((id) => ({ asset: { id } })) };
}

/** The Assets document of every asset, encoded a page at a time (the store may hold more than a string can). */
function assetsFrame(core: Satchel, transferables: boolean): AsyncGenerator<Buffer> {
  return jsonArrayReply('iterable', core.assets.pages({ transferables }));
}

/** The frame announcing one change, or undefined when subscribers should not hear of it. */
function identifierChange(core: Satchel, change: ChangeEvent): StreamedIdentifiers | undefined {
  if (change.kind !== 'asset') return undefined;
  if (change.deleted) {
    if (core.assets.tombstone(change.id)?.pseudo) return undefined;
    return { iterable: [{ asset: { id: change.id }, deleted: true }] };
  }
  return core.assets.isOrdinary(change.id) ? { iterable: [{ asset: { id: change.id } }] } : undefined;
}

function assetChange(core: Satchel, change: ChangeEvent, transferables: boolean): Assets | undefined {
  if (change.kind !== 'asset') return undefined;
  if (change.deleted) {
    const last: Asset | undefined = core.assets.tombstone(change.id);
    if (!last || last.pseudo) return undefined;
    return { iterable: [last], indices: { [change.id]: -1 } };
  }
  if (!core.assets.isOrdinary(change.id)) return undefined;
  return { iterable: [core.assets.get(change.id, { transferables })] };
}

export const registerAssetStreams: RouteModule = (router, { core, streams }) => {
  const kinds = [
    { op: op.streamIdentifiers, initial: () => identifiersFrame(core), change: (c: ChangeEvent) => identifierChange(core, c) },
    { op: snippetOperations.streamRecent, initial: () => recentIdentifiersFrame(core), change: (c: ChangeEvent) => identifierChange(core, c) },
    { op: op.streamTransferables, transferables: true, initial: () => assetsFrame(core, true), change: (c: ChangeEvent) => assetChange(core, c, true) },
    { op: op.stream, transferables: false, initial: () => assetsFrame(core, false), change: (c: ChangeEvent) => assetChange(core, c, false) },
  ];
  for (const stream of kinds) {
    const frames = registerSharedStream(streams, stream.op.path, stream, core.context.onDidChange);
    const { transferables } = stream;
    // The plain GET of an Assets stream is the same document as GET /assets, streamed the same
    // way; the WebSocket's connect frame is one message, built once and shared.
    if (transferables === undefined) route(router, stream.op, (ctx) => jsonStream(ctx, frames.connect()));
    else route(router, stream.op, (ctx) => jsonStream(ctx, assetsFrame(core, transferables)));
  }
};
