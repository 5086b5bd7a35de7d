/**
 * The one error path of the HTTP edge: domain errors from core and edge errors become one JSON
 * shape, `{ "error": { "code", "message" } }`; anything unexpected is logged and masked as 500.
 */
import { STATUS_CODES } from 'node:http';
import type { Context, Next } from 'koa';
import { DomainError, RevisionConflictError } from '../core/errors.ts';
import type { Logger } from '../core/context.ts';
import { etagOf } from '../wire/history.ts';
import { statusOfDomainError } from '../wire/errorStatus.ts';

/** An error raised by the HTTP edge itself (body parsing, guards, routing). */
export class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export interface ErrorBody {
  /** `currentRevision` for a stale_revision (412): the revision to read again and base a retry on. */
  readonly error: { readonly code: string; readonly message: string; readonly currentRevision?: string };
}

/** Status and message of a domain or edge error (streams report errors in frames, not replies); undefined for anything else. */
export function describeError(error: unknown): { status: number; code: string; message: string } | undefined {
  if (error instanceof DomainError) return { status: statusOfDomainError[error.code], code: error.code, message: error.message };
  if (error instanceof HttpError) return { status: error.status, code: error.code, message: error.message };
  return undefined;
}

export function errorBody(code: string, message: string): ErrorBody {
  return { error: { code, message } };
}

/**
 * The same error, for a socket no Koa context owns (a request Node's parser refused, a refused
 * WebSocket upgrade): one whole HTTP/1.1 reply, after which the connection closes.
 */
export function rawErrorReply(status: number, code: string, message: string): string {
  const body = JSON.stringify(errorBody(code, message));
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\nConnection: close\r\nContent-Type: application/json\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}

export function errorMiddleware(logger: Logger) {
  return async function handleErrors(ctx: Context, next: Next): Promise<void> {
    try {
      await next();
      if (ctx.status === 404 && ctx.body == null) {
        throw new HttpError(404, 'route_not_found', `No operation at ${ctx.method} ${ctx.path}`);
      }
      if (ctx.status === 405 && ctx.body == null) {
        throw new HttpError(405, 'method_not_allowed', `${ctx.method} is not allowed on ${ctx.path}`);
      }
    } catch (error) {
      let status: number;
      let body: ErrorBody;
      if (error instanceof RevisionConflictError) {
        status = statusOfDomainError[error.code];
        body = { error: { code: error.code, message: error.message, currentRevision: error.current } };
        ctx.set('ETag', etagOf(error.current));
      } else if (error instanceof DomainError) {
        status = statusOfDomainError[error.code];
        body = errorBody(error.code, error.message);
      } else if (error instanceof HttpError) {
        status = error.status;
        body = errorBody(error.code, error.message);
      } else if (isClientAbort(error)) {
        status = 400;
        body = errorBody('aborted', 'The request was aborted before its body was complete.');
      } else {
        logger.error(`${ctx.method} ${ctx.path} failed`, error);
        status = 500;
        body = errorBody('internal', 'Internal error; see the Satchel log for details.');
      }
      ctx.status = status;
      ctx.type = 'application/json';
      ctx.body = body;
    }
  };
}

function isClientAbort(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ECONNRESET' || code === 'ECONNABORTED';
}

/**
 * Whether a reply failed only because its client went away (a streamed reply cut off, a write to
 * a closed socket): not the host's error, and no stack for the log.
 */
export function isClientGone(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return isClientAbort(error) || code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'EPIPE';
}
