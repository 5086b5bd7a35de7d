/**
 * POST /satchel/import from the client side: files are sent a few at a time (each request stays
 * well under the host's body limit), the NDJSON reply is read line by line for progress, and the
 * requests' summaries are added up into one. Aborting the signal closes the request, which the
 * host takes as cancellation between batches.
 */
import { request } from 'undici';
import { ClientError } from './errors.ts';
import type { ImportFormat } from '../core/import/types.ts';
import type { ImportProgress, ImportSummary } from '../core/import/importer.ts';

export type { ImportProgress, ImportSummary } from '../core/import/importer.ts';

const IMPORT_PATH = '/satchel/import';
/** Content per request: files are grouped up to this; a larger file goes alone. */
const REQUEST_CHARS = 16 * 1024 * 1024;

export interface ImportFile {
  readonly name: string;
  read(): Promise<string>;
}

export interface ClientImportOptions {
  readonly signal?: AbortSignal | undefined;
  readonly onProgress?: ((progress: ImportProgress) => void) | undefined;
  readonly format?: ImportFormat | undefined;
  readonly batchSize?: number | undefined;
}

type Line = { progress: ImportProgress } | { summary: ImportSummary } | { error: { code: string; message: string } };

export class ImportsClient {
  private readonly baseUrl: string;

  constructor(baseUrl: string) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  async importFiles(files: readonly ImportFile[], options: ClientImportOptions = {}): Promise<ImportSummary> {
    let total = emptySummary(files.length);
    let group: Array<{ name: string; content: string }> = [];
    let groupChars = 0;
    const send = async (): Promise<void> => {
      if (group.length === 0) return;
      const sent = group;
      group = [];
      groupChars = 0;
      const before = total;
      const summary = await this.importGroup(sent, options, (progress) => options.onProgress?.(added(before, progress, files.length)));
      total = { ...added(before, summary, files.length), failures: [...before.failures, ...summary.failures], formats: mergedFormats(before.formats, summary.formats), cancelled: summary.cancelled, elapsedMs: before.elapsedMs + summary.elapsedMs };
    };
    for (const file of files) {
      if (options.signal?.aborted || total.cancelled) return { ...total, cancelled: true };
      const content = await file.read();
      if (group.length > 0 && groupChars + content.length > REQUEST_CHARS) await send();
      group.push({ name: file.name, content });
      groupChars += content.length;
    }
    await send();
    return total;
  }

  private async importGroup(
    files: Array<{ name: string; content: string }>,
    options: ClientImportOptions,
    onProgress: (progress: ImportProgress) => void,
  ): Promise<ImportSummary> {
    let reply;
    try {
      reply = await request(this.baseUrl + IMPORT_PATH, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ files, ...(options.format ? { format: options.format } : {}), ...(options.batchSize ? { batchSize: options.batchSize } : {}) }),
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (cause) {
      if (options.signal?.aborted) return { ...emptySummary(files.length), cancelled: true };
      throw ClientError.unreachableAt(this.baseUrl, cause);
    }
    if (reply.statusCode < 200 || reply.statusCode >= 300) throw ClientError.fromReply(reply.statusCode, await reply.body.text());
    let rest = '';
    try {
      for await (const chunk of reply.body) {
        rest += (chunk as Buffer).toString('utf8');
        let newline: number;
        while ((newline = rest.indexOf('\n')) !== -1) {
          const line = JSON.parse(rest.slice(0, newline)) as Line;
          rest = rest.slice(newline + 1);
          if ('progress' in line) onProgress(line.progress);
          else if ('summary' in line) return line.summary;
          else throw new ClientError(500, line.error.code, line.error.message);
        }
      }
    } catch (cause) {
      if (cause instanceof ClientError) throw cause;
      if (options.signal?.aborted) return { ...emptySummary(files.length), cancelled: true };
      throw ClientError.unreachableAt(this.baseUrl, cause);
    }
    throw new ClientError(502, 'bad_reply', `${IMPORT_PATH} ended without a summary`);
  }
}

function emptySummary(files: number): ImportSummary {
  return { filesDone: 0, files, found: 0, imported: 0, duplicates: 0, failed: 0, failures: [], formats: {}, cancelled: false, elapsedMs: 0 };
}

/** `earlier` requests' counts plus one request's, over the whole import's file count. */
function added<T extends ImportProgress | ImportSummary>(earlier: ImportSummary, latest: T, files: number): T {
  return {
    ...latest,
    files,
    filesDone: earlier.filesDone + latest.filesDone,
    found: earlier.found + latest.found,
    imported: earlier.imported + latest.imported,
    duplicates: earlier.duplicates + latest.duplicates,
    failed: earlier.failed + latest.failed,
  };
}

function mergedFormats(a: ImportSummary['formats'], b: ImportSummary['formats']): ImportSummary['formats'] {
  const out = { ...a };
  for (const [format, count] of Object.entries(b) as Array<[ImportFormat, number]>) out[format] = (out[format] ?? 0) + count;
  return out;
}
