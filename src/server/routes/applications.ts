import type { Context } from 'koa';
import type { RouteModule } from './deps.ts';
import { empty, input, json, jsonStream, param } from '../http.ts';
import { registerSharedStream } from '../sharedFrames.ts';
import type { ChangeEvent } from '../../core/events.ts';
import { applicationOperations as op } from '../../wire/connector.ts';

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

  router.post(op.register.path, (ctx) => json(ctx, applications.register(input(ctx, op.register))));

  router.post('/applications/session/open', (ctx) => json(ctx, applications.openSession(caller(ctx))));
  router.post(op.closeSession.path, (ctx) => {
    json(ctx, applications.closeSession(input(ctx, op.closeSession)));
  });
  router.get('/applications/sessions/:session', (ctx) => json(ctx, applications.session(param(ctx, 'session'))));

  router.post(op.interaction.path, (ctx) => {
    json(ctx, applications.recordUsage('interaction', input(ctx, op.interaction) ?? {}, caller(ctx)));
  });
  router.post(op.keyboard.path, (ctx) => {
    json(ctx, applications.recordUsage('keyboard', input(ctx, op.keyboard) ?? {}, caller(ctx)));
  });
  router.post(op.installation.path, (ctx) => {
    applications.recordInstallation(input(ctx, op.installation) ?? {});
    empty(ctx);
  });
  router.post(op.updated.path, (ctx) => {
    applications.recordUpdate(input(ctx, op.updated) ?? {});
    empty(ctx);
  });

  router.get('/applications/:application', (ctx) => json(ctx, applications.specific(param(ctx, 'application'))));

  router.post(op.update.path, (ctx) => json(ctx, applications.update(input(ctx, op.update))));
};
