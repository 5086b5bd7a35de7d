/**
 * What the language-model tools that write say: to the user before a write (the confirmation),
 * and to the model after it (the result, or why nothing was written and what to do next). Pure
 * (no vscode, no network), so plain tests cover every case. A write on a revision that is no
 * longer current fails with the revision to read again, like the MCP tools' (snippetWriteTools.ts).
 */
import { ClientError } from '../../client/errors.ts';
import type { AgentSaveReply, AgentWriteReply, AgentWriteResult } from '../../client/agentChanges.ts';
import { keptText } from '../../core/secrets/doorSecrets.ts';
import { fenced } from '../../core/markdown.ts';
import { detail, inline, preview } from './snippetText.ts';
import type { DeleteInput, RevisedDetail, UpdateInput } from './snippetOperations.ts';
import { TOOL_NAMES } from './toolNames.ts';


const PROPOSED =
  "It waits for the user's review in Satchel (Assets view, Agent changes) and counts for nothing until they accept it: searches will not find it yet. Do not make it again.";

/** A tool's write failed: the message is what the model reads (and the user sees in the chat). */
export class ToolWriteError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ToolWriteError';
  }
}

// ------------------------------------------------------------------ results (to the model)

export type SaveToolResult =
  | {
      readonly saved: true;
      readonly status: 'saved';
      readonly id: string;
      readonly name: string;
      readonly language: string | undefined;
      readonly tags: readonly string[];
      /** What an update of it names as expectedRevision. */
      readonly revision: string | undefined;
      readonly change: string | undefined;
      /** What the model is told when what it saved holds a secret (kept and flagged). */
      readonly secrets?: string;
    }
  | { readonly saved: false; readonly status: 'proposed'; readonly name: string; readonly change: string | undefined; readonly message: string };

export function saveResult(reply: AgentSaveReply): SaveToolResult {
  if (reply.status === 'proposed' || reply.saved === undefined) {
    const kept = keptText(reply.secrets ?? []);
    return { saved: false, status: 'proposed', name: reply.name, change: reply.change, message: `Proposed saving "${reply.name}". ${PROPOSED}${kept !== undefined ? ` ${kept}` : ''}` };
  }
  // The reply's name is the host's agent view of it (a secret in a name is a placeholder); the saved asset's is not.
  const { id, language, tags } = detail(reply.saved);
  const kept = keptText(reply.secrets ?? []);
  return { saved: true, status: 'saved', id, name: reply.name, language, tags, revision: reply.revision, change: reply.change, ...(kept !== undefined ? { secrets: kept } : {}) };
}

export interface WriteToolResult {
  readonly status: 'updated' | 'unchanged' | 'deleted' | 'proposed';
  readonly id: string;
  readonly name: string;
  /** The snippet's revision after an update (what the next update names). */
  readonly revision?: string;
  /** The entry under Agent changes the user reviews. */
  readonly change?: string;
  readonly message: string;
}

export function updateResult(input: UpdateInput, reply: AgentWriteReply): WriteToolResult {
  const facts = { id: input.id, name: reply.name, ...(reply.revision !== undefined ? { revision: reply.revision } : {}), ...(reply.change !== undefined ? { change: reply.change } : {}) };
  const kept = keptText(reply.secrets ?? []);
  const also = kept !== undefined ? ` ${kept}` : '';
  if (reply.status === 'proposed') return { status: 'proposed', ...facts, message: `Proposed an update of "${reply.name}". ${PROPOSED}${also}` };
  if (reply.status === 'unchanged') return { status: 'unchanged', ...facts, message: `"${reply.name}" already was as asked: nothing changed.` };
  return { status: 'updated', ...facts, message: `Updated "${reply.name}"; its revision is now ${reply.revision}. The user can see and revert the change under Agent changes.${also}` };
}

export function deleteResult(input: DeleteInput, reply: AgentWriteResult): WriteToolResult {
  const facts = { id: input.id, name: reply.name, ...(reply.change !== undefined ? { change: reply.change } : {}) };
  if (reply.status === 'proposed') return { status: 'proposed', ...facts, message: `Proposed deleting "${reply.name}". ${PROPOSED}` };
  return { status: 'deleted', ...facts, message: `Deleted "${reply.name}". The user can bring it back under Agent changes (Revert).` };
}

/** Why a write was refused, said so the model can act: read again and retry, or find the right id. */
export function writeFailure(tool: 'update' | 'delete', input: UpdateInput | DeleteInput, error: unknown): Error {
  if (!(error instanceof ClientError)) return error instanceof Error ? error : new Error(String(error));
  const name = TOOL_NAMES[tool];
  if (error.staleRevision) {
    const current = error.currentRevision !== undefined ? ` (its current revision is ${error.currentRevision})` : '';
    return new ToolWriteError(
      `Snippet ${input.id} changed since revision ${input.expectedRevision}, the one you read${current}. Nothing was written. ` +
        `Read it again with ${TOOL_NAMES.get}, apply your change to what it holds now, and call ${name} again with expectedRevision ` +
        `"${error.currentRevision ?? 'the revision it gives'}".`,
      { cause: error },
    );
  }
  if (error.notFound) {
    return new ToolWriteError(`Snippet ${input.id} was not found (deleted, or the id is wrong). Nothing was written. Find it with ${TOOL_NAMES.search}.`, { cause: error });
  }
  return new ToolWriteError(`Satchel refused the ${tool}: ${error.message}`, { cause: error });
}

// ------------------------------------------------------------------ confirmations (to the user)

export interface Confirmation {
  readonly title: string;
  /** Markdown. */
  readonly message: string;
  /** The progress line while the tool runs. */
  readonly invocation: string;
}

const PREVIEW_LINES = 12;
const PREVIEW_CHARS = 800;

/** "you can revert it" — or, when the snippet moved since the agent read it, that it will be refused. */
function staleNote(current: RevisedDetail | undefined, expected: string): string {
  if (current?.revision === undefined || current.revision === expected) return '';
  return `\n\n**Note:** the snippet changed since the agent read it (revision ${inline(expected)}; now ${inline(current.revision)}): Satchel will refuse this and ask the agent to read it again.`;
}

/** Asks before an agent changes a snippet: what it is now, and what each changed field becomes. */
export function updateConfirmation(input: UpdateInput, current: RevisedDetail | undefined): Confirmation {
  const name = current?.name ?? input.id;
  const lines: string[] = [];
  if (input.name !== undefined && input.name !== current?.name) lines.push(`- **Name**: ${current ? `${inline(current.name)} → ` : ''}${inline(input.name)}`);
  if (input.tags !== undefined) lines.push(`- **Tags**: ${current ? `${tagList(current.tags)} → ` : ''}${tagList(input.tags)}`);
  if (input.language !== undefined) lines.push(`- **Language**: ${current?.language ? `${inline(current.language)} → ` : ''}${inline(input.language)}`);
  if (input.description !== undefined) lines.push(input.description === '' ? '- **Description**: removed' : `- **Description**: ${inline(input.description.slice(0, 300))}`);
  const content =
    input.content === undefined
      ? ''
      : `\n\n**New content** (${lineCount(input.content)} lines${current ? `, was ${lineCount(current.content)}` : ''}):\n\n${fenced(preview(input.content, PREVIEW_LINES, PREVIEW_CHARS), input.language ?? current?.language ?? '')}`;
  return {
    title: 'Update a Satchel snippet',
    message: `Let the agent change **${inline(name)}**?${lines.length ? `\n\n${lines.join('\n')}` : ''}${content}\n\nThe previous version stays in its history; the change is listed under Agent changes, where you can revert it.${staleNote(current, input.expectedRevision)}`,
    invocation: `Updating ${name} in Satchel`,
  };
}

/** Asks before an agent deletes a snippet, showing which one. */
export function deleteConfirmation(input: DeleteInput, current: RevisedDetail | undefined): Confirmation {
  const name = current?.name ?? input.id;
  const shown = current ? `\n\n${fenced(preview(current.content, PREVIEW_LINES, PREVIEW_CHARS), current.language ?? '')}` : '';
  return {
    title: 'Delete a Satchel snippet',
    message: `Let the agent delete **${inline(name)}**?${shown}\n\nIt is listed under Agent changes, where Revert brings it back.${staleNote(current, input.expectedRevision)}`,
    invocation: `Deleting ${name} from Satchel`,
  };
}

function tagList(tags: readonly string[]): string {
  return tags.length ? tags.map((tag) => `#${inline(tag)}`).join(', ') : '(none)';
}

function lineCount(text: string): number {
  return text === '' ? 0 : text.replace(/\n$/, '').split('\n').length;
}
