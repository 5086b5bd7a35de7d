/**
 * The routes under test: every operation of the interface (../shared/reference/interface.md),
 * whether or not its area has landed (a missing route must still refuse a hostile caller and answer
 * JSON), plus every route and stream the areas' route modules actually register, found by
 * registering them on a router of our own, so a new route is covered the day it lands.
 */
import Router from '@koa/router';
import type { Satchel } from '../../src/core/satchel.ts';
import { silentLogger } from '../../src/core/context.ts';
import { StreamRegistry, type StreamHandler } from '../../src/server/streams.ts';
import type { RouteModule } from '../../src/server/routes/deps.ts';
import { routeModules } from '../../src/server/app.ts';
import { readSlots, searchSlots } from '../../src/server/searchSlots.ts';

export interface Route {
  readonly method: 'GET' | 'POST';
  /** `:name` segments are filled in by the caller. */
  readonly path: string;
  /** Whether the operation changes the store (CSRF matters most there). */
  readonly writes: boolean;
  /** Whether the request carries a JSON body. */
  readonly body: boolean;
}

const get = (path: string, body = false): Route => ({ method: 'GET', path, writes: false, body });
const post = (path: string, body: boolean, writes = true): Route => ({ method: 'POST', path, writes, body });

export const ROUTES: readonly Route[] = [
  get('/.well-known/health'),
  get('/.well-known/version'),
  // Assets
  post('/assets/create', true),
  post('/assets/:asset/delete', false),
  post('/assets/draft', true, false),
  get('/assets/recommended', true),
  get('/assets/related', true),
  get('/assets/identifiers'),
  get('/assets/pseudo'),
  get('/assets/search'),
  post('/assets/search', true, false),
  get('/assets'),
  get('/assets/:asset/formats'),
  get('/assets/:asset'),
  // Asset
  post('/asset/:asset/tags/associate/:tag', false),
  post('/asset/:asset/tags/disassociate/:tag', false),
  post('/asset/:asset/websites/associate/:website', false),
  post('/asset/:asset/websites/disassociate/:website', false),
  post('/asset/:asset/workstream_summaries/associate/:workstream_summary', false),
  post('/asset/:asset/workstream_summaries/disassociate/:workstream_summary', false),
  get('/asset/:asset/formats'),
  post('/asset/reclassify', true),
  post('/asset/:asset/scores/increment', true),
  get('/asset/:asset'),
  post('/asset/:asset', true, false),
  get('/asset/:asset/activities'),
  get('/asset/:asset/conversations'),
  get('/asset/:asset/export'),
  post('/asset/update', true),
  // Applications
  get('/applications/external/related'),
  get('/applications/external'),
  get('/applications'),
  get('/applications/:application'),
  post('/applications/register', true),
  post('/applications/session/open', false),
  post('/applications/session/close', true),
  get('/applications/sessions/:session'),
  post('/applications/usage/engagement/interaction', true),
  post('/applications/usage/engagement/keyboard', true),
  post('/applications/usage/installation', true),
  post('/applications/usage/updated', true),
  // Connector
  post('/connect', true),
  post('/:application/intention', true),
  post('/:application/onboarded', true),
  post('/:application/reaction', true),
  post('/:application/suggestion', true),
  post('/:application/track', true),
  // Conversation
  post('/conversation/:conversation/anchors/associate/:anchor', false),
  post('/conversation/:conversation/anchors/delete/:anchor', false),
  post('/conversation/:conversation/assets/associate/:asset', false),
  post('/conversation/:conversation/assets/delete/:asset', false),
  post('/conversation/:conversation/grounding/temporal_range/workstreams/associate/:range', false),
  post('/conversation/:conversation/grounding/temporal_range/workstreams/disassociate/:range', false),
  post('/conversation/:conversation/websites/associate/:website', false),
  post('/conversation/:conversation/websites/disassociate/:website', false),
  post('/conversation/:conversation/workstream_summaries/associate/:workstream_summary', false),
  post('/conversation/:conversation/workstream_summaries/disassociate/:workstream_summary', false),
  post('/conversation/:conversation/grounding/messages/associate/:message', false),
  post('/conversation/:conversation/grounding/messages/disassociate/:message', false),
  get('/conversation/:conversation'),
  get('/conversation/:conversation/messages'),
  post('/conversation/:conversation/rename', false),
  post('/conversation/:conversation/summarize', true),
  post('/conversation/:conversation/scores/increment', true),
  post('/conversation/update', true),
  // Models
  post('/models/create', true),
  post('/models/:model/delete', false),
  post('/models/:model/delete/cache', true),
  get('/models'),
  post('/models/unload', false),
  post('/model/:model/download', false),
  post('/model/:model/download/cancel', false),
  post('/model/:model/load', false),
  post('/model/:model/unload', false),
  post('/model/update', true),
  get('/model/:model'),
];

/** The WebSocket streams; each also answers a plain GET with a snapshot. */
export const STREAMS: readonly string[] = [
  '/.well-known/stream/health',
  '/assets/stream',
  '/assets/stream/transferables',
  '/assets/stream/identifiers',
  '/model/:model/download/progress',
];

/** `template` with every `:name` segment replaced by `fill(name)` (URL-encoded). */
export function fillPath(template: string, fill: (name: string) => string): string {
  return template.replace(/:([a-z_]+)/g, (_match, name: string) => encodeURIComponent(fill(name)));
}

class RecordingStreams extends StreamRegistry {
  readonly patterns: string[] = [];
  override register(pattern: string, handler: StreamHandler): void {
    this.patterns.push(pattern);
    super.register(pattern, handler);
  }
}

// The app's own list, so a route module added there is covered here the day it lands.
const MODULES: readonly RouteModule[] = routeModules;

/** The interface's routes and streams together with every one the route modules register on `core`. */
export function allRoutes(core: Satchel): { routes: Route[]; streams: string[] } {
  const router = new Router();
  const streams = new RecordingStreams(silentLogger);
  try {
    for (const register of MODULES) register(router, { core, streams, searches: searchSlots(), reads: readSlots(), onDispose: () => undefined });
  } finally {
    streams.dispose();
  }
  const routes = new Map<string, Route>(ROUTES.map((route) => [`${route.method} ${route.path}`, route]));
  for (const layer of router.stack) {
    if (typeof layer.path !== 'string') continue;
    for (const method of layer.methods) {
      if (method !== 'GET' && method !== 'POST') continue;
      const key = `${method} ${layer.path}`;
      if (!routes.has(key)) routes.set(key, { method, path: layer.path, writes: method === 'POST', body: method === 'POST' });
    }
  }
  for (const key of LONG_LIVED) routes.delete(key);
  return { routes: [...routes.values()], streams: [...new Set([...STREAMS, ...streams.patterns])] };
}

/**
 * Routes whose answer to any GET is a stream that stays open until the client leaves (MCP's legacy
 * SSE transport): a generated request would wait on it forever. Their guards and bounds are
 * test/server/piecesMcp.test.ts's and sseBounds.test.ts's.
 */
const LONG_LIVED = new Set(['GET /model_context_protocol/2024-11-05/sse']);
