/**
 * A reply of newline-delimited JSON written while long work goes on (an import, a backup): one line
 * per update, then one closing line. A client that disconnects before the end aborts `signal`, which
 * the work takes as cancellation.
 */
import { PassThrough } from 'node:stream';
import type { Context } from 'koa';
import type { Logger } from '../core/context.ts';
import { describeError } from './errors.ts';
import type { ErrorLine, LongOperationLine } from '../wire/longOperation.ts';
import type { Reply } from '../wire/operation.ts';

interface NdjsonReply<Line> {
  readonly signal: AbortSignal;
  send(line: Line): void;
  end(): void;
}

function ndjsonReply<Line>(ctx: Context): NdjsonReply<Line> {
  const stop = new AbortController();
  const reply = new PassThrough();
  whenClientLeaves(ctx, () => stop.abort());
  ctx.status = 200;
  ctx.type = 'application/x-ndjson';
  ctx.body = reply;
  return {
    signal: stop.signal,
    send: (line) => {
      if (!reply.destroyed) reply.write(`${JSON.stringify(line)}\n`);
    },
    end: () => reply.end(),
  };
}

/**
 * Answers long work as the NDJSON reply `op` declares (wire/longOperation.ts): a progress line per update, then
 * the closing line `done` makes of the result, or the error that stopped the work (a domain error
 * as it is, anything else logged and masked). Settles once the reply is finished.
 */
export function longOperationReply<Progress, Key extends string, Result>(
  ctx: Context,
  logger: Logger,
  op: { readonly path: string; readonly reply: Reply<'ndjson', LongOperationLine<Progress, Key, Result>> },
  run: (signal: AbortSignal, onProgress: (progress: Progress) => void) => Promise<Result>,
  done: (result: Result) => { readonly [K in Key]: Result },
): Promise<void> {
  const reply = ndjsonReply<LongOperationLine<Progress, Key, Result>>(ctx);
  return run(reply.signal, (progress) => reply.send({ progress }))
    .then(
      (result) => reply.send(done(result)),
      (error: unknown) => reply.send(errorLine(error, logger, op.path, reply.signal)),
    )
    .finally(() => reply.end());
}

function errorLine(error: unknown, logger: Logger, what: string, signal: AbortSignal): ErrorLine {
  const known = describeError(error);
  if (known) return { error: { code: known.code, message: known.message } };
  // Cancelled (its client left, the host is stopping, an abort): an expected end, one line and no stack.
  if (signal.aborted || isAbort(error)) {
    logger.info(`${what} cancelled${error instanceof Error && !isAbort(error) ? ` (${error.message})` : ''}`);
    return { error: { code: 'cancelled', message: 'The operation was cancelled.' } };
  }
  logger.error(`${what} failed`, error);
  return { error: { code: 'internal', message: 'Internal error; see the Satchel log for details.' } };
}

/** An AbortSignal's own error (a DOMException or Error named AbortError). */
function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

/**
 * Runs `leave` once the client's connection closes before its reply is finished, at once if it
 * already has: a client that left while its body was being parsed had its 'close' emitted before
 * the route ran (an import cut off within ~30 ms of its upload wrote everything).
 */
export function whenClientLeaves(ctx: Context, leave: () => void): void {
  if (ctx.res.destroyed || ctx.req.socket.destroyed) {
    leave();
    return;
  }
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) leave();
  });
}
