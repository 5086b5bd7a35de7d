import { empty, input, json, jsonStream, param, transferables } from '../http.ts';
import { jsonValueReply } from '../jsonEncode.ts';
import type { RouteModule } from './deps.ts';
import { conversationOperations as op } from '../../wire/conversations.ts';

/** Conversation messages: create, snapshot (all, or one) and delete. */
export const conversationMessageRoutes: RouteModule = (router, { core }) => {
  const conversations = core.conversations;
  router.get('/messages', (ctx) => jsonStream(ctx, jsonValueReply(conversations.reads.allMessages(transferables(ctx)))));
  router.post(op.createMessage.path, (ctx) => {
    const { conversation, ...seed } = input(ctx, op.createMessage);
    json(ctx, conversations.createMessage(conversation.id, seed, transferables(ctx)));
  });
  router.post('/messages/:message/delete', (ctx) => {
    conversations.deleteMessage(param(ctx, 'message'));
    empty(ctx);
  });
  router.get('/message/:message', (ctx) =>
    json(ctx, conversations.message(param(ctx, 'message'), transferables(ctx))),
  );
};
