/**
 * The Assets view's "Agent changes" node: the snippets an agent (an MCP client, Copilot's tools)
 * created, changed or deleted, and, while agent writes wait for review, what agents proposed;
 * each listed until the user accepts or reverts it (agentChangeCommands.ts). The list is the
 * host's (`GET /satchel/agent-changes`), read again whenever its identifiers stream says it
 * changed, so a change any agent makes on the port shows up at once. Clicking a change opens its
 * diff (agentChangeDiff.ts).
 */
import * as vscode from 'vscode';
import type { AgentChange } from '../../client/agentChanges.ts';
import { MutableDisposable, Owner, toDisposable, type Disposable } from '../../core/lifecycle.ts';
import type { Connection, ServerController } from '../serverController.ts';
import type { Log } from '../log.ts';
import { AgentChangeDiffs } from './agentChangeDiff.ts';
import { timeAgo } from '../../core/timeAgo.ts';
import { escapeMarkdown } from '../../core/markdown.ts';

export type AgentChangesNode = { readonly type: 'agentChanges' } | { readonly type: 'agentChange'; readonly change: AgentChange };

/** Frames arriving together (an agent's burst of writes) are read as one list. */
const RELOAD_DELAY_MS = 50;

const KIND_ICONS: Readonly<Record<AgentChange['kind'], readonly [string, string]>> = {
  created: ['diff-added', 'gitDecoration.addedResourceForeground'],
  changed: ['diff-modified', 'gitDecoration.modifiedResourceForeground'],
  deleted: ['diff-removed', 'gitDecoration.deletedResourceForeground'],
};

export class AgentChangesSection extends Owner {
  readonly diffs = this._register(new AgentChangeDiffs());
  private readonly log: Log;
  private readonly stream = this._register(new MutableDisposable<Disposable>());
  private readonly _onDidChange = this._register(new vscode.EventEmitter<void>());
  /** Fires after the list changed (the view redraws; tests wait on it). */
  readonly onDidChange = this._onDidChange.event;
  private connection: Connection | undefined;
  private list: readonly AgentChange[] = [];
  private count = 0;
  private review = false;
  private timer: NodeJS.Timeout | undefined;
  /** The last read asked for, and the one asked for but not started yet (it serves every call until it starts). */
  private last: Promise<void> = Promise.resolve();
  private queued: Promise<void> | undefined;

  constructor(server: ServerController, log: Log) {
    super();
    this.log = log;
    this._register(toDisposable(() => clearTimeout(this.timer)));
    this._register(server.onDidChangeConnection((connection) => this.connect(connection)));
    this.connect(server.connection);
  }

  /** Newest first (at most 500: the host lists no more). */
  get changes(): readonly AgentChange[] {
    return this.list;
  }

  /** Every change waiting, listed or not. */
  get total(): number {
    return this.count;
  }

  /** Whether agent writes wait for review on the host now. */
  get reviewing(): boolean {
    return this.review;
  }

  change(id: string): AgentChange | undefined {
    return this.list.find((change) => change.id === id);
  }

  /**
   * Reads the list again (after the user's review), without waiting for the stream; resolves once
   * a read that started after this call is applied. Reads run one at a time, in order.
   */
  reload(): Promise<void> {
    if (this.queued) return this.queued;
    const queued = this.last.then(() => {
      this.queued = undefined;
      return this.read();
    });
    this.queued = queued;
    this.last = queued;
    return queued;
  }

  // ---------------------------------------------------------------- the tree

  roots(): AgentChangesNode[] {
    return this.count > 0 ? [{ type: 'agentChanges' }] : [];
  }

  children(): AgentChangesNode[] {
    return this.list.map((change) => ({ type: 'agentChange', change }));
  }

  treeItem(node: AgentChangesNode): vscode.TreeItem {
    if (node.type === 'agentChanges') {
      const item = new vscode.TreeItem('Agent changes', vscode.TreeItemCollapsibleState.Expanded);
      item.id = 'agentChanges';
      item.iconPath = new vscode.ThemeIcon('robot');
      item.description = `${this.count}${this.review ? ' · awaiting review' : ''}`;
      item.contextValue = 'agentChanges';
      item.tooltip = new vscode.MarkdownString(
        'What agents (MCP clients, language-model tools) did to your snippets. **Accept** keeps a change; **Revert** undoes it ' +
          '(a changed snippet gets its previous revision back, a created one goes to the trash, a deleted one comes back).' +
          (this.review ? "\n\nAgents' writes wait here for your review: until you accept one, search, completion and the connector do not see it." : ''),
      );
      return item;
    }
    const { change } = node;
    const item = new vscode.TreeItem(change.name || 'Untitled', vscode.TreeItemCollapsibleState.None);
    item.id = `agentChange:${change.id}`;
    const [icon, color] = KIND_ICONS[change.kind];
    item.iconPath = new vscode.ThemeIcon(change.status === 'proposed' ? 'git-pull-request-draft' : icon, new vscode.ThemeColor(color));
    item.description = `${describeChange(change)} · ${timeAgo(change.updated, Date.now(), 'short') ?? ''}`;
    item.tooltip = tooltip(change);
    item.contextValue = `agentChange:${change.status}:${change.kind}`;
    item.command = { command: 'satchel.agentChange.showDiff', title: "Show the Agent's Change", arguments: [node] };
    return item;
  }

  // ---------------------------------------------------------------- internals

  private connect(connection: Connection | undefined): void {
    this.connection = connection;
    this.list = [];
    this.count = 0;
    this.stream.value = undefined;
    this._onDidChange.fire();
    if (!connection) return;
    const stream = connection.client.agentChangeIdentifiers();
    // Every frame (the full one on each connect, then one per change of the list) means: read the list.
    stream.onFrame(() => this.schedule());
    this.stream.value = stream;
  }

  private schedule(): void {
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.reload();
    }, RELOAD_DELAY_MS);
  }

  private async read(): Promise<void> {
    const connection = this.connection;
    if (!connection) return;
    try {
      const listed = await connection.client.agentChanges.list();
      // A reply from a connection given up meanwhile is not this one's.
      if (connection !== this.connection) return;
      this.list = listed.changes;
      this.count = listed.total;
      this.review = listed.reviewing;
      this._onDidChange.fire();
    } catch (error) {
      this.log.warn(`Could not read the agent changes: ${(error as Error).message}`);
    }
  }
}

/** "Claude Code changed", "Cursor proposes deleting". */
export function describeChange(change: AgentChange): string {
  if (change.status === 'proposed') {
    const what = change.kind === 'created' ? 'saving' : change.kind === 'changed' ? 'a change' : 'deleting';
    return `${change.agent.name} proposes ${what}`;
  }
  return `${change.agent.name} ${change.kind}${change.writes > 1 ? ` (${change.writes} writes)` : ''}`;
}

function tooltip(change: AgentChange): vscode.MarkdownString {
  const markdown = new vscode.MarkdownString();
  markdown.appendMarkdown(`**${escapeMarkdown(change.name || 'Untitled')}** — ${escapeMarkdown(describeChange(change))}\n\n`);
  markdown.appendMarkdown(`${change.writes > 1 ? `First write ${when(change.created)}, last ${when(change.updated)}` : when(change.updated)}\n\n`);
  if (change.status === 'proposed') markdown.appendMarkdown('It counts for nothing until you **accept** it; **Reject** drops it. Click to see what it would change.');
  else if (change.kind === 'changed') markdown.appendMarkdown("**Revert** restores the revision before the agent's change (the agent's stays in the history). Click to see the diff.");
  else if (change.kind === 'created') markdown.appendMarkdown('**Revert** moves the snippet to the trash. Click to see it.');
  else markdown.appendMarkdown('**Revert** brings the snippet back. Click to see what was deleted.');
  return markdown;
}

function when(iso: string): string {
  return new Date(iso).toLocaleString();
}
