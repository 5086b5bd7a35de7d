import type Router from '@koa/router';
import type { Satchel } from '../../core/satchel.ts';
import type { StreamRegistry } from '../streams.ts';

/** What a route module gets: the domain and the stream registry. Routes stay thin over core. */
export interface RouteDeps {
  readonly core: Satchel;
  readonly streams: StreamRegistry;
}

export type RouteModule = (router: Router, deps: RouteDeps) => void;
