/**
 * Satchel's operations as language-model tools, for Copilot agent mode and any participant that
 * passes tools to a model. Each answers JSON an agent can act on (ids to fetch or cite); the write
 * asks the user first. The names and schemas are declared in package.json `languageModelTools`.
 */
import * as vscode from 'vscode';
import { inline, preview } from './snippetText.ts';
import { fenced } from '../../core/markdown.ts';
import type { SaveInput, SnippetOperations } from './snippetOperations.ts';
import { abortSignalOf } from './cancellation.ts';
import { integer, parseSave, parseSearch, record, text } from './toolInput.ts';
import { authorOf } from '../../core/history/authors.ts';

/** A language-model tool's writes are an agent's: the model chose to make them (the user confirmed). */
const TOOL_AUTHOR = authorOf('agent', 'VS Code agent');

export const TOOL_NAMES = {
  search: 'satchel_search_snippets',
  get: 'satchel_get_snippet',
  save: 'satchel_save_snippet',
  recent: 'satchel_list_recent_snippets',
  isSaved: 'satchel_check_snippet_saved',
} as const;

function json(value: unknown): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(JSON.stringify(value, null, 1))]);
}

function tool<T>(invoke: (input: T, token: vscode.CancellationToken) => Promise<vscode.LanguageModelToolResult>, prepare?: (input: T) => vscode.PreparedToolInvocation): vscode.LanguageModelTool<T> {
  return {
    invoke: (options, token) => invoke(options.input, token),
    ...(prepare ? { prepareInvocation: (options: vscode.LanguageModelToolInvocationPrepareOptions<T>) => prepare(options.input) } : {}),
  };
}

export class LanguageModelTools implements vscode.Disposable {
  private readonly registrations: vscode.Disposable[] = [];

  constructor(operations: SnippetOperations) {
    if (typeof vscode.lm?.registerTool !== 'function') return;
    const register = <T>(name: string, value: vscode.LanguageModelTool<T>) => this.registrations.push(vscode.lm.registerTool(name, value));

    register<unknown>(
      TOOL_NAMES.search,
      tool(
        async (input, token) => json(await operations.search(parseSearch(input), abortSignalOf(token))),
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
          const saved = await operations.save(parseSave(input), TOOL_AUTHOR);
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
          return json(await operations.isSaved(text(o, 'content', true)));
        },
        () => ({ invocationMessage: 'Checking whether this code is already saved' }),
      ),
    );
  }

  dispose(): void {
    for (const registration of this.registrations.splice(0)) registration.dispose();
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
  const message = new vscode.MarkdownString(`Save ${name ? `**${inline(name)}**` : 'this snippet'}${tags} to your Satchel snippets?\n\n${fenced(preview(save.content, 12, 800), save.language ?? '')}`);
  return {
    invocationMessage: `Saving ${name ?? 'a snippet'} to Satchel`,
    confirmationMessages: { title: 'Save snippet to Satchel', message },
  };
}
