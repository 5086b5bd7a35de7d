import type { Context, Next } from 'koa';
import { z } from 'zod';
import type { RouteModule } from './deps.ts';
import { body, json, param, text } from '../http.ts';
import { PIECES_OS_VERSION } from '../version.ts';
import { NotFoundError } from '../../core/errors.ts';
import type { Reaction, SeededConnectorAsset, SeededConnectorConnection, SeededConnectorCreation, SeededConnectorTracking } from '../../core/wire.ts';
import * as schema from '../../wire/connector.ts';

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

  router.post('/connect', (ctx) => {
    const connection = body(ctx, schema.connectorConnection, 'SeededConnectorConnection') as unknown as SeededConnectorConnection;
    json(ctx, connector.connect(connection, PIECES_OS_VERSION));
  });

  router.post('/:application/suggestion', applicationSegment, (ctx) => {
    const creation = body(ctx, schema.connectorCreation, 'SeededConnectorCreation') as unknown as SeededConnectorCreation;
    json(ctx, connector.suggest(param(ctx, 'application'), creation));
  });

  router.post('/:application/reaction', applicationSegment, async (ctx) => {
    const reaction = body(ctx, schema.reaction, 'Reaction') as unknown as Reaction;
    text(ctx, await connector.react(param(ctx, 'application'), reaction));
  });

  router.post('/:application/intention', applicationSegment, async (ctx) => {
    const seeded = body(ctx, schema.connectorAsset, 'SeededConnectorAsset') as unknown as SeededConnectorAsset;
    text(ctx, await connector.intention(param(ctx, 'application'), seeded));
  });

  router.post('/:application/track', applicationSegment, (ctx) => {
    const tracking = body(ctx, schema.tracking, 'SeededConnectorTracking') as unknown as SeededConnectorTracking;
    text(ctx, connector.track(param(ctx, 'application'), tracking));
  });

  router.post('/:application/onboarded', applicationSegment, (ctx) => {
    const onboarded = body(ctx, z.boolean({ error: 'the body must be a bare JSON boolean (true or false)' }), 'onboarded flag');
    text(ctx, connector.onboarded(param(ctx, 'application'), onboarded));
  });
};
