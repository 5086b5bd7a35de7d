/**
 * One request's signal: the caller's, and the request's time limit. `AbortSignal.timeout` would do
 * the limit, but its timer (and the `AbortSignal.any` joining it to the caller's) stays until it
 * fires, 30 s after a request long done: in a burst of requests (an edit each, the history view's
 * reads) the collector tracked hundreds. This timer ends with the request (`settle`).
 */
export interface Deadline {
  /** What the request is sent with: aborted by the caller's signal or when the time is up. */
  readonly signal: AbortSignal;
  /** Whether the time ran out (rather than the caller cancelling). */
  readonly timedOut: boolean;
  /** The request is over (read, failed or left): the timer and the listener on the caller's signal go. */
  settle(): void;
}

export function deadline(callerSignal: AbortSignal | undefined, timeoutMs: number | undefined): Deadline {
  if (timeoutMs === undefined) {
    // Only the caller ends it; a request with neither still needs a signal for the pool.
    const signal = callerSignal ?? new AbortController().signal;
    return { signal, timedOut: false, settle: () => undefined };
  }
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException('The request timed out', 'TimeoutError'));
  }, timeoutMs);
  // As AbortSignal.timeout's: a pending limit alone does not keep a process running.
  timer.unref();
  const cancel = (): void => controller.abort(callerSignal?.reason);
  const settle = (): void => {
    clearTimeout(timer);
    callerSignal?.removeEventListener('abort', cancel);
  };
  if (callerSignal?.aborted) cancel();
  else callerSignal?.addEventListener('abort', cancel, { once: true });
  return {
    signal: controller.signal,
    get timedOut() {
      return timedOut;
    },
    settle,
  };
}
