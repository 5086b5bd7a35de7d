/**
 * Reads and parses request bodies. The client sends bare JSON scalars (`true`, `"<uuid>"`), large
 * TransferableBytes arrays, and JSON content types with empty bodies (GET with a body), so this
 * accepts all of those; anything that is not JSON is refused before a route sees it.
 *
 * Cost is bounded per request and in total: a body larger than the limit is refused (413) as soon
 * as its length is known; all bodies being read or handled at once may hold at most `inFlight`
 * bytes (beyond that 503 with Retry-After, so thirty stalled 60 MB uploads cannot take 2 GB); a
 * body that stops arriving for `idleMs` is answered 408 and its connection closed; and large
 * bodies are parsed on a worker thread so the event loop keeps answering. A route whose work
 * outlives its reply's start (an import queued behind another) keeps its body counted until that
 * work ends (holdBodyUntil).
 */
import type { Context, Next } from 'koa';
import { HttpError } from './errors.ts';
import { JsonParser } from './jsonParse.ts';
import { keepChecked } from './checkedBodies.ts';
import { freeNow } from './freeBuffer.ts';
import { closeAfterAnswer } from './lingeringClose.ts';
import type { Disposable } from '../core/events.ts';


declare module 'koa' {
  interface Request {
    /** The parsed JSON body; undefined when the request had none. */
    body?: unknown;
  }
}

const DEFAULT_BODY_LIMIT = 64 * 1024 * 1024;
/** Four bodies at the limit; what the host holds for bodies at once. */
const DEFAULT_IN_FLIGHT_LIMIT = 256 * 1024 * 1024;
/** A loopback client never pauses this long mid-body; a stalled one is cut off. */
const DEFAULT_BODY_IDLE_MS = 10_000;
/** Bodies from this size are parsed off the event loop (a 1 MiB parse takes ~10 ms on the loop). */
const WORKER_PARSE_FROM = 1024 * 1024;

export interface BodyOptions {
  readonly limit?: number;
  readonly inFlight?: number;
  readonly idleMs?: number;
  /**
   * The declared name of the operation the router will run for a request, if any: a large body is
   * then checked with its schema on the worker (checkedBodies.ts).
   */
  readonly operationOf?: (ctx: Context) => string | undefined;
  /** Operations (by declared name) whose bodies a reader of their own reads before the JSON parser (BodyReader). */
  readonly readers?: ReadonlyMap<string, BodyReader>;
  /**
   * Told of the bytes a body will take before they are allocated, once it reaches LARGE_BODY_BYTES:
   * a declared length at once, a body of unknown length each time its buffer grows (the host may
   * collect its garbage first).
   */
  readonly beforeLargeBody?: (bytes: number) => void;
}

/** A body this large is told of before its bytes are allocated (BodyOptions.beforeLargeBody). */
export const LARGE_BODY_BYTES = 1024 * 1024;

/**
 * Reads the body of one operation itself (importBody.ts): sets `ctx.request.body` and answers true,
 * or answers false to leave the body to the JSON parser, whose refusals are the ones clients get.
 */
export type BodyReader = (raw: Buffer, ctx: Context) => Promise<boolean>;

/** The bytes every request body holds right now, against one total. */
class ByteBudget {
  private used = 0;
  private readonly total: number;
  constructor(total: number) {
    this.total = total;
  }
  take(bytes: number): boolean {
    if (this.used + bytes > this.total) return false;
    this.used += bytes;
    return true;
  }
  release(bytes: number): void {
    this.used -= bytes;
  }
}

/** Work that still holds a request's body after its route returned, by request. */
const heldBy = new WeakMap<Context, Promise<unknown>>();

/**
 * Keeps the request's body counted against the in-flight budget until `work` settles, for a route
 * that answers at once and keeps the parsed body for work queued behind it (POST /satchel/import):
 * without this, eighty-five queued 64 MB imports held 4 GB that the budget never saw.
 */
export function holdBodyUntil(ctx: Context, work: Promise<unknown>): void {
  heldBy.set(ctx, work);
}

export interface BodyParser extends Disposable {
  readonly middleware: (ctx: Context, next: Next) => Promise<void>;
}

export function bodyParser(options: BodyOptions = {}): BodyParser {
  const limit = options.limit ?? DEFAULT_BODY_LIMIT;
  const budget = new ByteBudget(Math.max(options.inFlight ?? DEFAULT_IN_FLIGHT_LIMIT, limit));
  const idleMs = options.idleMs ?? DEFAULT_BODY_IDLE_MS;
  const parser = new JsonParser(WORKER_PARSE_FROM);

  async function parseBody(ctx: Context, next: Next): Promise<void> {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD' && ctx.method !== 'POST' && ctx.method !== 'PUT') return next();
    const declared = Number(ctx.get('content-length') || 0);
    if (declared > limit) throw refuse(ctx, tooLarge(limit));
    const type = ctx.get('content-type');
    if (type && !isJsonType(type) && ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      // text/plain, form and multipart are what a foreign page can POST without a preflight:
      // refused even with an empty body, whatever the Origin says.
      throw refuse(ctx, new HttpError(415, 'unsupported_media_type', 'Request bodies must be JSON (Content-Type: application/json).'));
    }
    let held = 0;
    const hold = (bytes: number): void => {
      if (bytes <= held) return;
      if (!budget.take(bytes - held)) throw refuse(ctx, busy());
      held = bytes;
    };
    try {
      if (declared > 0) hold(declared);
      if (declared >= LARGE_BODY_BYTES) options.beforeLargeBody?.(declared);
      const raw = await readAll(ctx, { limit, idleMs, beforeLarge: options.beforeLargeBody }, declared, hold);
      if (raw.length > 0 && raw.some((byte) => byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09)) {
        if (!isJsonType(ctx.get('content-type'))) {
          throw new HttpError(415, 'unsupported_media_type', 'Request bodies must be JSON (Content-Type: application/json).');
        }
        const operation = options.operationOf?.(ctx);
        const reader = operation !== undefined ? options.readers?.get(operation) : undefined;
        if (reader === undefined || !(await reader(raw, ctx))) {
          const parsed = await parser.parseFor(raw, 'request body', operation);
          ctx.request.body = parsed.value;
          if (parsed.checked !== undefined) keepChecked(ctx, parsed.checked.ok ? { ...parsed.checked, value: parsed.value } : parsed.checked);
        }
      }
      await next();
    } finally {
      const work = heldBy.get(ctx);
      const release = (): void => budget.release(held);
      if (work === undefined) release();
      else void work.then(release, release);
    }
  }

  return { middleware: parseBody, dispose: () => parser.dispose() };
}

function isJsonType(contentType: string): boolean {
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || type.endsWith('+json');
}

function tooLarge(limit: number): HttpError {
  return new HttpError(413, 'too_large', `The request body is larger than the limit of ${limit} bytes.`);
}

function busy(): HttpError {
  return new HttpError(503, 'busy', 'Too many large request bodies are being received at once; retry shortly.');
}

/**
 * Marks a refusal sent before the body was read: the connection closes after the answer (Node
 * would otherwise read the whole unread rest to reuse the connection), gracefully, so a client
 * still sending reads the answer instead of a reset (lingeringClose.ts).
 */
function refuse(ctx: Context, error: HttpError): HttpError {
  ctx.set('Connection', 'close');
  if (error.status === 503) ctx.set('Retry-After', '1');
  closeAfterAnswer(ctx.req);
  return error;
}

interface ReadLimits {
  readonly limit: number;
  readonly idleMs: number;
  readonly beforeLarge: ((bytes: number) => void) | undefined;
}

/** A body of unknown length is read into a buffer this large at first, then twice as large each time it fills. */
const FIRST_BUFFER_BYTES = 64 * 1024;

/**
 * The whole body, into one buffer of the declared size when there is one, else into a resizable
 * ArrayBuffer that doubles as it fills and is cut to the body's size at the end. V8 reserves a
 * resizable buffer's largest size up front and grows it in place: a buffer grown by copying held
 * the body twice at its highest (19 MB for a 9.4 MB import body, the data host's highest point of
 * the day, issue 34). Each chunk is copied as it arrives: chunks kept until the end reached V8's
 * old generation and stayed, a body's size of them, until its next full collection. Each chunk is
 * counted against the budget through `hold`; `beforeLarge` is told before the buffer grows past
 * LARGE_BODY_BYTES; a pause longer than `idleMs` ends it.
 */
function readAll(ctx: Context, limits: ReadLimits, declared: number, hold: (bytes: number) => void): Promise<Buffer> {
  const { limit, idleMs, beforeLarge } = limits;
  const req = ctx.req;
  return new Promise<Buffer>((resolve, reject) => {
    const fixed = declared > 0 ? Buffer.allocUnsafeSlow(declared) : undefined;
    let growing: ArrayBuffer | undefined;
    let size = 0;
    /** Where the next chunk goes, with room for `bytes` in all. */
    const room = (bytes: number): Buffer => {
      if (fixed !== undefined) return fixed;
      growing ??= new ArrayBuffer(Math.min(limit, FIRST_BUFFER_BYTES), { maxByteLength: limit });
      if (bytes > growing.byteLength) {
        const length = Math.min(limit, Math.max(bytes, 2 * growing.byteLength));
        if (length >= LARGE_BODY_BYTES) beforeLarge?.(length - growing.byteLength);
        growing.resize(length);
      }
      return Buffer.from(growing);
    };
    let timer: NodeJS.Timeout | undefined;
    const arm = (): void => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        finish(refuse(ctx, new HttpError(408, 'body_timeout', `No part of the request body arrived for ${idleMs / 1000} s.`)));
      }, idleMs);
    };
    const finish = (error?: unknown): void => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
      if (error) {
        // What was received is dropped at once; the request stops reading.
        const dropped = fixed?.buffer ?? growing;
        if (dropped !== undefined) freeNow(dropped);
        growing = undefined;
        req.pause();
        reject(error);
        return;
      }
      if (fixed !== undefined) resolve(size === fixed.length ? fixed : fixed.subarray(0, size));
      else if (growing === undefined) resolve(Buffer.alloc(0));
      else {
        growing.resize(size);
        resolve(Buffer.from(growing));
      }
    };
    const onData = (chunk: Buffer): void => {
      arm();
      const next = size + chunk.length;
      if (next > limit || (declared > 0 && next > declared)) {
        finish(refuse(ctx, tooLarge(limit)));
        return;
      }
      try {
        hold(next);
      } catch (error) {
        finish(error);
        return;
      }
      chunk.copy(room(next), size);
      size = next;
    };
    const onEnd = (): void => finish();
    const onError = (error: Error): void => finish(error);
    const onClose = (): void => {
      if (!req.complete) finish(Object.assign(new Error('aborted'), { code: 'ECONNABORTED' }));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
    arm();
  });
}
