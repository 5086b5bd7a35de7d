/**
 * Writes conversation titles and summaries. With a loaded language model it asks for JSON that
 * matches a schema within a time limit; when there is no model, or the model fails, is slow or
 * answers junk, it falls back to the offline methods, so rename and summarize always work.
 */
import type { TextGenerator } from '../models/textGenerator.ts';
import type { Logger } from '../context.ts';
import { silentLogger } from '../context.ts';
import { MAX_TITLE_CHARS, ruleTitle, type TitleMessage } from './titles.ts';
import { extractiveSummary } from './summaries.ts';
import { contentWords, prose, trimEnd, trimStart, truncate } from './text.ts';

export interface WriterOptions {
  readonly titleTimeoutMs: number;
  readonly summaryTimeoutMs: number;
}

// models.md §7.5: a title takes about 2–3 s and a summary 15–20 s on two cores.
export const defaultWriterOptions: WriterOptions = { titleTimeoutMs: 15_000, summaryTimeoutMs: 45_000 };

export interface Written {
  readonly text: string;
  /** 'model' when the language model wrote it; otherwise the offline method's name. */
  readonly generator: 'model' | 'rule' | 'extractive';
}

const TRANSCRIPT_CHARS = 6_000;

const titleSchema = {
  type: 'object',
  properties: { title: { type: 'string', minLength: 3, maxLength: 60 } },
  required: ['title'],
} as const;

const summarySchema = {
  type: 'object',
  properties: { summary: { type: 'string', minLength: 20, maxLength: 1200 } },
  required: ['summary'],
} as const;

export class ConversationWriter {
  private readonly generator: () => TextGenerator | undefined;
  private readonly options: WriterOptions;
  private readonly logger: Logger;

  constructor(generator: () => TextGenerator | undefined, options: Partial<WriterOptions> = {}, logger: Logger = silentLogger) {
    this.generator = generator;
    this.options = { ...defaultWriterOptions, ...options };
    this.logger = logger;
  }

  async title(messages: readonly TitleMessage[]): Promise<Written> {
    const generated = await this.generate(
      messages,
      'Write a short, specific title (at most 8 words) for this developer conversation. ' +
        'Answer with JSON: {"title": "..."}.',
      titleSchema,
      120,
      this.options.titleTimeoutMs,
      (value) => acceptableTitle(value, messages),
    );
    return generated ? { text: generated, generator: 'model' } : { text: ruleTitle(messages), generator: 'rule' };
  }

  async summary(messages: readonly TitleMessage[]): Promise<Written> {
    const generated = await this.generate(
      messages,
      'Summarize this developer conversation in 2 to 4 sentences: the problem, the key points of the answer, ' +
        'and the outcome. Answer with JSON: {"summary": "..."}.',
      summarySchema,
      400,
      this.options.summaryTimeoutMs,
      (value) => acceptableSummary(value, messages),
    );
    return generated
      ? { text: generated, generator: 'model' }
      : { text: extractiveSummary(messages), generator: 'extractive' };
  }

  /** The model's answer when it is usable, otherwise undefined (the caller falls back). */
  private async generate(
    messages: readonly TitleMessage[],
    instruction: string,
    jsonSchema: Readonly<Record<string, unknown>>,
    maxTokens: number,
    timeoutMs: number,
    accept: (parsed: unknown) => string | undefined,
  ): Promise<string | undefined> {
    const generator = this.generator();
    if (!generator || messages.length === 0) return undefined;
    const prompt = `${instruction}\n\nConversation:\n${transcript(messages)}\n`;
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        abort.abort();
        reject(new Error(`the model did not answer within ${timeoutMs} ms`));
      }, timeoutMs);
    });
    try {
      const output = await Promise.race([
        generator.generate(prompt, { maxTokens, timeoutMs, jsonSchema, signal: abort.signal }),
        timeout,
      ]);
      const accepted = accept(parseJson(output));
      if (accepted === undefined) this.logger.warn('The model answered something unusable; using the offline method.');
      return accepted;
    } catch (error) {
      this.logger.warn(`Text generation failed (${(error as Error).message}); using the offline method.`);
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }
}

function transcript(messages: readonly TitleMessage[]): string {
  const lines = messages.map((message) => `${message.role.toLowerCase()}: ${message.text.trim()}`);
  const text = lines.join('\n');
  return text.length <= TRANSCRIPT_CHARS ? text : text.slice(0, TRANSCRIPT_CHARS);
}

function parseJson(output: string): unknown {
  try {
    return JSON.parse(output.trim()) as unknown;
  } catch {
    return undefined;
  }
}

function field(value: unknown, name: string): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const found = (value as Record<string, unknown>)[name];
  return typeof found === 'string' ? found.replace(/\s+/g, ' ').trim() : undefined;
}

/** Shares at least `minimum` content words with the conversation (a guard against invented text). */
function grounded(text: string, messages: readonly TitleMessage[], minimum: number): boolean {
  const vocabulary = new Set(messages.flatMap((message) => contentWords(prose(message.text))));
  const shared = new Set(contentWords(text).filter((word) => vocabulary.has(word)));
  return shared.size >= minimum;
}

export function acceptableTitle(value: unknown, messages: readonly TitleMessage[]): string | undefined {
  const given = field(value, 'title');
  const title = given && trimEnd(trimStart(given, (c) => `"'\``.includes(c)), (c) => `"'\`.`.includes(c));
  if (!title || title.length < 3 || title.length > MAX_TITLE_CHARS || !/[A-Za-z]/.test(title)) return undefined;
  if (/[{}<>|]/.test(title) || title.split(' ').length > 14) return undefined;
  return grounded(title, messages, 1) ? title : undefined;
}

export function acceptableSummary(value: unknown, messages: readonly TitleMessage[]): string | undefined {
  const summary = field(value, 'summary');
  if (!summary || summary.length < 20 || /[{}<>|]{2}/.test(summary)) return undefined;
  const tokens = summary.toLowerCase().split(' ');
  if (tokens.length < 5 || new Set(tokens).size / tokens.length < 0.4) return undefined;
  return grounded(summary, messages, 2) ? truncate(summary, 2_000) : undefined;
}
