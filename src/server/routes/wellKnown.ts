import { text } from '../http.ts';
import { route, type RouteModule } from './deps.ts';
import { hostOperations as op, hostSockets } from '../../wire/host.ts';
import { PIECES_OS_VERSION, SATCHEL_VERSION } from '../version.ts';

/** Health and version checks that clients make before anything else. */
export const wellKnownRoutes: RouteModule = (router, { streams }) => {
  route(router, op.health, (ctx) => text(ctx, 'ok'));
  route(router, op.version, (ctx) => {
    ctx.set('x-satchel-version', SATCHEL_VERSION);
    text(ctx, PIECES_OS_VERSION);
  });
  streams.register(hostSockets.health.path, (subscriber) => {
    subscriber.send('ok');
  });
};
