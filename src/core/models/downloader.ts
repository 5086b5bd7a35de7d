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
import { mkdir, open, readFile, rename, rm, stat, writeFile, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../store/privateFiles.ts';
import { DownloadError, isTransient, openSource, Retryable, tooLarge } from './downloadSource.ts';

export { DownloadError, type DownloadFailure } from './downloadSource.ts';

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

interface PartMeta {
  readonly source: string;
  readonly sha256?: string;
  readonly validator?: string;
  readonly total?: number;
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
    const part: Part = { received: start.received, hash: start.hash };
    try {
      await receive(options, start.meta, part, () => restarts++);
      const digest = await install(options, part.hash);
      return { sha256: digest, bytes: part.received, attempts, restarts, resumedFrom };
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      if (!isTransient(error)) throw error;
      // Progress resets the budget: a flaky link that keeps moving is not a failure.
      failures = part.received > start.received ? 1 : failures + 1;
      if (failures > retries) {
        throw new DownloadError('network', `Gave up after ${attempts} attempts: ${describe(error)}`);
      }
      await sleep(Math.min(backoff * 2 ** (failures - 1), maxBackoff), undefined, { signal }).catch(() => {
        throw signal.reason;
      });
    }
  }
}

/** The .part file of one attempt: the bytes on disk (a resume starts after them) and their running hash. */
interface Part {
  received: number;
  hash: Hash;
}

/** One attempt's transfer: opens the source where the .part file ends and appends the rest to it. */
async function receive(options: DownloadOptions, meta: PartMeta | undefined, part: Part, onRestart: () => void): Promise<void> {
  const { dest } = options;
  const opened = await openSource(options.source, part.received, meta?.validator, options.signal);
  if (opened.kind === 'complete') {
    if (meta?.total !== part.received) {
      await discardPartial(dest);
      throw new Retryable('the server refused to resume; starting over');
    }
    return;
  }
  if (opened.kind === 'full' && part.received > 0) {
    onRestart();
    part.received = 0;
    part.hash = createHash('sha256');
  }
  const total = opened.total;
  if (options.maxBytes !== undefined && total !== undefined && total > options.maxBytes) {
    await opened.cancel?.();
    throw tooLarge(options.maxBytes, `the source announces ${total} bytes`);
  }
  // Refusals (no room for the announced size) come before anything is written, so they leave nothing behind.
  if (total !== undefined) await options.onTotal?.(total, part.received);
  await writeFile(metaPath(dest), JSON.stringify({ source: options.source, sha256: options.sha256, validator: opened.validator, total } satisfies PartMeta), { mode: PRIVATE_FILE_MODE });
  options.onProgress?.({ received: part.received, ...(total !== undefined ? { total } : {}) });
  const file = await open(partPath(dest), part.received === 0 ? 'w' : 'a', PRIVATE_FILE_MODE);
  try {
    await appendBody(file, opened.body!, part, total, options);
    if (total !== undefined && part.received !== total) {
      throw new Retryable(`the connection ended at byte ${part.received} of ${total}`);
    }
    await file.sync();
  } finally {
    await file.close();
  }
}

/**
 * Appends the body to the .part file. Network chunks are small (16-64 KiB): writing them in 1 MiB
 * batches saves most of the per-write cost; on a slow link a batch is also written every 100 ms so
 * progress moves. One batch is written while the next is received (awaiting each write stalled
 * the socket); `part.received` counts only bytes on disk, so a resume starts after them.
 */
async function appendBody(file: FileHandle, body: AsyncIterable<Uint8Array>, part: Part, total: number | undefined, options: DownloadOptions): Promise<void> {
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let flushedAt = Date.now();
  let writing: Promise<void> = Promise.resolve();
  let checkedAt = part.received;
  const flush = async (): Promise<void> => {
    if (pendingBytes === 0) return;
    const batch = pending.length === 1 ? pending[0]! : Buffer.concat(pending, pendingBytes);
    const bytes = pendingBytes;
    pending = [];
    pendingBytes = 0;
    flushedAt = Date.now();
    await writing;
    writing = file.write(batch).then(() => {
      part.received += bytes;
      options.onProgress?.({ received: part.received, ...(total !== undefined ? { total } : {}) });
    });
    // A failed write (ENOSPC) is seen at the next await of `writing`; until then it must not
    // count as an unhandled rejection, which ends the process.
    writing.catch(() => {});
    if (options.onSpaceCheck && part.received + bytes - checkedAt >= SPACE_CHECK_BYTES) {
      await writing;
      checkedAt = part.received;
      await options.onSpaceCheck(part.received);
    }
  };
  let arrived = part.received;
  try {
    for await (const chunk of body) {
      arrived += chunk.length;
      if (options.maxBytes !== undefined && arrived > options.maxBytes) throw tooLarge(options.maxBytes, 'the source sent more');
      part.hash.update(chunk);
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
}

/** Checks the complete .part file (digest, `verify`) and renames it into place; returns its digest. */
async function install(options: DownloadOptions, hash: Hash): Promise<string> {
  const { dest } = options;
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
  return digest;
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

function describe(error: unknown): string {
  const cause = (error as { cause?: { message?: string } })?.cause?.message;
  const message = (error as Error)?.message ?? String(error);
  return cause ? `${message} (${cause})` : message;
}
