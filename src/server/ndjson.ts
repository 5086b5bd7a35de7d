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
 * Answers long work as the NDJSON reply `op` declares (wire/longOperation.ts): progress lines (progressLines), then
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
  const lines = progressLines<Progress>((progress) => reply.send({ progress }));
  return run(reply.signal, lines.report)
    .then(
      (result) => {
        lines.end();
        reply.send(done(result));
      },
      (error: unknown) => {
        lines.end();
        reply.send(errorLine(error, logger, op.path, reply.signal));
      },
    )
    .finally(() => reply.end());
}

/** How often a reply writes a progress line at most. */
const PROGRESS_LINE_MS = 100;

/**
 * Progress as lines of a reply, at most one every PROGRESS_LINE_MS: a report within that time is held,
 * replaced by the next, and written when the time is up. Never dropped: the last report of a phase
 * (a progress's `phase`, when it has one) before a report of another, and the last one before the
 * closing line (`end`, after which reports are not written). Work reports as often as it likes (a
 * secrets scan or a first sync of 100k snippets reported each one: 100k lines, a write each).
 */
export function progressLines<Progress>(write: (progress: Progress) => void): { report(progress: Progress): void; end(): void } {
  let held: { readonly progress: Progress } | undefined;
  let ended = false;
  let timer: NodeJS.Timeout | undefined;
  let writtenAt = -Infinity;
  const writeNow = (progress: Progress): void => {
    clearTimeout(timer);
    timer = undefined;
    held = undefined;
    writtenAt = performance.now();
    write(progress);
  };
  const flush = (): void => {
    if (held !== undefined) writeNow(held.progress);
  };
  return {
    report: (progress) => {
      if (ended) return;
      if (held !== undefined && phaseOf(held.progress) !== phaseOf(progress)) flush();
      const since = performance.now() - writtenAt;
      if (since >= PROGRESS_LINE_MS) return writeNow(progress);
      held = { progress };
      timer ??= setTimeout(flush, PROGRESS_LINE_MS - since);
    },
    end: () => {
      flush();
      ended = true;
    },
  };
}

function phaseOf(progress: unknown): unknown {
  return typeof progress === 'object' && progress !== null && 'phase' in progress ? progress.phase : undefined;
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
