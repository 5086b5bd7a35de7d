/** Stored conversation records → wire shapes, with associations read from links. */
import type { Links } from '../store/links.ts';
import type * as W from '../wire.ts';
import type { RecordKind } from '../events.ts';
import type { StoredMessage } from './messageStore.ts';
import { flattened, type StoredConversation } from './records.ts';

export function renderMessage(links: Links, message: StoredMessage, transferables: boolean): W.ConversationMessage {
  const end = { kind: 'message', id: message.id } as const;
  return {
    ...flattenedMessage(message, transferables),
    ...(message.sentiment ? { sentiment: message.sentiment as W.ConversationMessage['sentiment'] } : {}),
    ...(message.score ? { score: message.score } : {}),
    assets: flattened(links.partners(end, 'asset')),
    anchors: flattened(links.partners(end, 'anchor')),
    annotations: flattened(links.partners(end, 'annotation')),
    ranges: flattened(links.partners(end, 'range')),
    summaries: flattened(links.partners(end, 'workstream_summary')),
    websites: flattened(links.partners(end, 'website')),
  };
}

/** The ids of the records of a kind linked to the record being rendered, oldest link first. */
export type Partners = (kind: RecordKind) => readonly string[];

export function renderConversation(
  partnersOf: Partners,
  conversation: StoredConversation,
  messages: readonly StoredMessage[],
  transferables: boolean,
): W.Conversation {
  const messageIds = messages.map((message) => message.id);
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
    messages: {
      iterable: messages.map((message) => ({ id: message.id, reference: flattenedMessage(message, transferables) })),
      indices: Object.fromEntries(messageIds.map((id, index) => [id, index])),
    },
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
