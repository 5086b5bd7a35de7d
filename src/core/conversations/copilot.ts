/**
 * Questions asked through `/qgpt/stream` (the Pieces CLI's `ask`, the Python SDK's copilot): the
 * question and the answer are stored as messages of a conversation, and the answer comes from the
 * loaded local text model. With no model loaded, the reply says so plainly instead of inventing an
 * answer; the question is kept either way.
 */
import type { Logger } from '../context.ts';
import { silentLogger } from '../context.ts';
import { InvalidInputError } from '../errors.ts';
import { checkLimit } from '../limits.ts';
import type { TextGenerator } from '../models/textGenerator.ts';
import type { ConversationService } from './conversationService.ts';

export interface Question {
  readonly query: string;
  /** The conversation to continue; a new one is made when absent. */
  readonly conversation?: string;
  /** Assets the asker attached as context (their text goes into the prompt). */
  readonly assets?: readonly string[];
  /** Snippet texts the asker sent along (seeds), after the attached assets in the prompt. */
  readonly snippets?: readonly string[];
  /** The model the asker named; one that cannot chat is refused before anything is stored. */
  readonly model?: string;
  readonly signal?: AbortSignal;
}

export interface Answer {
  readonly conversation: string;
  readonly text: string;
  /** Whether a model wrote `text` (false: the no-model notice). */
  readonly generated: boolean;
}

export const NO_MODEL_NOTICE =
  'No local model is loaded in Satchel, so there is nothing to answer this question with. ' +
  'Download and load a text model (the Models view in VS Code, or `POST /model/{id}/download` then `POST /model/{id}/load`), ' +
  'then ask again. Your question was saved in the conversation.';

export interface CopilotOptions {
  readonly maxTokens: number;
  readonly timeoutMs: number;
  /** Characters of attached assets and earlier messages given to the model: the assets first, then the newest messages. */
  readonly contextChars: number;
}

const defaults: CopilotOptions = { maxTokens: 1024, timeoutMs: 180_000, contextChars: 12_000 };

export class Copilot {
  private readonly conversations: ConversationService;
  /** The text model for a question naming `model` (throws for one that cannot chat); undefined with none loaded. */
  private readonly generator: (model?: string) => TextGenerator | undefined;
  private readonly assetText: (id: string) => string | undefined;
  private readonly options: CopilotOptions;
  private readonly logger: Logger;

  constructor(
    conversations: ConversationService,
    generator: (model?: string) => TextGenerator | undefined,
    assetText: (id: string) => string | undefined,
    options: Partial<CopilotOptions> = {},
    logger: Logger = silentLogger,
  ) {
    this.conversations = conversations;
    this.generator = generator;
    this.assetText = assetText;
    this.options = { ...defaults, ...options };
    this.logger = logger;
  }

  /** Stores the question, answers it (or says no model is loaded), stores the answer. */
  async ask(question: Question): Promise<Answer> {
    const query = question.query.trim();
    if (query === '') throw new InvalidInputError('The question (relevance.query or question.query) is empty');
    // Before a conversation is made for it: a question is stored as a message.
    checkLimit('messageChars', query.length);
    const generator = this.generator(question.model);
    const conversation = question.conversation ?? this.conversations.create({ type: 'COPILOT', name: titleOf(query) }, false).id;
    // The prompt holds at most `contextChars` of the conversation: only that much of its newest
    // messages is read, and nothing without a model to read it.
    const history = generator ? this.conversations.reads.recentTexts(conversation, this.options.contextChars) : [];
    this.conversations.createMessage(conversation, { role: 'USER', fragment: { string: { raw: query } } }, false);
    if (!generator) return { conversation, text: NO_MODEL_NOTICE, generated: false };

    const attached = (question.assets ?? []).map((id) => this.assetText(id));
    const prompt = this.prompt(query, history, [...attached, ...(question.snippets ?? [])]);
    const text = (await this.generate(generator, prompt, question.signal)).trim();
    this.conversations.createMessage(conversation, { role: 'ASSISTANT', fragment: { string: { raw: text } } }, false);
    return { conversation, text, generated: true };
  }

  private async generate(generator: TextGenerator, prompt: string, signal: AbortSignal | undefined): Promise<string> {
    const abort = new AbortController();
    const stop = () => abort.abort();
    signal?.addEventListener('abort', stop, { once: true });
    const timer = setTimeout(stop, this.options.timeoutMs);
    try {
      return await generator.generate(prompt, { maxTokens: this.options.maxTokens, timeoutMs: this.options.timeoutMs, signal: abort.signal });
    } catch (error) {
      this.logger.warn(`Answering a question failed: ${(error as Error).message}`);
      throw error;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', stop);
    }
  }

  private prompt(query: string, history: ReadonlyArray<{ role: string; text: string }>, texts: ReadonlyArray<string | undefined>): string {
    // The snippets the asker attached come first (each cut to what is left of the budget), then
    // the conversation from its newest message back, as far as the budget goes.
    let left = this.options.contextChars;
    const snippets: string[] = [];
    for (const text of texts) {
      if (!text || left <= 0) continue;
      const part = `Snippet:\n${text.slice(0, left)}`;
      snippets.push(part);
      left -= part.length;
    }
    const messages: string[] = [];
    const earlier = history.filter((m) => m.text.trim() !== '').map((m) => `${m.role.toLowerCase()}: ${m.text.trim()}`);
    for (let i = earlier.length - 1; i >= 0 && earlier[i]!.length <= left; i--) {
      messages.unshift(earlier[i]!);
      left -= earlier[i]!.length;
    }
    return [
      'You are a helpful assistant for a software developer. Answer the question clearly and concisely; use Markdown code blocks for code.',
      ...(snippets.length ? ['', ...snippets] : []),
      ...(messages.length ? ['', 'Conversation so far:', ...messages] : []),
      '',
      `user: ${query}`,
      'assistant:',
    ].join('\n');
  }
}

/** A new conversation is named after its first question until renamed. */
function titleOf(query: string): string {
  const words = query.replace(/\s+/g, ' ').trim().split(' ');
  const title = words.slice(0, 8).join(' ');
  return title.length > 80 ? `${title.slice(0, 79)}…` : title;
}
