import type { Context } from 'koa';
import type { RouteModule } from './deps.ts';
import { body, empty, json, jsonStream, param } from '../http.ts';
import { registerSharedStream } from '../sharedFrames.ts';
import type { ChangeEvent } from '../../core/events.ts';
import type { Application } from '../../core/wire.ts';
import type { SeededTrackedApplication } from '../../core/applications/applicationService.ts';
import * as schema from '../../wire/connector.ts';

/** The application a deprecated tracking call comes from, when the client configured its id. */
function caller(ctx: Context): string | undefined {
  return ctx.get('x-application-id') || undefined;
}

/** Routes of the applications area (see ../shared/reference/interface.md §4.3), deprecated ones included. */
export const applicationsRoutes: RouteModule = (router, { core, streams }) => {
  const applications = core.applications;
  const identifiers = () => ({ iterable: applications.identifiers().map((id) => ({ application: { id } })) });

  router.get('/applications', (ctx) => json(ctx, applications.snapshot()));
  router.get('/applications/external', (ctx) => json(ctx, applications.external()));
  router.get('/applications/external/related', (ctx) => json(ctx, applications.related()));
  const identifierFrames = registerSharedStream(
    streams,
    '/applications/stream/identifiers',
    {
      initial: identifiers,
      change: (change: ChangeEvent) =>
        change.kind === 'application' ? { iterable: [{ application: { id: change.id }, ...(change.deleted ? { deleted: true } : {}) }] } : undefined,
    },
    core.context.onDidChange,
  );
  router.get('/applications/stream/identifiers', (ctx) => jsonStream(ctx, identifierFrames.connect()));

  router.post('/applications/register', (ctx) => {
    const input = body(ctx, schema.application, 'Application') as Partial<Application> & SeededTrackedApplication;
    json(ctx, applications.register(input));
  });

  router.post('/applications/session/open', (ctx) => json(ctx, applications.openSession(caller(ctx))));
  router.post('/applications/session/close', (ctx) => {
    json(ctx, applications.closeSession(body(ctx, schema.sessionId, 'session id (a bare JSON string)')));
  });
  router.get('/applications/sessions/:session', (ctx) => json(ctx, applications.session(param(ctx, 'session'))));

  router.post('/applications/usage/engagement/interaction', (ctx) => {
    json(ctx, applications.recordUsage('interaction', body(ctx, schema.interactionEvent, 'SeededTrackedInteractionEvent') ?? {}, caller(ctx)));
  });
  router.post('/applications/usage/engagement/keyboard', (ctx) => {
    json(ctx, applications.recordUsage('keyboard', body(ctx, schema.keyboardEvent, 'SeededTrackedKeyboardEvent') ?? {}, caller(ctx)));
  });
  router.post('/applications/usage/installation', (ctx) => {
    applications.recordInstallation(body(ctx, schema.installation, 'TrackedApplicationInstall') ?? {});
    empty(ctx);
  });
  router.post('/applications/usage/updated', (ctx) => {
    applications.recordUpdate(body(ctx, schema.updateEvent, 'TrackedApplicationUpdate') ?? {});
    empty(ctx);
  });

  router.get('/applications/:application', (ctx) => json(ctx, applications.specific(param(ctx, 'application'))));

  router.post('/application/update', (ctx) => {
    json(ctx, applications.update(body(ctx, schema.applicationUpdate, 'Application') as unknown as Application));
  });
};
