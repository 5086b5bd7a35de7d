/**
 * Satchel's operations as language-model tools, for Copilot agent mode and any participant that
 * passes tools to a model. Each answers JSON an agent can act on (ids to fetch or cite); the write
 * asks the user first. The names and schemas are declared in package.json `languageModelTools`.
 */
import * as vscode from 'vscode';
import { Disposable } from '../lifecycle.ts';
import { fence, inline, preview } from './snippetText.ts';
import type { SaveInput, SearchInput, SnippetOperations } from './snippetOperations.ts';

export const TOOL_NAMES = {
  search: 'satchel_search_snippets',
  get: 'satchel_get_snippet',
  save: 'satchel_save_snippet',
  recent: 'satchel_list_recent_snippets',
  isSaved: 'satchel_is_snippet_saved',
} as const;

/** Bad tool input, said the way the model can fix it. */
export class ToolInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolInputError';
  }
}

function record(input: unknown): Record<string, unknown> {
  if (!input || typeof input !== 'object' || Array.isArray(input)) throw new ToolInputError('The input must be a JSON object.');
  return input as Record<string, unknown>;
}

function text(input: Record<string, unknown>, key: string, required: true): string;
function text(input: Record<string, unknown>, key: string, required?: false): string | undefined;
function text(input: Record<string, unknown>, key: string, required = false): string | undefined {
  const value = input[key];
  if (value === undefined || value === null) {
    if (required) throw new ToolInputError(`"${key}" is required.`);
    return undefined;
  }
  if (typeof value !== 'string') throw new ToolInputError(`"${key}" must be a string.`);
  if (required && !value.trim()) throw new ToolInputError(`"${key}" must not be empty.`);
  return value;
}

function strings(input: Record<string, unknown>, key: string): string[] | undefined {
  const value = input[key];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw new ToolInputError(`"${key}" must be an array of strings.`);
  return value as string[];
}

function integer(input: Record<string, unknown>, key: string): number | undefined {
  const value = input[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new ToolInputError(`"${key}" must be a number.`);
  return value;
}

export function parseSearch(input: unknown): SearchInput {
  const o = record(input);
  const query = text(o, 'query') ?? '';
  const tags = strings(o, 'tags');
  if (!query.trim() && !tags?.length) throw new ToolInputError('Give a "query", "tags", or both.');
  const language = text(o, 'language');
  const limit = integer(o, 'limit');
  return { query, ...(tags ? { tags } : {}), ...(language ? { language } : {}), ...(limit !== undefined ? { limit } : {}) };
}

export function parseSave(input: unknown): SaveInput {
  const o = record(input);
  const content = text(o, 'content', true);
  const name = text(o, 'name');
  const tags = strings(o, 'tags');
  const language = text(o, 'language');
  return { content, ...(name ? { name } : {}), ...(tags ? { tags } : {}), ...(language ? { language } : {}) };
}

function json(value: unknown): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(JSON.stringify(value, null, 1))]);
}

function tool<T>(invoke: (input: T, token: vscode.CancellationToken) => Promise<vscode.LanguageModelToolResult>, prepare?: (input: T) => vscode.PreparedToolInvocation): vscode.LanguageModelTool<T> {
  return {
    invoke: (options, token) => invoke(options.input, token),
    ...(prepare ? { prepareInvocation: (options: vscode.LanguageModelToolInvocationPrepareOptions<T>) => prepare(options.input) } : {}),
  };
}

function signalOf(token: vscode.CancellationToken): AbortSignal {
  const abort = new AbortController();
  if (token.isCancellationRequested) abort.abort();
  else token.onCancellationRequested(() => abort.abort());
  return abort.signal;
}

export class LanguageModelTools extends Disposable {
  constructor(operations: SnippetOperations) {
    super();
    if (typeof vscode.lm?.registerTool !== 'function') return;
    const register = <T>(name: string, value: vscode.LanguageModelTool<T>) => this._register(vscode.lm.registerTool(name, value));

    register<unknown>(
      TOOL_NAMES.search,
      tool(
        async (input, token) => json(await operations.search(parseSearch(input), signalOf(token))),
        (input) => ({ invocationMessage: `Searching saved snippets for ${describeQuery(input)}` }),
      ),
    );
    register<unknown>(
      TOOL_NAMES.get,
      tool(
        async (input) => json(await operations.get(text(record(input), 'id', true))),
        () => ({ invocationMessage: 'Reading a saved snippet' }),
      ),
    );
    register<unknown>(
      TOOL_NAMES.save,
      tool(
        async (input) => {
          const saved = await operations.save(parseSave(input));
          return json({ saved: true, id: saved.id, name: saved.name, language: saved.language, tags: saved.tags });
        },
        (input) => confirmSave(input),
      ),
    );
    register<unknown>(
      TOOL_NAMES.recent,
      tool(
        async (input) => json(await operations.recent(integer(record(input ?? {}), 'limit'))),
        () => ({ invocationMessage: 'Listing recent snippets' }),
      ),
    );
    register<unknown>(
      TOOL_NAMES.isSaved,
      tool(
        async (input) => {
          const o = record(input);
          return json(await operations.isSaved(text(o, 'content', true), text(o, 'language')));
        },
        () => ({ invocationMessage: 'Checking whether this code is already saved' }),
      ),
    );
  }
}

function describeQuery(input: unknown): string {
  try {
    const search = parseSearch(input);
    return [search.query.trim() && `"${search.query.trim().slice(0, 60)}"`, search.tags?.length && `tags ${search.tags.join(', ')}`].filter(Boolean).join(' with ');
  } catch {
    return 'a query';
  }
}

/** The write asks first, showing what would be stored. */
export function confirmSave(input: unknown): vscode.PreparedToolInvocation {
  let save: SaveInput;
  try {
    save = parseSave(input);
  } catch {
    // Invalid input fails in invoke with the reason; nothing to confirm.
    return { invocationMessage: 'Saving a snippet to Satchel' };
  }
  const name = save.name?.trim();
  const tags = save.tags?.length ? ` with tags ${save.tags.map((t) => `\`${inline(t)}\``).join(', ')}` : '';
  const message = new vscode.MarkdownString(`Save ${name ? `**${inline(name)}**` : 'this snippet'}${tags} to your Satchel snippets?\n\n${fence(preview(save.content, 12, 800), save.language)}`);
  return {
    invocationMessage: `Saving ${name ?? 'a snippet'} to Satchel`,
    confirmationMessages: { title: 'Save snippet to Satchel', message },
  };
}
