/**
 * POST /satchel/import (Satchel's own operation, not part of the Pieces interface): snippet files
 * given in the body, imported in batches, answered as NDJSON: a `{ "progress": … }` line after each
 * batch and file, then `{ "summary": … }` (or `{ "error": … }` if the store failed part-way: the
 * batches before it are kept). A client that disconnects cancels the import between batches.
 *
 * The files' content travels in the body rather than a path for the host to read: the host may
 * not share the caller's file system (a remote or containerised VS Code, another user's host on
 * the same machine), and a loopback port any local process can reach must not read files on its
 * behalf (a path names whatever the host's user can read; the body names only what the caller
 * could read itself). The body limit bounds one request; callers send a file per request.
 */
import { PassThrough } from 'node:stream';
import { z } from 'zod';
import { body } from '../http.ts';
import { describeError } from '../errors.ts';
import type { RouteModule } from './deps.ts';
import { IMPORT_FORMATS } from '../../core/import/types.ts';
import type { ImportProgress, ImportSummary } from '../../core/import/importer.ts';

export const IMPORT_PATH = '/satchel/import';

const importRequest = z.object({
  files: z
    .array(z.object({ name: z.string().min(1).max(4096), content: z.string() }))
    .min(1)
    .max(10_000),
  format: z.enum(IMPORT_FORMATS as [string, ...string[]]).optional(),
  batchSize: z.number().int().min(1).max(10_000).optional(),
});

/** One line of the reply. */
export type ImportLine =
  | { readonly progress: ImportProgress }
  | { readonly summary: ImportSummary }
  | { readonly error: { readonly code: string; readonly message: string } };

export const importRoutes: RouteModule = (router, { core }) => {
  router.post(IMPORT_PATH, (ctx) => {
    const request = body(ctx, importRequest, 'import request');
    const stop = new AbortController();
    const reply = new PassThrough();
    const send = (line: ImportLine): void => {
      if (!reply.destroyed) reply.write(`${JSON.stringify(line)}\n`);
    };
    ctx.res.once('close', () => {
      if (!ctx.res.writableFinished) stop.abort();
    });
    ctx.status = 200;
    ctx.type = 'application/x-ndjson';
    ctx.body = reply;
    const files = request.files.map((file) => ({ name: file.name, text: () => file.content }));
    void core.imports
      .import(files, {
        signal: stop.signal,
        files: files.length,
        format: request.format as (typeof IMPORT_FORMATS)[number] | undefined,
        batchSize: request.batchSize,
        onProgress: (progress) => send({ progress }),
      })
      .then(
        (summary) => send({ summary }),
        (error: unknown) => {
          const known = describeError(error);
          if (!known) core.context.logger.error(`${IMPORT_PATH} failed`, error);
          send({ error: known ? { code: known.code, message: known.message } : { code: 'internal', message: 'Internal error; see the Satchel log for details.' } });
        },
      )
      .finally(() => reply.end());
  });
};
