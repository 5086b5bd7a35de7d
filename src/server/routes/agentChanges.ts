/**
 * Satchel's agent routes (src/wire/agentChanges.ts): agents' changes listed, streamed, accepted and
 * reverted by the user, and the doors agents write through (thin over core.agentChanges and
 * core.agentWrites). A write through an agent door is an agent's whatever the caller names itself;
 * a review by an agent is refused by core.
 */
import type { Context } from 'koa';
import { route, type RouteModule } from './deps.ts';
import { input, json, jsonStream, param } from '../http.ts';
import { agentChangeOperations as op, type AgentChangeIdentifiers } from '../../wire/agentChanges.ts';
import { authorOf, isAgent, type Author } from '../../core/history/authors.ts';
import { InvalidInputError } from '../../core/errors.ts';
import type { ChangeEvent } from '../../core/events.ts';
import { registerSharedStream } from '../sharedFrames.ts';
import { requestAuthor, sendRevision, writeOptions } from '../writeOptions.ts';
import type { AgentWriteOptions } from '../../core/agents/agentWrites.ts';

/** The agent a write through an agent door is by: the caller's own name, as an agent's. */
function agentAuthor(ctx: Context): Author {
  const author = requestAuthor(ctx);
  return isAgent(author) ? author : authorOf('agent', author.name);
}

/** An agent's conditional write: the revision it read is required (the body's `expectedRevision` or If-Match). */
function agentWrite(ctx: Context, expected: string | undefined): AgentWriteOptions {
  const { expectedRevision } = writeOptions(ctx, { expected });
  if (expectedRevision === undefined) {
    throw new InvalidInputError('An agent changes or deletes a snippet only on the revision it last read: give expectedRevision (or If-Match)');
  }
  return { author: agentAuthor(ctx), expectedRevision };
}

function identifierChange(change: ChangeEvent): AgentChangeIdentifiers | undefined {
  if (change.kind !== 'agent_change') return undefined;
  return { changes: [{ id: change.id, ...(change.deleted ? { removed: true as const } : {}) }] };
}

export const agentChangeRoutes: RouteModule = (router, { core, streams }) => {
  const changes = core.agentChanges;
  const writes = core.agentWrites;

  route(router, op.list, (ctx) => json(ctx, changes.list()));
  const frames = registerSharedStream(
    streams,
    op.streamIdentifiers.path,
    { initial: (): AgentChangeIdentifiers => ({ changes: changes.ids().map((id) => ({ id })) }), change: identifierChange },
    core.context.onDidChange,
  );
  route(router, op.streamIdentifiers, (ctx) => jsonStream(ctx, frames.connect()));
  route(router, op.review, (ctx) => json(ctx, { reviewing: changes.setReviewing(input(ctx, op.review).reviewing, requestAuthor(ctx)) }));
  route(router, op.get, (ctx) => json(ctx, changes.get(param(ctx, 'change'))));
  route(router, op.accept, async (ctx) => json(ctx, await changes.accept(param(ctx, 'change'), requestAuthor(ctx))));
  route(router, op.acceptAll, async (ctx) => json(ctx, await changes.acceptAll(requestAuthor(ctx))));
  route(router, op.revert, (ctx) => json(ctx, changes.revert(param(ctx, 'change'), requestAuthor(ctx))));

  route(router, op.save, async (ctx) => {
    const saved = await writes.save(input(ctx, op.save), agentAuthor(ctx));
    if (saved.revision !== undefined) sendRevision(ctx, saved.revision);
    json(ctx, saved);
  });
  route(router, op.update, (ctx) => {
    const { expectedRevision, ...edit } = input(ctx, op.update);
    const updated = writes.update(param(ctx, 'asset'), edit, agentWrite(ctx, expectedRevision));
    if (updated.revision !== undefined) sendRevision(ctx, updated.revision);
    json(ctx, updated);
  });
  route(router, op.delete, (ctx) => json(ctx, writes.delete(param(ctx, 'asset'), agentWrite(ctx, input(ctx, op.delete)?.expectedRevision))));
};
