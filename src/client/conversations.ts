/** Conversations and their messages, for the Conversations view. */
import type {
  Annotation,
  Conversation,
  ConversationMessage,
  ConversationMessages,
  Conversations,
  ConversationSummarizeOutput,
} from '../core/piecesTypes.ts';
import type { BodyIn } from '../wire/operation.ts';
import { conversationOperations as op } from '../wire/conversations.ts';
import type { HttpTransport } from './http.ts';

export class ConversationsClient {
  private readonly http: HttpTransport;

  constructor(http: HttpTransport) {
    this.http = http;
  }

  list(): Promise<Conversations> {
    return this.http.call(op.list, { query: { transferables: false } });
  }

  get(id: string): Promise<Conversation> {
    return this.http.call(op.get, { params: { conversation: id }, query: { transferables: false } });
  }

  messages(id: string): Promise<ConversationMessages> {
    return this.http.call(op.messages, { params: { conversation: id }, query: { transferables: true } });
  }

  create(seed: Partial<BodyIn<typeof op.create>> = {}): Promise<Conversation> {
    return this.http.call(op.create, { body: { type: 'COPILOT', ...seed } });
  }

  addMessage(conversation: string, role: 'USER' | 'ASSISTANT' | 'SYSTEM', text: string): Promise<ConversationMessage> {
    return this.http.call(op.createMessage, { query: { transferables: true }, body: { role, conversation: { id: conversation }, fragment: { string: { raw: text } } } });
  }

  /** The server picks a title from the messages (a model when one is loaded, else an offline method). */
  rename(id: string): Promise<Conversation> {
    return this.http.call(op.rename, { params: { conversation: id }, query: { transferables: false } });
  }

  summarize(id: string): Promise<ConversationSummarizeOutput> {
    return this.http.call(op.summarize, { params: { conversation: id }, body: {} });
  }

  annotation(id: string): Promise<Annotation> {
    return this.http.call(op.annotation, { params: { annotation: id } });
  }

  associateAsset(conversation: string, asset: string): Promise<void> {
    return this.http.call(op.associateAsset, { params: { conversation, asset } });
  }

  delete(id: string): Promise<void> {
    return this.http.call(op.delete, { params: { conversation: id } });
  }
}
