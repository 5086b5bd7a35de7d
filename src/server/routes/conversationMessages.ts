import { empty, input, json, jsonStream, param, transferables } from '../http.ts';
import { jsonValueReply } from '../jsonEncode.ts';
import { route, type RouteModule } from './deps.ts';
import { conversationOperations as op } from '../../wire/conversations.ts';

/** Conversation messages: create, snapshot (all, or one) and delete. */
export const conversationMessageRoutes: RouteModule = (router, { core }) => {
  const conversations = core.conversations;
  route(router, op.allMessages, (ctx) => jsonStream(ctx, jsonValueReply(conversations.reads.allMessages(transferables(ctx)))));
  route(router, op.createMessage, (ctx) => {
    const { conversation, ...seed } = input(ctx, op.createMessage);
    json(ctx, conversations.createMessage(conversation.id, seed, transferables(ctx)));
  });
  route(router, op.deleteMessage, (ctx) => {
    conversations.deleteMessage(param(ctx, 'message'));
    empty(ctx);
  });
  route(router, op.message, (ctx) =>
    json(ctx, conversations.message(param(ctx, 'message'), transferables(ctx))),
  );
};
