import type Router from '@koa/router';
import type { RouterMiddleware } from '@koa/router';
import type { Satchel } from '../../core/satchel.ts';
import type { StreamRegistry } from '../streams.ts';
import type { Operation } from '../../wire/operation.ts';
import type { ExchangeSlots } from '../mcp/exchangeSlots.ts';
import { operationName } from '../checkedBodies.ts';

/** What a route module gets: the domain, the stream registry and the lines of heavy work (searchSlots.ts). Routes stay thin over core. */
export interface RouteDeps {
  readonly core: Satchel;
  readonly streams: StreamRegistry;
  readonly searches: ExchangeSlots;
  /** The line of whole-record reads (a snippet, a revision). */
  readonly reads: ExchangeSlots;
  /** Registers what ends when the app stops (connections a route keeps open, such as MCP's SSE streams). */
  readonly onDispose: (dispose: () => void) => void;
}

export type RouteModule = (router: Router, deps: RouteDeps) => void;

/**
 * Serves a declared operation at its method and path: the one way a route module registers one,
 * so no path is written twice and every served path is declared (test/server/routeTable.test.ts).
 * The router's layer is named for the operation (operationServed reads it back).
 */
export function route(router: Router, op: Operation, ...handlers: RouterMiddleware[]): void {
  const name = operationName(op);
  // What router.get/post/put/delete(name, path, …) do, with the method from the declaration.
  router.register(op.path, [op.method.toLowerCase()], handlers, name === undefined ? {} : { name });
}

/** The declared name of the operation `router` runs for this method and path (the first route layer that matches). */
export function operationServed(router: Router, method: string, path: string): string | undefined {
  const layer = router.match(path, method).pathAndMethod.find((candidate) => candidate.methods.length > 0);
  return layer?.name ?? undefined;
}
