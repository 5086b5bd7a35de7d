/**
 * A host started by a window leaves once nothing has used it for a while: every window holds a
 * connection to it (hosting/hostSupervisor.ts), so "no connection open for `idleMs`" means no
 * window and no tool is left. The CLI started by hand has no idle exit unless asked.
 */
import type { Disposable } from '../core/events.ts';
import type { SatchelServer } from '../server/server.ts';

export function exitWhenIdle(server: Pick<SatchelServer, 'connections' | 'onDidChangeConnections'>, idleMs: number, onIdle: () => void): Disposable {
  let timer: NodeJS.Timeout | undefined;
  let done = false;
  const update = (open: number): void => {
    clearTimeout(timer);
    timer = undefined;
    if (open > 0 || done) return;
    timer = setTimeout(() => {
      done = true;
      onIdle();
    }, idleMs);
  };
  const subscription = server.onDidChangeConnections(update);
  update(server.connections);
  return {
    dispose: () => {
      done = true;
      clearTimeout(timer);
      subscription.dispose();
    },
  };
}
