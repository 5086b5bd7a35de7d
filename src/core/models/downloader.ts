/**
 * Downloads one file to `dest` through `<dest>.part`, resumable across dropped connections and
 * restarts (Range + If-Range, the prefix on disk re-hashed), with a streaming sha256, fsync and an
 * atomic rename (models.md §6.1). HTTP goes through Node's built-in fetch, which is undici: core
 * stays free of direct network-library imports. A `file:` URL or an absolute path is copied the
 * same way, so importing a file already on disk shares the verified path.
 *
 * Aborting with the reason `'pause'` keeps the partial file for a later resume; the caller
 * decides what any other reason means (see `discardPartial`).
 */
import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../store/privateFiles.ts';

export const PAUSE = 'pause';

export interface DownloadProgress {
  readonly received: number;
  readonly total?: number;
}

export interface DownloadOptions {
  /** An http(s) URL, a file: URL or an absolute path. */
  readonly source: string;
  readonly dest: string;
  /** Expected hex digest; a mismatch deletes everything and fails. */
  readonly sha256?: string;
  readonly signal: AbortSignal;
  readonly onProgress?: (progress: DownloadProgress) => void;
  /** Told the total size before any byte is written (a free-disk check throws here). */
  readonly onTotal?: (total: number, received: number) => Promise<void> | void;
  /**
   * The most bytes the file may have (a declared size): a larger announced size is refused before
   * anything is written, and a body that runs past it (no Content-Length, or a lying one) is cut off.
   */
  readonly maxBytes?: number;
  /** Called after every SPACE_CHECK_BYTES written, with the bytes on disk; throw to stop (a full disk). */
  readonly onSpaceCheck?: (received: number) => Promise<void> | void;
  /** Checks the complete file before it is renamed into place; throw to refuse it. */
  readonly verify?: (path: string) => Promise<void>;
  readonly retries?: number;
  readonly backoffMs?: number;
  readonly maxBackoffMs?: number;
}

export interface DownloadResult {
  readonly sha256: string;
  readonly bytes: number;
  readonly attempts: number;
  /** Times the server ignored a resume and the file started over. */
  readonly restarts: number;
  /** Bytes already on disk when this download started. */
  readonly resumedFrom: number;
}

export type DownloadFailure = 'checksum' | 'http' | 'source' | 'network' | 'refused' | 'size';

export class DownloadError extends Error {
  readonly reason: DownloadFailure;
  constructor(reason: DownloadFailure, message: string) {
    super(message);
    this.name = 'DownloadError';
    this.reason = reason;
  }
}

/** A failure worth another attempt from the bytes on disk (5xx, a cut connection, a short body). */
class Retryable extends Error {}

interface PartMeta {
  readonly source: string;
  readonly sha256?: string;
  readonly validator?: string;
  readonly total?: number;
}

interface Opened {
  /** `partial`: the body continues from the requested offset; `full`: it starts at byte 0. */
  readonly kind: 'partial' | 'full' | 'complete';
  readonly total?: number;
  readonly validator?: string;
  readonly body?: AsyncIterable<Uint8Array>;
  /** Releases the body unread (a refused size). */
  readonly cancel?: () => Promise<void>;
}

export const partPath = (dest: string): string => `${dest}.part`;
const metaPath = (dest: string): string => `${dest}.part.json`;

export async function readPartMeta(dest: string): Promise<PartMeta | undefined> {
  try {
    return JSON.parse(await readFile(metaPath(dest), 'utf8')) as PartMeta;
  } catch {
    return undefined;
  }
}

/** Bytes of `<dest>.part` on disk (0 when there is none). */
export async function partialBytes(dest: string): Promise<number> {
  try {
    return (await stat(partPath(dest))).size;
  } catch {
    return 0;
  }
}

export async function discardPartial(dest: string): Promise<void> {
  await rm(partPath(dest), { force: true });
  await rm(metaPath(dest), { force: true });
}

/** Free space is checked again after this many bytes are written (a body of unknown length fills disks). */
export const SPACE_CHECK_BYTES = 16 * 1024 * 1024;

/** Bytes gathered before one write to the .part file. */
const WRITE_BATCH = 1024 * 1024;
const WRITE_INTERVAL_MS = 100;

export async function downloadFile(options: DownloadOptions): Promise<DownloadResult> {
  const { dest, signal } = options;
  const retries = options.retries ?? 5;
  const backoff = options.backoffMs ?? 250;
  const maxBackoff = options.maxBackoffMs ?? 8000;
  await mkdir(dirname(dest), { recursive: true, mode: PRIVATE_DIR_MODE });
  let attempts = 0;
  let failures = 0;
  let restarts = 0;
  let resumedFrom: number | undefined;
  for (;;) {
    signal.throwIfAborted();
    attempts++;
    const start = await resumePoint(options);
    resumedFrom ??= start.received;
    let received = start.received;
    let hash = start.hash;
    const before = received;
    try {
      const opened = await openSource(options.source, received, start.meta?.validator, signal);
      if (opened.kind === 'complete') {
        if (start.meta?.total !== received) {
          await discardPartial(dest);
          throw new Retryable('the server refused to resume; starting over');
        }
      } else {
        if (opened.kind === 'full' && received > 0) {
          restarts++;
          received = 0;
          hash = createHash('sha256');
        }
        const total = opened.total;
        if (options.maxBytes !== undefined && total !== undefined && total > options.maxBytes) {
          await opened.cancel?.();
          throw tooLarge(options.maxBytes, `the source announces ${total} bytes`);
        }
        // Refusals (no room for the announced size) come before anything is written, so they leave nothing behind.
        if (total !== undefined) await options.onTotal?.(total, received);
        await writeFile(metaPath(dest), JSON.stringify({ source: options.source, sha256: options.sha256, validator: opened.validator, total } satisfies PartMeta), { mode: PRIVATE_FILE_MODE });
        options.onProgress?.({ received, ...(total !== undefined ? { total } : {}) });
        const file = await open(partPath(dest), received === 0 ? 'w' : 'a', PRIVATE_FILE_MODE);
        try {
          // Network chunks are small (16-64 KiB): writing them in 1 MiB batches saves most of the
          // per-write cost; on a slow link a batch is also written every 100 ms so progress moves.
          // One batch is written while the next is received (awaiting each write stalled the
          // socket); `received` counts only bytes on disk, so a resume starts after them.
          let pending: Uint8Array[] = [];
          let pendingBytes = 0;
          let flushedAt = Date.now();
          let writing: Promise<void> = Promise.resolve();
          let checkedAt = received;
          const flush = async (): Promise<void> => {
            if (pendingBytes === 0) return;
            const batch = pending.length === 1 ? pending[0]! : Buffer.concat(pending, pendingBytes);
            const bytes = pendingBytes;
            pending = [];
            pendingBytes = 0;
            flushedAt = Date.now();
            await writing;
            writing = file.write(batch).then(() => {
              received += bytes;
              options.onProgress?.({ received, ...(total !== undefined ? { total } : {}) });
            });
            // A failed write (ENOSPC) is seen at the next await of `writing`; until then it must not
            // count as an unhandled rejection, which ends the process.
            writing.catch(() => {});
            if (options.onSpaceCheck && received + bytes - checkedAt >= SPACE_CHECK_BYTES) {
              await writing;
              checkedAt = received;
              await options.onSpaceCheck(received);
            }
          };
          let arrived = received;
          try {
            for await (const chunk of opened.body!) {
              arrived += chunk.length;
              if (options.maxBytes !== undefined && arrived > options.maxBytes) throw tooLarge(options.maxBytes, 'the source sent more');
              hash.update(chunk);
              pending.push(chunk);
              pendingBytes += chunk.length;
              if (pendingBytes >= WRITE_BATCH || Date.now() - flushedAt >= WRITE_INTERVAL_MS) await flush();
            }
          } catch (error) {
            // What arrived before a dropped connection or a pause is kept, so the next attempt
            // resumes after it; bytes past a declared size are not.
            if (!(error instanceof DownloadError)) await flush();
            throw error;
          } finally {
            await writing;
          }
          await flush();
          await writing;
          if (total !== undefined && received !== total) {
            throw new Retryable(`the connection ended at byte ${received} of ${total}`);
          }
          await file.sync();
        } finally {
          await file.close();
        }
      }
      const digest = hash.digest('hex');
      if (options.sha256 && digest !== options.sha256.toLowerCase()) {
        await discardPartial(dest);
        throw new DownloadError('checksum', `The downloaded file's sha256 ${digest} is not the expected ${options.sha256}`);
      }
      if (options.verify) {
        try {
          await options.verify(partPath(dest));
        } catch (error) {
          await discardPartial(dest);
          throw new DownloadError('refused', (error as Error).message);
        }
      }
      await rename(partPath(dest), dest);
      await syncDirectory(dirname(dest));
      await rm(metaPath(dest), { force: true });
      return { sha256: digest, bytes: received, attempts, restarts, resumedFrom };
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      if (!isTransient(error)) throw error;
      // Progress resets the budget: a flaky link that keeps moving is not a failure.
      failures = received > before ? 1 : failures + 1;
      if (failures > retries) {
        throw new DownloadError('network', `Gave up after ${attempts} attempts: ${describe(error)}`);
      }
      await sleep(Math.min(backoff * 2 ** (failures - 1), maxBackoff), undefined, { signal }).catch(() => {
        throw signal.reason;
      });
    }
  }
}

/**
 * The bytes already on disk for this source, re-hashed (a running hash cannot be saved). A changed
 * file is caught by If-Range on the server, and anything else by the final digest check.
 */
async function resumePoint(options: DownloadOptions): Promise<{ received: number; hash: Hash; meta?: PartMeta }> {
  const meta = await readPartMeta(options.dest);
  const size = await partialBytes(options.dest);
  const hash = createHash('sha256');
  const usable =
    meta !== undefined &&
    meta.source === options.source &&
    size > 0 &&
    (meta.total === undefined || size <= meta.total);
  if (!usable) {
    await discardPartial(options.dest);
    return { received: 0, hash };
  }
  for await (const chunk of createReadStream(partPath(options.dest), { end: size - 1 })) hash.update(chunk as Buffer);
  return { received: size, hash, meta };
}

async function openSource(source: string, from: number, validator: string | undefined, signal: AbortSignal): Promise<Opened> {
  if (/^https?:\/\//i.test(source)) return openHttp(source, from, validator, signal);
  const path = /^file:/i.test(source) ? fileURLToPath(source) : source;
  if (!isAbsolute(path)) throw new DownloadError('source', `Not a URL or an absolute path: ${source}`);
  let info;
  try {
    info = await stat(path);
  } catch (error) {
    throw new DownloadError('source', `Cannot read ${path}: ${(error as Error).message}`);
  }
  if (!info.isFile()) throw new DownloadError('source', `${path} is not a file`);
  const current = `${info.size}-${info.mtimeMs}`;
  const resume = from > 0 && validator === current && from <= info.size;
  if (resume && from === info.size) return { kind: 'complete', total: info.size, validator: current };
  return {
    kind: resume ? 'partial' : 'full',
    total: info.size,
    validator: current,
    body: createReadStream(path, { start: resume ? from : 0, signal }),
  };
}

async function openHttp(url: string, from: number, validator: string | undefined, signal: AbortSignal): Promise<Opened> {
  const headers: Record<string, string> = { 'accept-encoding': 'identity' };
  // Without a validator nothing tells us the bytes on disk belong to the file the server has now,
  // and a changed file would be stitched onto the old prefix: start again from byte 0 instead.
  if (from > 0 && validator) {
    headers.range = `bytes=${from}-`;
    headers['if-range'] = validator;
  }
  const response = await fetch(url, { headers, signal, redirect: 'follow' });
  const etag = response.headers.get('etag');
  // If-Range needs a strong validator; a weak ETag falls back to Last-Modified.
  const nextValidator = (etag && !etag.startsWith('W/') ? etag : response.headers.get('last-modified')) ?? undefined;
  const length = response.headers.get('content-length');
  if (response.status === 206) {
    const range = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(response.headers.get('content-range') ?? '');
    if (!range || Number(range[1]) !== from) {
      await response.body?.cancel();
      throw new Retryable(`the server answered an unexpected range (${response.headers.get('content-range')})`);
    }
    const total = range[3] !== '*' ? Number(range[3]) : undefined;
    return { kind: 'partial', ...(total !== undefined ? { total } : {}), ...(nextValidator ? { validator: nextValidator } : {}), body: bodyOf(response), cancel: () => cancelBody(response) };
  }
  if (response.status === 200) {
    const total = length !== null ? Number(length) : undefined;
    return { kind: 'full', ...(total !== undefined ? { total } : {}), ...(nextValidator ? { validator: nextValidator } : {}), body: bodyOf(response), cancel: () => cancelBody(response) };
  }
  await response.body?.cancel();
  if (response.status === 416 && from > 0) return { kind: 'complete' };
  if (response.status >= 500 || response.status === 408 || response.status === 429) {
    throw new Retryable(`the server answered ${response.status}`);
  }
  throw new DownloadError('http', `The server answered ${response.status} ${response.statusText} for ${url}`);
}

async function cancelBody(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => {});
}

function tooLarge(maxBytes: number, why: string): DownloadError {
  return new DownloadError('size', `The download is larger than its declared ${maxBytes} bytes (${why}); it was stopped and its partial file deleted.`);
}

async function* bodyOf(response: Response): AsyncGenerator<Uint8Array> {
  const reader = response.body?.getReader();
  if (!reader) return;
  let done = false;
  try {
    while (!done) {
      const next = await reader.read();
      done = next.done;
      if (next.value) yield next.value;
    }
  } finally {
    // As iterating the stream itself would: a reader that stops early cancels the rest of the body.
    if (!done) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

async function syncDirectory(path: string): Promise<void> {
  try {
    const handle = await open(path, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Directories cannot be opened for fsync on every platform (Windows); the rename still stands.
  }
}

/** Worth retrying from the bytes on disk: our own Retryable, or fetch's network failures (TypeError). */
function isTransient(error: unknown): boolean {
  return error instanceof Retryable || (error instanceof TypeError && !(error instanceof DownloadError));
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { message?: string } })?.cause?.message;
  const message = (error as Error)?.message ?? String(error);
  return cause ? `${message} (${cause})` : message;
}
