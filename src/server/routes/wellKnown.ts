import { text } from '../http.ts';
import type { RouteModule } from './deps.ts';
import { PIECES_OS_VERSION, SATCHEL_VERSION } from '../version.ts';

/** Health and version checks that clients make before anything else. */
export const wellKnownRoutes: RouteModule = (router, { streams }) => {
  router.get('/.well-known/health', (ctx) => text(ctx, 'ok'));
  router.get('/.well-known/version', (ctx) => {
    ctx.set('x-satchel-version', SATCHEL_VERSION);
    text(ctx, PIECES_OS_VERSION);
  });
  streams.register('/.well-known/stream/health', (subscriber) => {
    subscriber.send('ok');
  });
};
