/**
 * Satchel's operations as language-model tools, for Copilot agent mode and any participant that
 * passes tools to a model. The names and schemas are declared in package.json `languageModelTools`;
 * each is registered at activation, and what it does (toolImplementations.ts) is loaded from the
 * agents' own bundle when a tool is first prepared or run (agentHandlers.ts, docs/performance.md).
 */
import * as vscode from 'vscode';
import type { SnippetOperations } from './snippetOperations.ts';
import { toolImplementations } from './agentHandlers.ts';
import { TOOL_NAMES } from './toolNames.ts';

export { TOOL_NAMES } from './toolNames.ts';

export class LanguageModelTools implements vscode.Disposable {
  private readonly registrations: vscode.Disposable[] = [];
  private tools: ReadonlyMap<string, vscode.LanguageModelTool<unknown>> | undefined;

  constructor(operations: () => SnippetOperations) {
    if (typeof vscode.lm?.registerTool !== 'function') return;
    const implementation = (name: string): vscode.LanguageModelTool<unknown> => {
      this.tools ??= toolImplementations(operations());
      const tool = this.tools.get(name);
      if (!tool) throw new Error(`No language-model tool named ${name}.`);
      return tool;
    };
    for (const name of Object.values(TOOL_NAMES)) {
      this.registrations.push(
        vscode.lm.registerTool<unknown>(name, {
          invoke: (options, token) => implementation(name).invoke(options, token),
          prepareInvocation: (options, token) => implementation(name).prepareInvocation?.(options, token),
        }),
      );
    }
  }

  dispose(): void {
    for (const registration of this.registrations.splice(0)) registration.dispose();
  }
}
