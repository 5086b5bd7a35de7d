/**
 * The Conflicts view: each conflict copy a sync made (this machine's version of a snippet another
 * machine changed at the same time). Selecting one opens a diff (the kept version against yours);
 * its actions settle it: Keep Mine, Keep Theirs, Keep Both.
 */
import * as vscode from 'vscode';
import { Owner } from '../../core/lifecycle.ts';
import type { ServerController } from '../serverController.ts';
import type { Log } from '../log.ts';
import type { ConflictChoice, SyncConflict } from '../../client/sync.ts';
import { snippetUri } from '../editing/snippetFileSystem.ts';

export const CONFLICTS_VIEW = 'satchel.conflicts';
const HAS_CONFLICTS = 'satchel.sync.hasConflicts';

export class ConflictItem extends vscode.TreeItem {
  readonly conflict: SyncConflict;
  constructor(conflict: SyncConflict) {
    super(conflict.name, vscode.TreeItemCollapsibleState.None);
    this.conflict = conflict;
    this.id = conflict.copy;
    this.contextValue = 'conflict';
    this.iconPath = new vscode.ThemeIcon('git-compare');
    this.tooltip = 'Changed here and on another machine at once: the other version was kept, this is yours. Select to compare.';
    this.command = { command: 'satchel.sync.compareConflict', title: 'Compare', arguments: [this] };
  }
}

export class ConflictsView extends Owner implements vscode.TreeDataProvider<ConflictItem> {
  private readonly server: ServerController;
  private readonly log: Log;
  private readonly changed: () => void;
  private readonly _onDidChangeTreeData = this._register(new vscode.EventEmitter<void>());
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;
  private readonly view: vscode.TreeView<ConflictItem>;
  private items: ConflictItem[] = [];

  constructor(server: ServerController, log: Log, changed: () => void) {
    super();
    this.server = server;
    this.log = log;
    this.changed = changed;
    this.view = this._register(vscode.window.createTreeView(CONFLICTS_VIEW, { treeDataProvider: this }));
  }

  /** The conflicts the view lists. */
  get listed(): readonly SyncConflict[] {
    return this.items.map((item) => item.conflict);
  }

  getTreeItem(item: ConflictItem): vscode.TreeItem {
    return item;
  }

  getChildren(): ConflictItem[] {
    return this.items;
  }

  /** Reads the conflicts again when the status says there are some (or there were). */
  async refresh(count: number): Promise<void> {
    if (count === 0 && this.items.length === 0) {
      void vscode.commands.executeCommand('setContext', HAS_CONFLICTS, false);
      return;
    }
    try {
      const conflicts = (await this.server.connection?.client.sync.conflicts()) ?? [];
      this.items = conflicts.map((conflict) => new ConflictItem(conflict));
    } catch (error) {
      this.log.warn(`sync conflicts: ${(error as Error).message}`);
    }
    void vscode.commands.executeCommand('setContext', HAS_CONFLICTS, this.items.length > 0);
    this._onDidChangeTreeData.fire();
  }

  async reveal(): Promise<void> {
    await vscode.commands.executeCommand(`${CONFLICTS_VIEW}.focus`);
  }

  /** The item a command names (a tree item, or a copy's id), or the view's selection (from the palette or a keybinding). */
  itemOf(arg: unknown): ConflictItem | undefined {
    if (arg instanceof ConflictItem) return arg;
    if (typeof arg === 'string') return this.items.find((item) => item.conflict.copy === arg);
    return this.view.selection[0];
  }

  async compare(item: ConflictItem | undefined): Promise<void> {
    if (!item) return;
    const { original, copy, name, language } = item.conflict;
    const title = name.replace(/ \(conflict copy\)$/, '');
    await vscode.commands.executeCommand('vscode.diff', snippetUri(original, title, language), snippetUri(copy, name, language), `${title}: kept ↔ yours (conflict copy)`);
  }

  async settle(item: ConflictItem | undefined, keep: ConflictChoice): Promise<void> {
    const connection = this.server.connection;
    if (!item || !connection) return;
    try {
      await connection.client.sync.resolve(item.conflict.copy, keep);
    } catch (error) {
      void vscode.window.showErrorMessage(`Could not settle the conflict: ${(error as Error).message}`);
    }
    this.items = this.items.filter((other) => other !== item);
    this._onDidChangeTreeData.fire();
    this.changed();
  }
}
