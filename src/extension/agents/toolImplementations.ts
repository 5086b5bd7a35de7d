/**
 * What each of Satchel's language-model tools does (languageModelTools.ts registers them): each answers
 * JSON an agent can act on (ids to fetch or cite, the revision an update names); the writes ask the user
 * first (writeTools.ts). Loaded when a tool is first prepared or run (agentHandlers.ts).
 */
import * as vscode from 'vscode';
import type { SnippetOperations } from './snippetOperations.ts';
import { abortSignalOf } from './cancellation.ts';
import { integer, parseSearch, record, text } from './toolInput.ts';
import { registerWriteTools } from './writeTools.ts';
import { TOOL_NAMES } from './toolNames.ts';

function json(value: unknown): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(JSON.stringify(value, null, 1))]);
}

function tool<T>(invoke: (input: T, token: vscode.CancellationToken) => Promise<vscode.LanguageModelToolResult>, prepare?: (input: T) => vscode.PreparedToolInvocation): vscode.LanguageModelTool<T> {
  return {
    invoke: (options, token) => invoke(options.input, token),
    ...(prepare ? { prepareInvocation: (options: vscode.LanguageModelToolInvocationPrepareOptions<T>) => prepare(options.input) } : {}),
  };
}

/** Each tool by its name (TOOL_NAMES). */
export function toolImplementations(operations: SnippetOperations): ReadonlyMap<string, vscode.LanguageModelTool<unknown>> {
  const tools = new Map<string, vscode.LanguageModelTool<unknown>>();
  const register = (name: string, value: vscode.LanguageModelTool<unknown>): void => void tools.set(name, value);
  register(
    TOOL_NAMES.search,
    tool(
      async (input, token) => json(await operations.search(parseSearch(input), abortSignalOf(token))),
      (input) => ({ invocationMessage: `Searching saved snippets for ${describeQuery(input)}` }),
    ),
  );
  register(
    TOOL_NAMES.get,
    tool(
      async (input) => json(await operations.get(text(record(input), 'id', true))),
      () => ({ invocationMessage: 'Reading a saved snippet' }),
    ),
  );
  registerWriteTools(register, operations, json, TOOL_NAMES);
  register(
    TOOL_NAMES.recent,
    tool(
      async (input) => json(await operations.recent(integer(record(input ?? {}), 'limit'))),
      () => ({ invocationMessage: 'Listing recent snippets' }),
    ),
  );
  register(
    TOOL_NAMES.isSaved,
    tool(
      async (input) => {
        const o = record(input);
        return json(await operations.isSaved(text(o, 'content', true)));
      },
      () => ({ invocationMessage: 'Checking whether this code is already saved' }),
    ),
  );
  return tools;
}

function describeQuery(input: unknown): string {
  try {
    const search = parseSearch(input);
    return [search.query.trim() && `"${search.query.trim().slice(0, 60)}"`, search.tags?.length && `tags ${search.tags.join(', ')}`].filter(Boolean).join(' with ');
  } catch {
    return 'a query';
  }
}

