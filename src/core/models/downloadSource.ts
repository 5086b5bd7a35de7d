/**
 * Where a download's bytes come from: an http(s) URL (resumed with Range + If-Range) or a file on
 * disk (a `file:` URL or an absolute path), opened at the bytes already received; and the errors a
 * download fails with (downloader.ts).
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { fileURLToPath } from 'node:url';

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
export class Retryable extends Error {}

export interface Opened {
  /** `partial`: the body continues from the requested offset; `full`: it starts at byte 0. */
  readonly kind: 'partial' | 'full' | 'complete';
  readonly total?: number;
  readonly validator?: string;
  readonly body?: AsyncIterable<Uint8Array>;
  /** Releases the body unread (a refused size). */
  readonly cancel?: () => Promise<void>;
}

export async function openSource(source: string, from: number, validator: string | undefined, signal: AbortSignal): Promise<Opened> {
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

export function tooLarge(maxBytes: number, why: string): DownloadError {
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

/** Worth retrying from the bytes on disk: our own Retryable, or fetch's network failures (TypeError). */
export function isTransient(error: unknown): boolean {
  return error instanceof Retryable || (error instanceof TypeError && !(error instanceof DownloadError));
}
