import { body, empty, json, param, transferables } from '../http.ts';
import type { RouteModule } from './deps.ts';
import { seededMessage } from '../../wire/conversations.ts';

/** Conversation messages: create, snapshot (all, or one) and delete. */
export const conversationMessageRoutes: RouteModule = (router, { core }) => {
  const conversations = core.conversations;
  router.get('/messages', (ctx) => json(ctx, conversations.allMessages(transferables(ctx))));
  router.post('/messages/create', (ctx) => {
    const { conversation, ...seed } = body(ctx, seededMessage, 'SeededConversationMessage');
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
