/**
 * POST /satchel/import (Satchel's own operation, not part of the Pieces interface): snippet files
 * given in the body, imported in batches, answered as NDJSON: a `{ "progress": … }` line after each
 * batch and file, then `{ "summary": … }` (or `{ "error": … }` if the store failed part-way: the
 * batches before it are kept). A client that disconnects cancels the import between batches, or
 * before it begins if it is queued (its body is let go at once); until the import ends its body
 * counts against the host's in-flight budget.
 *
 * The files' content travels in the body rather than a path for the host to read: the host may
 * not share the caller's file system (a remote or containerised VS Code, another user's host on
 * the same machine), and a loopback port any local process can reach must not read files on its
 * behalf (a path names whatever the host's user can read; the body names only what the caller
 * could read itself). The body limit bounds one request: callers group small files into a request
 * and send a file too large for one as `parts`, its snippets read on their side (readImportFile).
 */
import { holdBodyUntil } from '../body.ts';
import { takeFileTexts } from '../importBody.ts';
import { input } from '../http.ts';
import { longOperationReply } from '../ndjson.ts';
import { route, type RouteModule } from './deps.ts';
import { SnippetCollector } from '../../core/import/types.ts';
import type { ImportSource } from '../../core/import/importSource.ts';
import { isKnownSpecific } from '../../core/assets/specifics.ts';
import { importOperations as op } from '../../wire/imports.ts';
import type { BodyOut } from '../../wire/operation.ts';
import { resolvePiecesOs } from '../../core/import/piecesOs.ts';
import { listPiecesLibrary, piecesLabel, piecesOsSources } from '../../core/import/piecesOsLibrary.ts';

/** A part's snippets as the importer takes them: each checked against the bounds every format shares. */
function partSource(part: BodyOut<typeof op.import>['parts'][number]): ImportSource {
  const collector = new SnippetCollector(part.name);
  part.snippets.forEach((snippet, index) => {
    const language = snippet.language !== undefined && isKnownSpecific(snippet.language) ? snippet.language : undefined;
    collector.add(snippet.name || `snippet ${index + 1}`, { ...snippet, language });
  });
  return { name: part.name, parsed: { ...collector.result(part.format), ...(part.conversations ? { conversations: part.conversations } : {}) } };
}

/**
 * The request's files and parts as the import reads them. A file's text is still its JSON string's
 * bytes in the body when importBody.ts read it: the import decodes it where it runs. A function of
 * its own so that nothing of the route's closures keeps the body's bytes.
 */
function sourcesOf(ctx: object, request: BodyOut<typeof op.import>): { readonly count: number; readonly sources: Iterable<ImportSource> } {
  const read = takeFileTexts(ctx);
  // The body is freed once the import has taken the last of its files' bytes (or stopped).
  let untaken = read?.texts.filter((bytes) => bytes !== undefined).length ?? 0;
  const sources: Array<ImportSource | undefined> = [
    ...request.files.map((file, index): ImportSource => {
      const jsonText = read?.texts[index];
      if (jsonText === undefined) return { name: file.name, text: () => file.content };
      let counted = false;
      const taken = (): void => {
        if (!counted && --untaken === 0) read?.release();
        counted = true;
      };
      return { name: file.name, jsonText, taken };
    }),
    ...request.parts.map(partSource),
  ];
  return { count: sources.length, sources: handedOnce(sources, () => read?.release()) };
}

/**
 * The sources one at a time, each let go of once the import has taken it, and `done` once it has
 * taken them all (asked for the next after the last: the spool wrote each, or the import process
 * copied each as it took it) or stopped. The body's bytes need not stay in this process while the
 * import works on them.
 */
function* handedOnce(sources: Array<ImportSource | undefined>, done: () => void): Generator<ImportSource> {
  try {
    for (let index = 0; index < sources.length; index++) {
      const source = sources[index]!;
      sources[index] = undefined;
      yield source;
    }
  } finally {
    done();
  }
}

export const importRoutes: RouteModule = (router, { core }) => {
  route(router, op.import, (ctx) => {
    const request = input(ctx, op.import);
    const files = sourcesOf(ctx, request);
    const importing = longOperationReply(
      ctx,
      core.context.logger,
      op.import,
      // The body's files go to the spool as the import is queued (importSpool.ts): the body is let go then.
      (signal, onProgress) => core.imports.import(files.sources, { signal, onProgress, files: files.count, format: request.format, batchSize: request.batchSize, spool: true }),
      (summary) => {
        // Not an error: one line, so a log shows where an import stopped.
        if (summary.cancelled) core.context.logger.info(`Import cancelled by its client after ${summary.imported} of ${summary.found} snippets.`);
        return { summary };
      },
    );
    holdBodyUntil(ctx, importing);
  });

  // The host reads Pieces OS itself (its own port skipped: Satchel is never taken for Pieces OS),
  // through the same import as files, so the same limits, batches, cancellation and summary apply.
  route(router, op.importPieces, (ctx) => {
    const request = input(ctx, op.importPieces);
    const ownPort = ctx.req.socket.localPort;
    let source: string | undefined;
    // Not awaited: the reply streams while the import runs (longOperationReply settles with it, errors included).
    void longOperationReply(
      ctx,
      core.context.logger,
      op.importPieces,
      async (signal, onProgress) => {
        const pieces = await resolvePiecesOs(request.url, { skip: ownPort !== undefined ? [ownPort] : [], signal });
        source = piecesLabel(pieces);
        const listing = await listPiecesLibrary(pieces, signal);
        return core.imports.import(piecesOsSources(pieces, listing, signal), { signal, onProgress, format: 'pieces', batchSize: request.batchSize, files: listing.parts });
      },
      (summary) => {
        if (summary.cancelled) core.context.logger.info(`Import from ${source ?? 'Pieces OS'} cancelled by its client after ${summary.imported} of ${summary.found} snippets.`);
        return { summary: { ...summary, ...(source !== undefined ? { source } : {}) } };
      },
    );
  });
};

