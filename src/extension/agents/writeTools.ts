/**
 * The language-model tools that write: save, update and delete a snippet. Each asks the user
 * first (prepareInvocation's confirmation shows what would change), then writes through the
 * host's agent doors as the agent: marked under Agent changes until the user accepts or reverts
 * it, or, while agent writes wait for review, a proposal that counts for nothing yet. An update
 * or a delete names the revision the agent read (satchel_get_snippet gives it) and fails, saying
 * which revision to read again, when the snippet changed since.
 */
import * as vscode from 'vscode';
import { fenced } from '../../core/markdown.ts';
import { authorOf } from '../../core/history/authors.ts';
import type { DeleteInput, RevisedDetail, SaveInput, SnippetOperations, UpdateInput } from './snippetOperations.ts';
import type { AgentWriteResult } from '../../client/agentChanges.ts';
import { parseDelete, parseSave, parseUpdate } from './toolInput.ts';
import { inline, preview } from './snippetText.ts';
import { deleteConfirmation, deleteResult, saveResult, updateConfirmation, updateResult, writeFailure, type Confirmation, type WriteToolResult } from './writeToolText.ts';

/** A language-model tool's writes are an agent's: the model chose to make them (the user confirmed). */
export const TOOL_AUTHOR = authorOf('agent', 'VS Code agent');

export type ToolResultOf = (value: unknown) => vscode.LanguageModelToolResult;
type Register = (name: string, tool: vscode.LanguageModelTool<unknown>) => void;

/** Registers satchel_save_snippet, satchel_update_snippet and satchel_delete_snippet. */
export function registerWriteTools(register: Register, operations: SnippetOperations, json: ToolResultOf, names: { readonly save: string; readonly update: string; readonly delete: string }): void {
  register(names.save, {
    invoke: async (options) => json(saveResult(await operations.agentSave(parseSave(options.input), TOOL_AUTHOR))),
    prepareInvocation: (options) => confirmSave(options.input),
  });
  register(names.update, conditional('update', parseUpdate, (input) => operations.update(input, TOOL_AUTHOR), updateResult, updateConfirmation, operations, json));
  register(names.delete, conditional('delete', parseDelete, (input) => operations.delete(input, TOOL_AUTHOR), deleteResult, deleteConfirmation, operations, json));
}

/**
 * An update or a delete: confirmed with the snippet as it is now, written on the revision the
 * agent read, and failing (writeFailure) with what the model should do next.
 */
function conditional<I extends UpdateInput | DeleteInput>(
  kind: 'update' | 'delete',
  parse: (input: unknown) => I,
  write: (input: I) => Promise<AgentWriteResult>,
  result: (input: I, reply: AgentWriteResult) => WriteToolResult,
  confirm: (input: I, current: RevisedDetail | undefined) => Confirmation,
  operations: SnippetOperations,
  json: ToolResultOf,
): vscode.LanguageModelTool<unknown> {
  return {
    invoke: async (options) => {
      const input = parse(options.input);
      try {
        return json(result(input, await write(input)));
      } catch (error) {
        throw writeFailure(kind, input, error);
      }
    },
    prepareInvocation: async (options) => {
      const input = safely(() => parse(options.input));
      // Invalid input fails in invoke with the reason; nothing to confirm.
      if (input === undefined) return { invocationMessage: kind === 'update' ? 'Updating a Satchel snippet' : 'Deleting a Satchel snippet' };
      return prepared(confirm(input, await current(operations, input.id)));
    },
  };
}

/** The save asks first, showing what would be stored. */
export function confirmSave(input: unknown): vscode.PreparedToolInvocation {
  const save: SaveInput | undefined = safely(() => parseSave(input));
  if (save === undefined) return { invocationMessage: 'Saving a snippet to Satchel' };
  const name = save.name?.trim();
  const tags = save.tags?.length ? ` with tags ${save.tags.map((t) => `#${inline(t)}`).join(', ')}` : '';
  const message = new vscode.MarkdownString(`Save ${name ? `**${inline(name)}**` : 'this snippet'}${tags} to your Satchel snippets?\n\n${fenced(preview(save.content, 12, 800), save.language ?? '')}`);
  return {
    invocationMessage: `Saving ${name ?? 'a snippet'} to Satchel`,
    confirmationMessages: { title: 'Save snippet to Satchel', message },
  };
}

function prepared(confirmation: Confirmation): vscode.PreparedToolInvocation {
  return {
    invocationMessage: confirmation.invocation,
    confirmationMessages: { title: confirmation.title, message: new vscode.MarkdownString(confirmation.message) },
  };
}

/** The snippet as it is now, for the confirmation (undefined when it cannot be read: the write then says why). */
async function current(operations: SnippetOperations, id: string): Promise<RevisedDetail | undefined> {
  try {
    return await operations.get(id);
  } catch {
    return undefined;
  }
}

function safely<T>(parse: () => T): T | undefined {
  try {
    return parse();
  } catch {
    return undefined;
  }
}
