/** Stored conversations and messages rendered as wire shapes, with associations read from links (assets: assetRendering.ts). */
import type * as W from '../piecesTypes.ts';
import type { RecordKind } from '../events.ts';
import type { StoredMessage } from './messageStore.ts';
import { flattened, type StoredConversation } from './records.ts';

export function renderMessage(partnersOf: Partners, message: StoredMessage, transferables: boolean): W.ConversationMessage {
  return {
    ...flattenedMessage(message, transferables),
    ...(message.sentiment ? { sentiment: message.sentiment as W.ConversationMessage['sentiment'] } : {}),
    ...(message.score ? { score: message.score } : {}),
    assets: flattened(partnersOf('asset')),
    anchors: flattened(partnersOf('anchor')),
    annotations: flattened(partnersOf('annotation')),
    ranges: flattened(partnersOf('range')),
    summaries: flattened(partnersOf('workstream_summary')),
    websites: flattened(partnersOf('website')),
  };
}

/** The ids of the records of a kind linked to the record being rendered, oldest link first. */
export type Partners = (kind: RecordKind) => readonly string[];

/** One entry of a conversation's `messages`: the message's id and its flattened form. */
export type MessageEntry = W.Conversation['messages']['iterable'][number];

export function messageEntry(message: StoredMessage, transferables: boolean): MessageEntry {
  return { id: message.id, reference: flattenedMessage(message, transferables) };
}

/**
 * A Conversation with `messages` as given: a collection read whole, or one read a page at a time
 * as the reply is sent (a conversation may hold hundreds of megabytes of messages).
 */
export function renderConversation<M>(
  partnersOf: Partners,
  conversation: StoredConversation,
  messages: M,
): Omit<W.Conversation, 'messages'> & { messages: M } {
  return {
    id: conversation.id,
    ...(conversation.name !== undefined ? { name: conversation.name } : {}),
    created: conversation.created,
    updated: conversation.updated,
    type: conversation.type,
    ...(conversation.favorited !== undefined ? { favorited: conversation.favorited } : {}),
    ...(conversation.demo !== undefined ? { demo: conversation.demo } : {}),
    ...(conversation.model ? { model: conversation.model } : {}),
    score: conversation.score,
    messages,
    annotations: flattened(partnersOf('annotation')),
    assets: flattened(partnersOf('asset')),
    websites: flattened(partnersOf('website')),
    anchors: flattened(partnersOf('anchor')),
    summaries: flattened(partnersOf('workstream_summary')),
    grounding: {
      messages: flattened(partnersOf('message')),
      temporal: { workstreams: flattened(partnersOf('range')) },
    },
  };
}

function flattenedMessage(message: StoredMessage, transferables: boolean): W.FlattenedConversationMessage {
  return {
    id: message.id,
    created: message.created,
    updated: message.updated,
    conversation: { id: message.conversation },
    role: message.role,
    ...(transferables && message.fragment ? { fragment: message.fragment } : {}),
  };
}
