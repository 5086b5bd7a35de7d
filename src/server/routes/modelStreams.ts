/**
 * The models streams: identifiers of every model (all on connect, then one frame per change), and
 * one model's download progress (its current state on connect, then throttled updates). A plain
 * GET on either path answers with the snapshot.
 */
import { json, param } from '../http.ts';
import { route, type RouteModule } from './deps.ts';
import { modelOperations as op } from '../../wire/models.ts';
import type { Satchel } from '../../core/satchel.ts';
import type { StreamedIdentifiers } from '../../core/piecesTypes.ts';
import { NotFoundError } from '../../core/errors.ts';

function identifiersFrame(core: Satchel): StreamedIdentifiers {
  return { iterable: core.models.identifiers().map((id) => ({ model: { id } })) };
}

export const registerModelStreams: RouteModule = (router, { core, streams }) => {
  streams.register(op.streamIdentifiers.path, (subscriber) => {
    subscriber.send(identifiersFrame(core));
    return core.context.onDidChange((change) => {
      if (change.kind !== 'model') return;
      subscriber.send({ iterable: [{ model: { id: change.id }, ...(change.deleted ? { deleted: true } : {}) }] } satisfies StreamedIdentifiers);
    });
  });
  route(router, op.streamIdentifiers, (ctx) => json(ctx, identifiersFrame(core)));

  streams.register(op.downloadProgress.path, (subscriber, params) => {
    const id = params.model ?? '';
    try {
      subscriber.send(core.models.downloadProgress(id));
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      subscriber.send({ status: 'UNKNOWN', percentage: null });
      subscriber.close();
      return;
    }
    return core.models.onDidChangeDownload((event) => {
      if (event.id === id) subscriber.send(event.progress);
    });
  });
  route(router, op.downloadProgress, (ctx) => json(ctx, core.models.downloadProgress(param(ctx, 'model'))));
};
