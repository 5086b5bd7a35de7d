import { empty, input, json, jsonStream, param, transferables } from '../http.ts';
import { registerSharedStream } from '../sharedFrames.ts';
import { jsonValueReply } from '../jsonEncode.ts';
import type { ChangeEvent } from '../../core/events.ts';
import { route, type RouteModule } from './deps.ts';
import { conversationOperations as op } from '../../wire/conversations.ts';
import { writeOptions } from '../writeOptions.ts';
import { conversationAssociationRoutes } from './conversationAssociations.ts';
import { conversationMessageRoutes } from './conversationMessages.ts';
import { conversationRecordRoutes } from './conversationRecords.ts';

/** Routes of the conversations area (see ../shared/reference/interface.md §4.5). */
export const conversationsRoutes: RouteModule = (router, deps) => {
  const { core, streams } = deps;
  const conversations = core.conversations;

  // Conversations are sent a page of messages at a time: one may hold hundreds of megabytes.
  route(router, op.list, (ctx) => jsonStream(ctx, jsonValueReply(conversations.reads.snapshot(transferables(ctx)))));
  route(router, op.create, (ctx) => {
    jsonStream(ctx, jsonValueReply(conversations.create(input(ctx, op.create), transferables(ctx), writeOptions(ctx))));
  });
  route(router, op.identifiers, (ctx) => json(ctx, conversations.identifiers()));
  const identifierFrames = registerSharedStream(
    streams,
    op.streamIdentifiers.path,
    {
      initial: () => conversations.streamedIdentifiers(),
      change: (change: ChangeEvent) =>
        change.kind === 'conversation' ? { iterable: [{ conversation: { id: change.id }, ...(change.deleted ? { deleted: true } : {}) }] } : undefined,
    },
    core.context.onDidChange,
  );
  route(router, op.streamIdentifiers, (ctx) => jsonStream(ctx, identifierFrames.connect()));
  route(router, op.delete, (ctx) => {
    conversations.delete(param(ctx, 'conversation'), writeOptions(ctx));
    empty(ctx);
  });

  route(router, op.update, (ctx) => {
    jsonStream(ctx, jsonValueReply(conversations.update(input(ctx, op.update), transferables(ctx))));
  });
  route(router, op.get, (ctx) => jsonStream(ctx, jsonValueReply(conversations.reads.streamed(param(ctx, 'conversation'), transferables(ctx)))));
  route(router, op.messages, (ctx) =>
    jsonStream(ctx, jsonValueReply(conversations.reads.messagesOf(param(ctx, 'conversation'), transferables(ctx)))),
  );
  route(router, op.rename, async (ctx) => {
    jsonStream(ctx, jsonValueReply(await conversations.rename(param(ctx, 'conversation'), transferables(ctx))));
  });
  route(router, op.summarize, async (ctx) => {
    const ids = input(ctx, op.summarize)?.messages?.iterable.map((message) => message.id);
    json(ctx, await conversations.summarize(param(ctx, 'conversation'), ids));
  });
  route(router, op.incrementScores, (ctx) => {
    const increment = input(ctx, op.incrementScores);
    conversations.incrementScores(param(ctx, 'conversation'), increment?.conversation ?? increment?.conversations);
    empty(ctx);
  });

  conversationAssociationRoutes(router, deps);
  conversationMessageRoutes(router, deps);
  conversationRecordRoutes(router, deps);
};
