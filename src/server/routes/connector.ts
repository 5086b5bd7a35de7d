import type { Context, Next } from 'koa';
import { route, type RouteModule } from './deps.ts';
import { input, json, jsonStream, param, text } from '../http.ts';
import { jsonValueReply } from '../jsonEncode.ts';
import { PIECES_OS_VERSION } from '../version.ts';
import { NotFoundError } from '../../core/errors.ts';
import { checkSaved } from '../../core/connector/savedCheck.ts';
import { connectorOperations as op } from '../../wire/connector.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * First path segments of other operations of the interface. `/:application/<verb>` must never
 * answer for them (a path like `/models/track` is simply not an operation), while any other
 * unknown first segment is reported as the unknown application it is meant to be.
 */
const RESERVED = new Set([
  '.well-known', 'activities', 'activity', 'anchor', 'anchors', 'annotation', 'annotations', 'application',
  'applications', 'asset', 'assets', 'backup', 'backups', 'connect', 'conversation', 'conversations', 'format',
  'formats', 'hint', 'hints', 'message', 'messages', 'model', 'models', 'os', 'person', 'persons', 'qgpt', 'range',
  'ranges', 'search', 'sensitive', 'sensitives', 'share', 'shares', 'tag', 'tags', 'user', 'users', 'website',
  'websites', 'workstream_summaries', 'workstream_summary', 'workstream_pattern_engine', 'model_context_protocol',
]);

/** Routes of the connector area (see ../shared/reference/interface.md §4.4). Registered last. */
export const connectorRoutes: RouteModule = (router, { core }) => {
  const connector = core.connector;

  /** Lets `/:application/<verb>` handle only what can be an application id. */
  async function applicationSegment(ctx: Context & { params?: Record<string, string> }, next: Next): Promise<void> {
    const id = ctx.params?.application ?? '';
    if (UUID.test(id) || core.applications.exists(id)) return next();
    if (RESERVED.has(id.toLowerCase())) return; // not ours: falls through to the route-not-found 404
    throw new NotFoundError('application', id);
  }

  // The reply carries the local user (GET /user always has one): clients such as the Pieces example
  // app read `user` from it to show who is signed in, and say "Please Login" without it.
  route(router, op.connect, (ctx) => json(ctx, { ...connector.connect(input(ctx, op.connect), PIECES_OS_VERSION), user: core.user.profile() }));

  route(router, op.saved, (ctx) => json(ctx, checkSaved(connector, core.assets, input(ctx, op.saved).text)));

  route(router, op.suggestion, applicationSegment, async (ctx) => {
    // Streamed: the reply echoes the copy (target.seed), which may be tens of MB. A copy holding a secret is never suggested for saving.
    jsonStream(ctx, jsonValueReply(await connector.suggestGuarded(param(ctx, 'application'), input(ctx, op.suggestion))));
  });

  route(router, op.reaction, applicationSegment, async (ctx) => {
    text(ctx, await connector.react(param(ctx, 'application'), input(ctx, op.reaction)));
  });

  route(router, op.intention, applicationSegment, async (ctx) => {
    text(ctx, await connector.intention(param(ctx, 'application'), input(ctx, op.intention)));
  });

  route(router, op.track, applicationSegment, (ctx) => {
    text(ctx, connector.track(param(ctx, 'application'), input(ctx, op.track)));
  });

  route(router, op.onboarded, applicationSegment, (ctx) => {
    text(ctx, connector.onboarded(param(ctx, 'application'), input(ctx, op.onboarded)));
  });
};
