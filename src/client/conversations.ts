/** Conversations and their messages, for the Conversations view. */
import type {
  Annotation,
  Conversation,
  ConversationMessage,
  ConversationMessages,
  Conversations,
  ConversationSummarizeOutput,
  SeededConversation,
} from '../core/wire.ts';
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

  create(seed: Partial<SeededConversation> = {}): Promise<Conversation> {
    return this.http.json('POST', '/conversations/create', { body: { type: 'COPILOT', ...seed } });
  }

  addMessage(conversation: string, role: 'USER' | 'ASSISTANT' | 'SYSTEM', text: string): Promise<ConversationMessage> {
    return this.http.json('POST', '/messages/create', {
      query: { transferables: true },
      body: { role, conversation: { id: conversation }, fragment: { string: { raw: text } } },
    });
  }

  /** The server picks a title from the messages (a model when one is loaded, else an offline method). */
  rename(id: string): Promise<Conversation> {
    return this.http.json('POST', `/conversation/${seg(id)}/rename`, { query: { transferables: false } });
  }

  summarize(id: string): Promise<ConversationSummarizeOutput> {
    return this.http.json('POST', `/conversation/${seg(id)}/summarize`, { body: {} });
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
