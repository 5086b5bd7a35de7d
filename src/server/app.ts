/**
 * The Koa application: guards, body parsing, the error path and every area's routes. Built apart
 * from listening, so tests drive it on port 0 and the CLI and the extension share it.
 */
import Koa from 'koa';
import Router from '@koa/router';
import type { Satchel } from '../core/satchel.ts';
import type { Logger } from '../core/context.ts';
import { errorMiddleware, isClientGone } from './errors.ts';
import { extraHosts, guard } from './guard.ts';
import { bodyParser } from './body.ts';
import { operationName } from './checkedBodies.ts';
import { readImportBody } from './importBody.ts';
import { importOperations } from '../wire/imports.ts';
import { checkBooleanQueries } from './http.ts';
import { StreamRegistry, type StreamOptions } from './streams.ts';
import { readSlots, searchSlots } from './searchSlots.ts';
import { operationServed, type RouteModule } from './routes/deps.ts';
import { wellKnownRoutes } from './routes/wellKnown.ts';
import { assetsRoutes } from './routes/assets.ts';
import { applicationsRoutes } from './routes/applications.ts';
import { conversationsRoutes } from './routes/conversations.ts';
import { modelsRoutes } from './routes/models.ts';
import { connectorRoutes } from './routes/connector.ts';
import { userRoutes } from './routes/user.ts';
import { qgptRoutes } from './routes/qgpt.ts';
import { mcpRefusals, mcpRoutes } from './mcp/mcpRoute.ts';
import { importRoutes } from './routes/imports.ts';
import { snippetRoutes } from './routes/snippets.ts';
import { historyRoutes } from './routes/history.ts';
import { backupRoutes } from './routes/backups.ts';
import { syncRoutes } from './routes/sync.ts';
import { agentChangeRoutes } from './routes/agentChanges.ts';
import { trashRoutes } from './routes/trash.ts';
import { secretRoutes } from './routes/secrets.ts';
import { memoryRoutes } from './routes/memories.ts';

export interface AppOptions {
  readonly logger: Logger;
  readonly bodyLimit?: number;
  /** What all request bodies being read or handled may hold at once (default 256 MiB). */
  readonly bodyInFlight?: number;
  readonly streams?: StreamOptions;
  /** Host names answered besides loopback ones (e.g. host.docker.internal); see guard.ts. */
  readonly allowedHosts?: readonly string[];
  /** Told of a large request body's bytes before they are allocated (body.ts, BodyOptions.beforeLargeBody). */
  readonly beforeLargeBody?: (bytes: number) => void;
}

export interface SatchelApp {
  readonly koa: Koa;
  readonly streams: StreamRegistry;
  /** Stops the app's own workers (the JSON parser); the server calls it on close. */
  dispose(): void;
}

// Order matters: the connector's `/:application/<verb>` routes would capture other two-segment
// POST paths, so they come last.
export const routeModules: readonly RouteModule[] = [
  wellKnownRoutes,
  assetsRoutes,
  applicationsRoutes,
  conversationsRoutes,
  modelsRoutes,
  userRoutes,
  qgptRoutes,
  mcpRoutes,
  importRoutes,
  snippetRoutes,
  historyRoutes,
  backupRoutes,
  syncRoutes,
  agentChangeRoutes,
  trashRoutes,
  secretRoutes,
  memoryRoutes,
  connectorRoutes,
];

export function createApp(core: Satchel, options: AppOptions): SatchelApp {
  const koa = new Koa({ proxy: false });
  const hosts = extraHosts(options.allowedHosts);
  const streams = new StreamRegistry(options.logger, { ...options.streams, extraHosts: hosts });
  const router = new Router({ strict: false });
  const searches = searchSlots();
  const reads = readSlots();
  const disposals: Array<() => void> = [];
  const onDispose = (dispose: () => void): void => void disposals.push(dispose);
  for (const register of routeModules) register(router, { core, streams, searches, reads, onDispose });

  koa.silent = true;
  koa.on('error', (error: unknown) => {
    // A client that left mid-reply (a cancelled import's NDJSON) is not the host's failure.
    if (!isClientGone(error)) options.logger.error('unhandled koa error', error);
  });
  koa.use(errorMiddleware(options.logger));
  koa.use(guard(hosts));
  koa.use(async (ctx, next) => {
    // The client concatenates basePath unchanged, so `http://host:1/` produces `//models`.
    if (ctx.path.includes('//')) ctx.path = ctx.path.replace(/\/{2,}/g, '/');
    await next();
  });
  const bodies = bodyParser({
    ...(options.bodyLimit !== undefined ? { limit: options.bodyLimit } : {}),
    ...(options.bodyInFlight !== undefined ? { inFlight: options.bodyInFlight } : {}),
    ...(options.beforeLargeBody !== undefined ? { beforeLargeBody: options.beforeLargeBody } : {}),
    operationOf: (ctx) => operationServed(router, ctx.method, ctx.path),
    // An import's files stay bytes until the import process decodes them (importBody.ts).
    readers: new Map([[operationName(importOperations.import)!, readImportBody]]),
  });
  koa.use(mcpRefusals);
  koa.use(bodies.middleware);
  koa.use(checkBooleanQueries);
  koa.use(router.routes());
  koa.use(router.allowedMethods({ throw: false }));
  return {
    koa,
    streams,
    dispose: () => {
      for (const dispose of disposals) dispose();
      bodies.dispose();
    },
  };
}
