/**
 * The local user (GET /user and its stream) and clear answers to the cloud-account operations real
 * clients offer (sign in, sign out, cloud allocation): Satchel is local only.
 */
import { json } from '../http.ts';
import type { RouteModule } from './deps.ts';
import { LocalUser } from '../../core/user/localUser.ts';
import type { ReturnedUserProfile } from '../../core/wire.ts';

const CLOUD_ONLY: ReadonlyArray<readonly [string, string]> = [
  ['/os/sign_in', 'Signing in'],
  ['/os/sign_out', 'Signing out'],
  ['/user/refresh', 'Refreshing the signed-in user'],
  ['/allocations/connect', 'Connecting a cloud allocation'],
  ['/allocations/disconnect', 'Disconnecting a cloud allocation'],
];

export const userRoutes: RouteModule = (router, { core, streams }) => {
  router.get('/user', (ctx) => json(ctx, { user: core.user.profile() } satisfies ReturnedUserProfile));
  streams.register('/user/stream', (subscriber) => {
    subscriber.send(core.user.profile());
    return core.context.onDidChange((change) => {
      if (change.kind === 'user') subscriber.send(core.user.profile());
    });
  });
  for (const [path, what] of CLOUD_ONLY) {
    router.post(path, () => {
      throw LocalUser.cloudOnly(what);
    });
  }

  // The long-term-memory (workstream pattern engine) vision processor does not exist here: its
  // status says it is not activated, and its stream only tells clients so when they connect.
  const visionStatus = () => ({ vision: {} });
  router.get('/workstream_pattern_engine/processors/vision/status', (ctx) => json(ctx, visionStatus()));
  streams.register('/workstream_pattern_engine/processors/vision/status/stream', (subscriber) => {
    subscriber.send(visionStatus());
  });
};
