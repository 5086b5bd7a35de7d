/**
 * POST /satchel/import from the client side. Small files are sent as text, several to a request;
 * a file too large for one request arrives already read (see core/import/files.ts) and is sent as
 * parts of its snippets. Two requests are under way at once (the host imports them in turn), the
 * second sent once the host has taken the first (see MAX_IN_FLIGHT). The
 * NDJSON replies are read line by line for progress, and the requests' summaries are added up into
 * one. Aborting the signal closes the requests in flight, which the host takes as cancellation
 * between batches. A request the host refuses as busy (its bodies' budget is taken, by imports
 * queued before it among others) is sent again a second later.
 */
import { ClientError } from './errors.ts';
import type { HttpTransport } from './http.ts';
import { resultOf } from './longOperation.ts';
import type { ImportFormat, ItemFailure, ParsedFile } from '../core/import/types.ts';
import type { ReadImportFile } from '../core/import/importTree.ts';
import type { ImportProgress, ImportSummary } from '../core/import/importer.ts';
import type { BodyIn } from '../wire/operation.ts';
import { importOperations as op } from '../wire/imports.ts';
import { importJsonPieces, type OutgoingFile } from './importPieces.ts';

export type { ImportProgress, ImportSummary } from '../core/import/importer.ts';

/** Content per request: files (or a large file's snippets) are grouped up to about this. */
const REQUEST_CHARS = 16 * 1024 * 1024;
const PART_SNIPPETS = 20_000;
/**
 * Requests under way at once: the host imports them one after another, and meanwhile receives and
 * parses the next one, which would otherwise wait for the reply (about a tenth of a 10k import).
 * The next is sent once the host has taken the one before (its reply has begun: the body is read
 * and its files are going to the spool), not beside it: two 9.4 MB bodies read at once were the
 * data host's highest point of a day at 100k snippets (docs/performance.md).
 */
const MAX_IN_FLIGHT = 2;
/** A request refused as busy (503) is sent again after the host's Retry-After (1 s), for up to 5 minutes. */
const BUSY_RETRY_MS = 1_000;
const MAX_BUSY_WAIT_MS = 5 * 60_000;

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

type RequestBody = { readonly files: readonly OutgoingFile[] } | Pick<BodyIn<typeof op.import>, 'parts'>;

export class ImportsClient {
  private readonly http: HttpTransport;

  constructor(http: HttpTransport) {
    this.http = http;
  }

  async importFiles(files: readonly ImportFile[], options: ClientImportOptions = {}): Promise<ImportSummary> {
    const total = new Totals(files.length, options.onProgress);
    // Aborts the requests in flight when the caller cancels or one of them fails.
    const stop = new AbortController();
    const abort = (): void => stop.abort();
    options.signal?.addEventListener('abort', abort, { once: true });
    if (options.signal?.aborted) stop.abort();
    const inFlight = new Set<Promise<void>>();
    let failure: { error: unknown } | undefined;
    const settle = async (all: boolean): Promise<void> => {
      while (inFlight.size > (all ? 0 : MAX_IN_FLIGHT - 1)) await Promise.race(inFlight);
      if (failure) throw failure.error;
    };
    let group: OutgoingFile[] = [];
    let groupChars = 0;
    /** Sends the gathered files and returns once fewer than MAX_IN_FLIGHT requests are under way. */
    const sendGroup = async (): Promise<void> => {
      if (group.length === 0) return;
      const sent = group;
      group = [];
      groupChars = 0;
      const request = total.request();
      let taken: () => void = () => undefined;
      const accepted = new Promise<void>((resolve) => (taken = resolve));
      const sending = this.send({ files: sent }, options, stop.signal, request.progress, taken).then(
        (summary) => request.done(summary),
        (error: unknown) => {
          request.done();
          failure ??= { error };
          stop.abort();
        },
      );
      inFlight.add(sending);
      void sending.finally(() => inFlight.delete(sending));
      await Promise.race([accepted, sending]);
      await settle(false);
    };
    try {
      for (const file of files) {
        if (stop.signal.aborted || total.cancelled) break;
        const read = await file.read();
        if ('content' in read || 'utf8' in read) {
          const size = 'content' in read ? read.content.length : read.utf8.length;
          if (group.length > 0 && groupChars + size > REQUEST_CHARS) await sendGroup();
          group.push(read);
          groupChars += size;
        } else if ('parsed' in read) {
          await sendGroup();
          await settle(true);
          await this.sendParsed(read.name, read.parsed, total, options, stop.signal);
        } else total.addLocal({ files: 1, failures: [{ source: read.name, reason: read.error }] });
      }
      if (!stop.signal.aborted && !total.cancelled) await sendGroup();
      await settle(true);
    } finally {
      options.signal?.removeEventListener('abort', abort);
    }
    return total.summary(options.signal?.aborted === true);
  }

  /**
   * Imports a running Pieces OS's library (`url`, or the one the host finds on Pieces OS's ports):
   * the host reads it and imports it as it imports files. Aborting the signal cancels between
   * batches; what was written stays, and a later run adds only what is missing or changed.
   */
  async importPieces(url: string | undefined, options: Omit<ClientImportOptions, 'format'> = {}): Promise<ImportSummary> {
    const body: BodyIn<typeof op.importPieces> = { ...(url !== undefined ? { url } : {}), ...(options.batchSize ? { batchSize: options.batchSize } : {}) };
    let last: ImportProgress | undefined;
    try {
      const lines = await this.http.call(op.importPieces, { body, signal: options.signal });
      return await resultOf(
        lines,
        'summary',
        (progress) => {
          last = progress;
          options.onProgress?.(progress);
        },
        op.importPieces.path,
      );
    } catch (error) {
      if (error instanceof ClientError && error.code === 'aborted') return cancelledSummary(last);
      throw error;
    }
  }

  /** A file read on this side: its snippets in parts, its own failures and format counted here. */
  private async sendParsed(name: string, parsed: ParsedFile, total: Totals, options: ClientImportOptions, signal: AbortSignal): Promise<void> {
    total.addLocal({ files: 0, failures: parsed.failures, found: parsed.snippets.length, format: parsed.format });
    // A vault's conversations go with the last part, after the snippets they link to (alone when there are none).
    const conversations = parsed.conversations !== undefined && parsed.conversations.length > 0 ? parsed.conversations : undefined;
    for (let start = 0; (start < parsed.snippets.length || (start === 0 && conversations)) && !signal.aborted && !total.cancelled; ) {
      let end = start;
      let chars = 0;
      while (end < parsed.snippets.length && end - start < PART_SNIPPETS && (end === start || chars + parsed.snippets[end]!.text.length <= REQUEST_CHARS)) {
        chars += parsed.snippets[end]!.text.length;
        end++;
      }
      const snippets = parsed.snippets.slice(start, end);
      const last = end >= parsed.snippets.length;
      const request = total.request({ parts: true });
      request.done(
        await this.send({ parts: [{ name, format: parsed.format, snippets, ...(last && conversations ? { conversations } : {}) }] }, options, signal, request.progress),
      );
      start = Math.max(end, 1);
    }
    total.addLocal({ files: 1, failures: [] });
  }

  /** `onAccepted`: the host has taken the request (its reply began). */
  private async send(
    body: RequestBody,
    options: ClientImportOptions,
    signal: AbortSignal,
    onProgress: (progress: ImportProgress) => void,
    onAccepted?: () => void,
  ): Promise<ImportSummary> {
    const settings = {
      ...(options.format ? { format: options.format } : {}),
      ...(options.batchSize ? { batchSize: options.batchSize } : {}),
    };
    // What the host reported before a cancel: its last batches are written, and the summary says so.
    let last: ImportProgress | undefined;
    const progress = (line: ImportProgress): void => {
      last = line;
      onProgress(line);
    };
    try {
      // Files' text goes in pieces (a request is up to 16 MB of it): built and written whole, it held
      // the extension host for hundreds of milliseconds (docs/performance.md, a day in VS Code).
      const lines = await this.whenNotBusy(
        () =>
          'files' in body
            ? this.http.callWithJsonPieces(op.import, importJsonPieces({ files: body.files, ...settings }), { signal })
            : this.http.call(op.import, { body: { parts: body.parts, ...settings }, signal }),
        signal,
      );
      onAccepted?.();
      return await resultOf(lines, 'summary', progress, op.import.path);
    } catch (error) {
      // Cancelled on this side, before the reply or while reading it.
      if (error instanceof ClientError && error.code === 'aborted') return cancelledSummary(last);
      throw error;
    }
  }

  /**
   * The request, sent again while the host refuses it as busy: its budget for bodies is taken (by
   * imports queued before this one among others) until some of them end.
   */
  private async whenNotBusy<T>(send: () => Promise<T>, signal: AbortSignal): Promise<T> {
    for (let waited = 0; ; waited += BUSY_RETRY_MS) {
      try {
        return await send();
      } catch (error) {
        if (!(error instanceof ClientError && (error.status === 503 || cutWhileSending(error))) || waited >= MAX_BUSY_WAIT_MS) throw error;
      }
      if (!(await pause(BUSY_RETRY_MS, signal))) throw new ClientError(0, 'aborted', `${op.import.path} was cancelled`);
    }
  }
}

/**
 * The host closed the connection while this side was still writing the body. It does that when it
 * refuses a body before reading all of it (its budget for bodies is taken: the 503 it sends cannot be
 * read once the write fails), and a body it did not read whole was acted on in no part, so it is
 * sent again as after a 503. A host that is gone answers the next attempt with a refused connection.
 */
function cutWhileSending(error: ClientError): boolean {
  if (error.code !== 'unreachable') return false;
  const cause = error.cause;
  const code = typeof cause === 'object' && cause !== null && 'code' in cause ? cause.code : undefined;
  return code === 'EPIPE' || code === 'ECONNRESET' || code === 'UND_ERR_SOCKET';
}

/** Resolves true after `ms`, or false as soon as `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (result: boolean): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', aborted);
      resolve(result);
    };
    const aborted = (): void => done(false);
    const timer = setTimeout(() => done(true), ms);
    signal.addEventListener('abort', aborted, { once: true });
  });
}

/** A request cancelled on this side counts what its last progress line reported (the host may finish one more batch). */
function cancelledSummary(last?: ImportProgress): ImportSummary {
  const counts = { filesDone: last?.filesDone ?? 0, found: last?.found ?? 0, imported: last?.imported ?? 0, updated: last?.updated ?? 0, duplicates: last?.duplicates ?? 0, failed: last?.failed ?? 0 };
  return { ...counts, files: 0, failures: [], formats: {}, cancelled: true, elapsedMs: 0 };
}

/** The whole import's counts: the requests' summaries, what was counted on this side, and the requests under way. */
class Totals {
  private readonly files: number;
  private readonly onProgress: ((progress: ImportProgress) => void) | undefined;
  private filesDone = 0;
  private found = 0;
  private imported = 0;
  private updated = 0;
  private duplicates = 0;
  private failed = 0;
  private conversations = 0;
  private readonly failures: ItemFailure[] = [];
  private readonly formats: Partial<Record<ImportFormat, number>> = {};
  private elapsedMs = 0;
  /** The last progress line of each request under way (two may be: progress adds them to the finished ones). */
  private readonly live = new Map<object, { progress: ImportProgress; parts: boolean }>();
  cancelled = false;

  constructor(files: number, onProgress: ((progress: ImportProgress) => void) | undefined) {
    this.files = files;
    this.onProgress = onProgress;
  }

  /**
   * A request about to be sent: its progress lines are reported as progress of the whole import,
   * and its summary (none if it failed) is added once it ends. For parts, the file's count, format
   * and snippets are counted here, not by the host.
   */
  request({ parts = false } = {}): { progress(progress: ImportProgress): void; done(summary?: ImportSummary): void } {
    const key = {};
    return {
      progress: (progress) => {
        this.live.set(key, { progress, parts });
        this.report(progress.file);
      },
      done: (summary) => {
        this.live.delete(key);
        if (summary) this.add(summary, parts);
      },
    };
  }

  private add(summary: ImportSummary, parts: boolean): void {
    this.imported += summary.imported;
    this.updated += summary.updated;
    this.duplicates += summary.duplicates;
    this.conversations += summary.conversations ?? 0;
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

  private report(file: string): void {
    if (!this.onProgress) return;
    const now = { file, files: this.files, filesDone: this.filesDone, found: this.found, imported: this.imported, updated: this.updated, duplicates: this.duplicates, failed: this.failed };
    for (const { progress, parts } of this.live.values()) {
      if (!parts) {
        now.filesDone += progress.filesDone;
        now.found += progress.found;
      }
      now.imported += progress.imported;
      now.updated += progress.updated;
      now.duplicates += progress.duplicates;
      now.failed += progress.failed;
    }
    this.onProgress(now);
  }

  summary(aborted: boolean): ImportSummary {
    return {
      files: this.files,
      filesDone: this.filesDone,
      found: this.found,
      imported: this.imported,
      updated: this.updated,
      duplicates: this.duplicates,
      failed: this.failed,
      ...(this.conversations > 0 ? { conversations: this.conversations } : {}),
      failures: this.failures,
      formats: this.formats,
      cancelled: this.cancelled || aborted,
      elapsedMs: this.elapsedMs,
    };
  }
}
