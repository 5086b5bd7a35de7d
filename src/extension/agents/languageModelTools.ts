/**
 * Satchel's operations as language-model tools, for Copilot agent mode and any participant that
 * passes tools to a model. Each answers JSON an agent can act on (ids to fetch or cite, the
 * revision an update names); the writes ask the user first (writeTools.ts). The names and schemas
 * are declared in package.json `languageModelTools`.
 */
import * as vscode from 'vscode';
import type { SnippetOperations } from './snippetOperations.ts';
import { abortSignalOf } from './cancellation.ts';
import { integer, parseSearch, record, text } from './toolInput.ts';
import { registerWriteTools } from './writeTools.ts';

import { TOOL_NAMES } from './toolNames.ts';

export { TOOL_NAMES } from './toolNames.ts';

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
    registerWriteTools(register, operations, json, TOOL_NAMES);
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

