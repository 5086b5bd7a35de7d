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
import { agentName, agentView, findingFacts, foundOnlyBySecret, restoredEdit } from '../agentSecrets.ts';
import { hiddenWebsites } from '../../core/secrets/doorSecrets.ts';

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

  // An agent that writes a secret is told it was kept and flagged (issue 32).
  route(router, op.save, async (ctx) => {
    const body = input(ctx, op.save);
    const saved = await writes.save(body, agentAuthor(ctx));
    if (saved.revision !== undefined) sendRevision(ctx, saved.revision);
    const view = await agentView(core, { code: body.content, name: saved.saved?.name ?? saved.name }, saved.saved?.id);
    json(ctx, { ...saved, name: view.texts.name, ...(view.findings.length > 0 ? { secrets: findingFacts(view.findings) } : {}) });
  });
  route(router, op.update, async (ctx) => {
    const { expectedRevision, ...asked } = input(ctx, op.update);
    const asset = param(ctx, 'asset');
    const condition = agentWrite(ctx, expectedRevision);
    // The agent read the snippet with placeholders: where it writes one back, the stored value stays.
    const edit = await restoredEdit(core, asset, asked);
    const updated = writes.update(asset, edit, condition);
    if (updated.revision !== undefined) sendRevision(ctx, updated.revision);
    const view = await agentView(core, { code: edit.content ?? '', name: edit.name ?? '', description: edit.description }, asset);
    json(ctx, { ...updated, name: await agentName(core, updated.name, asset), ...(view.findings.length > 0 ? { secrets: findingFacts(view.findings) } : {}) });
  });
  route(router, op.view, async (ctx) => {
    const { items, query } = input(ctx, op.view);
    // A query that names a value found in some snippet finds nothing, whatever each item shows.
    const namesValue = query !== undefined && query.trim() !== '' && core.assets.secrets.holdsKnownValue(query);
    const views = [];
    for (const item of items) {
      const view = await agentView(core, { code: item.code, name: item.name ?? '', description: item.description }, item.asset);
      const secrets = core.doorSecrets();
      const websites = item.websites === undefined || secrets === undefined ? item.websites : await hiddenWebsites(item.websites, secrets);
      views.push({
        code: view.texts.code,
        name: view.texts.name,
        ...(view.texts.description !== undefined ? { description: view.texts.description } : {}),
        ...(websites !== undefined ? { websites } : {}),
        secrets: findingFacts(view.findings),
        foundOnlyBySecret: namesValue || (query !== undefined && query.trim() !== '' && foundOnlyBySecret(query, view, [])),
      });
    }
    json(ctx, { items: views });
  });
  route(router, op.delete, async (ctx) => {
    const asset = param(ctx, 'asset');
    const deleted = writes.delete(asset, agentWrite(ctx, input(ctx, op.delete)?.expectedRevision));
    json(ctx, { ...deleted, name: await agentName(core, deleted.name, asset) });
  });
};
