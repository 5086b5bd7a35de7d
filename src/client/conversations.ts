/** Conversations and their messages, for the Conversations view. */
import type {
  Annotation,
  Conversation,
  ConversationMessage,
  ConversationMessages,
  Conversations,
  ConversationSummarizeOutput,
} from '../core/wire.ts';
import { pathOf, type BodyIn } from '../wire/operation.ts';
import { conversationOperations as op } from '../wire/conversations.ts';
import { seg, type HttpTransport } from './http.ts';

export class ConversationsClient {
  private readonly http: HttpTransport;

  constructor(http: HttpTransport) {
    this.http = http;
  }

  list(): Promise<Conversations> {
    return this.http.json('GET', '/conversations', { query: { transferables: false } });
  }

  get(id: string): Promise<Conversation> {
    return this.http.json('GET', `/conversation/${seg(id)}`, { query: { transferables: false } });
  }

  messages(id: string): Promise<ConversationMessages> {
    return this.http.json('GET', `/conversation/${seg(id)}/messages`, { query: { transferables: true } });
  }

  create(seed: Partial<BodyIn<typeof op.create>> = {}): Promise<Conversation> {
    const body: BodyIn<typeof op.create> = { type: 'COPILOT', ...seed };
    return this.http.json(op.create.method, pathOf(op.create), { body });
  }

  addMessage(conversation: string, role: 'USER' | 'ASSISTANT' | 'SYSTEM', text: string): Promise<ConversationMessage> {
    const body: BodyIn<typeof op.createMessage> = { role, conversation: { id: conversation }, fragment: { string: { raw: text } } };
    return this.http.json(op.createMessage.method, pathOf(op.createMessage), { query: { transferables: true }, body });
  }

  /** The server picks a title from the messages (a model when one is loaded, else an offline method). */
  rename(id: string): Promise<Conversation> {
    return this.http.json('POST', `/conversation/${seg(id)}/rename`, { query: { transferables: false } });
  }

  summarize(id: string): Promise<ConversationSummarizeOutput> {
    const body: BodyIn<typeof op.summarize> = {};
    return this.http.json(op.summarize.method, pathOf(op.summarize, { conversation: id }), { body });
  }

  annotation(id: string): Promise<Annotation> {
    return this.http.json('GET', `/annotation/${seg(id)}`);
  }

  associateAsset(conversation: string, asset: string): Promise<void> {
    return this.http.void('POST', `/conversation/${seg(conversation)}/assets/associate/${seg(asset)}`);
  }

  delete(id: string): Promise<void> {
    return this.http.void('POST', `/conversations/${seg(id)}/delete`);
  }
}
