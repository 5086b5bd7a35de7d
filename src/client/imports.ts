/**
 * POST /satchel/import from the client side. Small files are sent as text, several to a request;
 * a file too large for one request arrives already read (see core/import/files.ts) and is sent as
 * parts of its snippets. The NDJSON reply is read line by line for progress, and the requests'
 * summaries are added up into one. Aborting the signal closes the request in flight, which the host
 * takes as cancellation between batches.
 */
import { request } from 'undici';
import { ClientError } from './errors.ts';
import type { ImportedSnippet, ImportFormat, ItemFailure, ParsedFile } from '../core/import/types.ts';
import type { ReadImportFile } from '../core/import/files.ts';
import type { ImportProgress, ImportSummary } from '../core/import/importer.ts';
import type { BodyIn } from '../wire/operation.ts';
import { importOperations as op, type ImportLine as Line } from '../wire/imports.ts';

export type { ImportProgress, ImportSummary } from '../core/import/importer.ts';

const IMPORT_PATH = op.import.path;
/** Content per request: files (or a large file's snippets) are grouped up to about this. */
const REQUEST_CHARS = 16 * 1024 * 1024;
const PART_SNIPPETS = 20_000;

export interface ImportFile {
  readonly name: string;
  /** The file's text, what the caller read of it, or why it could not be read. */
  read(): Promise<ReadImportFile>;
}

export interface ClientImportOptions {
  readonly signal?: AbortSignal | undefined;
  readonly onProgress?: ((progress: ImportProgress) => void) | undefined;
  readonly format?: ImportFormat | undefined;
  readonly batchSize?: number | undefined;
}

type RequestBody = Pick<BodyIn<typeof op.import>, 'files' | 'parts'>;

export class ImportsClient {
  private readonly baseUrl: string;

  constructor(baseUrl: string) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  async importFiles(files: readonly ImportFile[], options: ClientImportOptions = {}): Promise<ImportSummary> {
    const total = new Totals(files.length);
    let group: Array<{ name: string; content: string }> = [];
    let groupChars = 0;
    const sendGroup = async (): Promise<void> => {
      if (group.length === 0) return;
      const sent = group;
      group = [];
      groupChars = 0;
      total.addRequest(await this.send({ files: sent }, options, total.progressFrom(options)));
    };
    for (const file of files) {
      if (options.signal?.aborted || total.cancelled) break;
      const read = await file.read();
      if ('content' in read) {
        if (group.length > 0 && groupChars + read.content.length > REQUEST_CHARS) await sendGroup();
        group.push({ name: read.name, content: read.content });
        groupChars += read.content.length;
      } else if ('parsed' in read) {
        await sendGroup();
        await this.sendParsed(read.name, read.parsed, total, options);
      } else total.addLocal({ files: 1, failures: [{ source: read.name, reason: read.error }] });
    }
    if (!options.signal?.aborted && !total.cancelled) await sendGroup();
    return total.summary(options.signal?.aborted === true);
  }

  /** A file read on this side: its snippets in parts, its own failures and format counted here. */
  private async sendParsed(name: string, parsed: ParsedFile, total: Totals, options: ClientImportOptions): Promise<void> {
    total.addLocal({ files: 0, failures: parsed.failures, found: parsed.snippets.length, format: parsed.format });
    for (let start = 0; start < parsed.snippets.length && !options.signal?.aborted && !total.cancelled; ) {
      let end = start;
      let chars = 0;
      while (end < parsed.snippets.length && end - start < PART_SNIPPETS && (end === start || chars + parsed.snippets[end]!.text.length <= REQUEST_CHARS)) {
        chars += parsed.snippets[end]!.text.length;
        end++;
      }
      const snippets = parsed.snippets.slice(start, end);
      const summary = await this.send({ parts: [{ name, format: parsed.format, snippets }] }, options, total.progressFrom(options, { parts: true }));
      total.addRequest(summary, { parts: true });
      start = end;
    }
    total.addLocal({ files: 1, failures: [] });
  }

  private async send(body: RequestBody, options: ClientImportOptions, onProgress: (progress: ImportProgress) => void): Promise<ImportSummary> {
    const payload: BodyIn<typeof op.import> = {
      ...body,
      ...(options.format ? { format: options.format } : {}),
      ...(options.batchSize ? { batchSize: options.batchSize } : {}),
    };
    // What the host reported before a cancel: its last batches are written, and the summary says so.
    let last: ImportProgress | undefined;
    let reply;
    try {
      reply = await request(this.baseUrl + IMPORT_PATH, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(payload),
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (cause) {
      if (options.signal?.aborted) return cancelledSummary(last);
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
          if ('progress' in line) {
            last = line.progress;
            onProgress(line.progress);
          }
          else if ('summary' in line) return line.summary;
          else throw new ClientError(500, line.error.code, line.error.message);
        }
      }
    } catch (cause) {
      if (cause instanceof ClientError) throw cause;
      if (options.signal?.aborted) return cancelledSummary(last);
      throw ClientError.unreachableAt(this.baseUrl, cause);
    }
    throw new ClientError(502, 'bad_reply', `${IMPORT_PATH} ended without a summary`);
  }
}

/** A request cancelled on this side counts what its last progress line reported (the host may finish one more batch). */
function cancelledSummary(last?: ImportProgress): ImportSummary {
  const counts = { filesDone: last?.filesDone ?? 0, found: last?.found ?? 0, imported: last?.imported ?? 0, duplicates: last?.duplicates ?? 0, failed: last?.failed ?? 0 };
  return { ...counts, files: 0, failures: [], formats: {}, cancelled: true, elapsedMs: 0 };
}

/** The whole import's counts, from the requests' summaries and what was counted on this side. */
class Totals {
  private readonly files: number;
  private filesDone = 0;
  private found = 0;
  private imported = 0;
  private duplicates = 0;
  private failed = 0;
  private readonly failures: ItemFailure[] = [];
  private readonly formats: Partial<Record<ImportFormat, number>> = {};
  private elapsedMs = 0;
  cancelled = false;

  constructor(files: number) {
    this.files = files;
  }

  /** A request's summary; for parts, the file's count, format and snippets were counted here. */
  addRequest(summary: ImportSummary, { parts = false } = {}): void {
    this.imported += summary.imported;
    this.duplicates += summary.duplicates;
    this.failed += summary.failed;
    this.failures.push(...summary.failures);
    this.elapsedMs += summary.elapsedMs;
    this.cancelled ||= summary.cancelled;
    if (parts) return;
    this.filesDone += summary.filesDone;
    this.found += summary.found;
    for (const [format, count] of Object.entries(summary.formats) as Array<[ImportFormat, number]>) this.formats[format] = (this.formats[format] ?? 0) + count;
  }

  addLocal(counts: { files: number; failures: readonly ItemFailure[]; found?: number; format?: ImportFormat }): void {
    this.filesDone += counts.files;
    this.found += counts.found ?? 0;
    this.failed += counts.failures.length;
    this.failures.push(...counts.failures);
    if (counts.format) this.formats[counts.format] = (this.formats[counts.format] ?? 0) + 1;
  }

  /** Reports a request's progress lines as progress of the whole import. */
  progressFrom(options: ClientImportOptions, { parts = false } = {}): (progress: ImportProgress) => void {
    const base = { filesDone: this.filesDone, found: this.found, imported: this.imported, duplicates: this.duplicates, failed: this.failed };
    return (progress) =>
      options.onProgress?.({
        file: progress.file,
        files: this.files,
        filesDone: base.filesDone + (parts ? 0 : progress.filesDone),
        found: base.found + (parts ? 0 : progress.found),
        imported: base.imported + progress.imported,
        duplicates: base.duplicates + progress.duplicates,
        failed: base.failed + progress.failed,
      });
  }

  summary(aborted: boolean): ImportSummary {
    return {
      files: this.files,
      filesDone: this.filesDone,
      found: this.found,
      imported: this.imported,
      duplicates: this.duplicates,
      failed: this.failed,
      failures: this.failures,
      formats: this.formats,
      cancelled: this.cancelled || aborted,
      elapsedMs: this.elapsedMs,
    };
  }
}
