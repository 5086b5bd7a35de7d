/**
 * Reads and parses request bodies. The client sends bare JSON scalars (`true`, `"<uuid>"`), large
 * TransferableBytes arrays, and JSON content types with empty bodies (GET with a body), so this
 * accepts all of those; anything that is not JSON is refused before a route sees it.
 */
import type { Context, Next } from 'koa';
import { HttpError } from './errors.ts';

declare module 'koa' {
  interface Request {
    /** The parsed JSON body; undefined when the request had none. */
    body?: unknown;
  }
}

export const DEFAULT_BODY_LIMIT = 64 * 1024 * 1024;

const decoder = new TextDecoder('utf-8', { fatal: true });

/** No wire model nests anywhere near this deep. */
export const MAX_DEPTH = 256;

/** The deepest bracket nesting of a JSON text, ignoring brackets inside strings. */
export function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > deepest) deepest = depth;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}

export function bodyParser(limit: number = DEFAULT_BODY_LIMIT) {
  return async function parseBody(ctx: Context, next: Next): Promise<void> {
    if (ctx.method === 'GET' || ctx.method === 'HEAD' || ctx.method === 'POST' || ctx.method === 'PUT') {
      const declared = Number(ctx.get('content-length') || 0);
      if (declared > limit) throw tooLarge(limit);
      const type = ctx.get('content-type');
      if (type && !isJsonType(type) && ctx.method !== 'GET' && ctx.method !== 'HEAD') {
        // text/plain, form and multipart are what a foreign page can POST without a preflight:
        // refused even with an empty body, whatever the Origin says.
        throw new HttpError(415, 'unsupported_media_type', 'Request bodies must be JSON (Content-Type: application/json).');
      }
      const raw = await readAll(ctx, limit);
      if (raw.length > 0 && raw.some((byte) => byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09)) {
        if (!isJsonType(ctx.get('content-type'))) {
          throw new HttpError(415, 'unsupported_media_type', 'Request bodies must be JSON (Content-Type: application/json).');
        }
        let text: string;
        try {
          text = decoder.decode(raw);
        } catch {
          throw new HttpError(400, 'invalid_encoding', 'The request body is not valid UTF-8.');
        }
        if (nestingDepth(text) > MAX_DEPTH) {
          // Deep documents overflow the stack of validators and renderers further in.
          throw new HttpError(400, 'too_deep', `The request body nests deeper than ${MAX_DEPTH} levels.`);
        }
        try {
          ctx.request.body = JSON.parse(text) as unknown;
        } catch (error) {
          throw new HttpError(400, 'malformed_json', `The request body is not valid JSON: ${(error as Error).message}`);
        }
      }
    }
    await next();
  };
}

function isJsonType(contentType: string): boolean {
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || type.endsWith('+json');
}

function tooLarge(limit: number): HttpError {
  return new HttpError(413, 'too_large', `The request body is larger than the limit of ${limit} bytes.`);
}

async function readAll(ctx: Context, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      // Stop reading; the connection is closed after the 413 so the rest is never buffered.
      ctx.set('Connection', 'close');
      throw tooLarge(limit);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}
