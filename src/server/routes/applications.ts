import type { Context } from 'koa';
import { route, type RouteModule } from './deps.ts';
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

  route(router, op.list, (ctx) => json(ctx, applications.snapshot()));
  route(router, op.external, (ctx) => json(ctx, applications.external()));
  route(router, op.externalRelated, (ctx) => json(ctx, applications.related()));
  const identifierFrames = registerSharedStream(
    streams,
    op.streamIdentifiers.path,
    {
      initial: identifiers,
      change: (change: ChangeEvent) =>
        change.kind === 'application' ? { iterable: [{ application: { id: change.id }, ...(change.deleted ? { deleted: true } : {}) }] } : undefined,
    },
    core.context.onDidChange,
  );
  route(router, op.streamIdentifiers, (ctx) => jsonStream(ctx, identifierFrames.connect()));

  route(router, op.register, (ctx) => json(ctx, applications.register(input(ctx, op.register))));

  route(router, op.openSession, (ctx) => json(ctx, applications.openSession(caller(ctx))));
  route(router, op.closeSession, (ctx) => {
    json(ctx, applications.closeSession(input(ctx, op.closeSession)));
  });
  route(router, op.session, (ctx) => json(ctx, applications.session(param(ctx, 'session'))));

  route(router, op.interaction, (ctx) => {
    json(ctx, applications.recordUsage('interaction', input(ctx, op.interaction) ?? {}, caller(ctx)));
  });
  route(router, op.keyboard, (ctx) => {
    json(ctx, applications.recordUsage('keyboard', input(ctx, op.keyboard) ?? {}, caller(ctx)));
  });
  route(router, op.installation, (ctx) => {
    applications.recordInstallation(input(ctx, op.installation) ?? {});
    empty(ctx);
  });
  route(router, op.updated, (ctx) => {
    applications.recordUpdate(input(ctx, op.updated) ?? {});
    empty(ctx);
  });

  route(router, op.specific, (ctx) => json(ctx, applications.specific(param(ctx, 'application'))));

  route(router, op.update, (ctx) => json(ctx, applications.update(input(ctx, op.update))));
};
