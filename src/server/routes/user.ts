/**
 * The local user (GET /user and its stream) and clear answers to the cloud-account operations real
 * clients offer (sign in, sign out, cloud allocation): Satchel is local only.
 */
import { json } from '../http.ts';
import { route, type RouteModule } from './deps.ts';
import { hostOperations as op, hostSockets } from '../../wire/host.ts';
import type { Operation } from '../../wire/operation.ts';
import { LocalUser } from '../../core/user/localUser.ts';
import type { ReturnedUserProfile } from '../../core/piecesTypes.ts';

const CLOUD_ONLY: ReadonlyArray<readonly [Operation, string]> = [
  [op.signIn, 'Signing in'],
  [op.signOut, 'Signing out'],
  [op.refreshUser, 'Refreshing the signed-in user'],
  [op.connectAllocation, 'Connecting a cloud allocation'],
  [op.disconnectAllocation, 'Disconnecting a cloud allocation'],
];

export const userRoutes: RouteModule = (router, { core, streams }) => {
  route(router, op.user, (ctx) => json(ctx, { user: core.user.profile() } satisfies ReturnedUserProfile));
  streams.register(hostSockets.user.path, (subscriber) => {
    subscriber.send(core.user.profile());
    return core.context.onDidChange((change) => {
      if (change.kind === 'user') subscriber.send(core.user.profile());
    });
  });
  for (const [cloudOnly, what] of CLOUD_ONLY) {
    route(router, cloudOnly, () => {
      throw LocalUser.cloudOnly(what);
    });
  }

  // The long-term-memory (workstream pattern engine) vision processor does not exist here: its
  // status says it is not activated, and its stream only tells clients so when they connect.
  const visionStatus = () => ({ vision: {} });
  route(router, op.visionStatus, (ctx) => json(ctx, visionStatus()));
  streams.register(hostSockets.visionStatus.path, (subscriber) => {
    subscriber.send(visionStatus());
  });
};
