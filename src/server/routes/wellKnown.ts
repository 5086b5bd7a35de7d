import { text } from '../http.ts';
import type { RouteModule } from './deps.ts';
import { SATCHEL_VERSION } from '../version.ts';

/** Health and version checks that clients make before anything else. */
export const wellKnownRoutes: RouteModule = (router, { streams }) => {
  router.get('/.well-known/health', (ctx) => text(ctx, 'ok'));
  router.get('/.well-known/version', (ctx) => text(ctx, SATCHEL_VERSION));
  streams.register('/.well-known/stream/health', (subscriber) => {
    subscriber.send('ok');
  });
};
