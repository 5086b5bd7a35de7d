/**
 * The diff of an agent's change: the snippet before it (the revision before the agent's first
 * write, or nothing for a create) against what the agent left (its last revision, what a proposal
 * would write, or nothing for a delete), opened with `vscode.diff`. Both sides are read-only
 * `satchel-agent-change:/<change>/<side>/<name>.<ext>` documents (the extension gives VS Code the
 * language), fetched once when the diff opens and kept while a side is open.
 */
import * as vscode from 'vscode';
import type { SatchelClient } from '../../client/satchelClient.ts';
import type { AgentChange, AgentChangeDetail } from '../../client/agentChanges.ts';
import type { RevisionReply } from '../../client/history.ts';
import { Owner } from '../../core/lifecycle.ts';
import { fileNameFor } from '../languages.ts';

export const AGENT_CHANGE_SCHEME = 'satchel-agent-change';

/** One side of the diff: the snippet's text and what it is called then (undefined: it does not exist on that side). */
export interface ChangeSide {
  readonly text: string;
  readonly name: string;
  readonly language: string | undefined;
  readonly tags: readonly string[];
  readonly description: string | null;
}

export interface ChangeSides {
  readonly before: ChangeSide | undefined;
  readonly after: ChangeSide | undefined;
}

export class AgentChangeDiffs extends Owner implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();

  constructor() {
    super();
    this._register(vscode.workspace.registerTextDocumentContentProvider(AGENT_CHANGE_SCHEME, this));
    // A side closed is read again if the diff opens again (the change may have moved on meanwhile).
    this._register(vscode.workspace.onDidCloseTextDocument((document) => this.texts.delete(document.uri.toString())));
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  /** Opens the diff of one change; resolves with what each side holds (the tests read it). */
  async open(client: SatchelClient, change: AgentChange): Promise<ChangeSides> {
    const sides = await changeSides(client, await client.agentChanges.get(change.id));
    const name = sides.after?.name ?? sides.before?.name ?? change.name;
    const language = sides.after?.language ?? sides.before?.language;
    const left = this.document(change.id, 'before', name, language, sides.before?.text ?? '');
    const right = this.document(change.id, 'after', name, language, sides.after?.text ?? '');
    await vscode.commands.executeCommand('vscode.diff', left, right, diffTitle(change, sides), { preview: true });
    return sides;
  }

  private document(change: string, side: 'before' | 'after', name: string, language: string | undefined, text: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: AGENT_CHANGE_SCHEME, path: `/${encodeURIComponent(change)}/${side}/${fileNameFor(name, language)}` });
    this.texts.set(uri.toString(), text);
    return uri;
  }

  override dispose(): void {
    this.texts.clear();
    super.dispose();
  }
}

/** What the snippet was before the agent's change and what the change makes it. */
export async function changeSides(client: SatchelClient, change: AgentChangeDetail): Promise<ChangeSides> {
  const revision = async (id: string | null): Promise<ChangeSide | undefined> => (change.asset !== null && id !== null ? sideOf(await client.history.get(change.asset, id)) : undefined);
  if (change.status === 'applied') {
    return {
      before: change.kind === 'created' ? undefined : await revision(change.before),
      after: change.kind === 'deleted' ? undefined : await revision(change.after),
    };
  }
  // A proposal: against the revision it was proposed on, what it would write.
  if (change.kind === 'created') {
    const save = change.save;
    return { before: undefined, after: save && { text: save.content, name: save.name ?? change.name, language: save.language, tags: save.tags ?? [], description: null } };
  }
  const before = await revision(change.before);
  if (change.kind === 'deleted' || before === undefined) return { before, after: undefined };
  const edit = change.edit ?? {};
  return {
    before,
    after: {
      text: edit.content ?? before.text,
      name: edit.name ?? before.name,
      language: edit.language ?? before.language,
      tags: edit.tags ?? before.tags,
      description: edit.description === undefined ? before.description : edit.description || null,
    },
  };
}

function sideOf(revision: RevisionReply): ChangeSide {
  const text = 'text' in revision.content ? revision.content.text : `(binary content, ${revision.size} bytes)`;
  return { text, name: revision.name, language: revision.language || undefined, tags: revision.tags, description: revision.description };
}

/** What else the change did besides the text (a diff shows only the text). */
export function changedFields(sides: ChangeSides): string[] {
  const { before, after } = sides;
  if (!before || !after) return [];
  const fields: string[] = [];
  if (before.text !== after.text) fields.push('content');
  if (before.name !== after.name) fields.push(`name: ${before.name} → ${after.name}`);
  if ((before.language ?? '') !== (after.language ?? '')) fields.push(`language: ${before.language ?? 'none'} → ${after.language ?? 'none'}`);
  if (before.tags.join('\u0000') !== after.tags.join('\u0000')) fields.push(`tags: ${before.tags.join(', ') || 'none'} → ${after.tags.join(', ') || 'none'}`);
  if ((before.description ?? '') !== (after.description ?? '')) fields.push('description');
  return fields;
}

function diffTitle(change: AgentChange, sides: ChangeSides): string {
  const name = sides.after?.name ?? sides.before?.name ?? change.name;
  const verb = change.status === 'proposed' ? `proposed by ${change.agent.name}` : `${change.kind} by ${change.agent.name}`;
  const fields = changedFields(sides).filter((field) => field !== 'content');
  return `${name} (${verb})${fields.length ? ` · ${fields.join('; ')}` : ''}`;
}
