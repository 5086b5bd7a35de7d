/** Ctrl-C for a long subcommand: the first cancels the work (saying `cancelling`), a second quits at once. */
import { toDisposable, type Disposable } from '../core/lifecycle.ts';

export function cancelOnInterrupt(cancelling: string): { readonly signal: AbortSignal } & Disposable {
  const stop = new AbortController();
  const onInterrupt = (): void => {
    if (stop.signal.aborted) process.exit(130);
    process.stderr.write(`\n${cancelling} (Ctrl-C again to quit at once)…\n`);
    stop.abort();
  };
  process.on('SIGINT', onInterrupt);
  return { signal: stop.signal, ...toDisposable(() => void process.off('SIGINT', onInterrupt)) };
}
