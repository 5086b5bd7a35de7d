/**
 * The Conflicts view: each conflict copy a sync made (the losing machine's version of a snippet two
 * machines changed at the same time), labelled for this machine: the copy is yours where it was
 * made, theirs on the machine whose version won. Selecting one opens a diff of their version
 * against yours with every field (conflictText.ts); its actions settle it: Keep Mine, Keep Theirs
 * (asking which fields when several differ), Keep Both.
 */
import * as vscode from 'vscode';
import { Owner } from '../../core/lifecycle.ts';
import type { ServerController } from '../serverController.ts';
import type { Log } from '../log.ts';
import type { ConflictChoice, ConflictField, SyncConflict } from '../../client/sync.ts';
import { compareTitle, conflictDocument, conflictLabels, fieldLabel, fieldsToAsk, pickedFields } from './conflictText.ts';

export const CONFLICTS_VIEW = 'satchel.conflicts';
const HAS_CONFLICTS = 'satchel.sync.hasConflicts';
/** The read-only documents a compare shows: satchel-conflict:/<copy>/<mine|theirs>/<name>. */
const CONFLICT_SCHEME = 'satchel-conflict';

export class ConflictItem extends vscode.TreeItem {
  readonly conflict: SyncConflict;
  constructor(conflict: SyncConflict) {
    super(conflict.name, vscode.TreeItemCollapsibleState.None);
    this.conflict = conflict;
    this.id = conflict.copy;
    this.contextValue = 'conflict';
    this.iconPath = new vscode.ThemeIcon('git-compare');
    const labels = conflictLabels(conflict);
    this.description = labels.description;
    this.tooltip = labels.tooltip;
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
  /** The compare documents' texts, by URI (kept while the view lives; a compare again replaces its own). */
  private readonly documents = new Map<string, string>();

  constructor(server: ServerController, log: Log, changed: () => void) {
    super();
    this.server = server;
    this.log = log;
    this.changed = changed;
    this.view = this._register(vscode.window.createTreeView(CONFLICTS_VIEW, { treeDataProvider: this }));
    this._register(vscode.workspace.registerTextDocumentContentProvider(CONFLICT_SCHEME, { provideTextDocumentContent: (uri) => this.documents.get(uri.toString()) ?? '' }));
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
    const connection = this.server.connection;
    if (!item || !connection) return;
    try {
      const sides = await connection.client.sync.conflict(item.conflict.copy);
      const uri = (side: 'mine' | 'theirs'): vscode.Uri => {
        const made = vscode.Uri.from({ scheme: CONFLICT_SCHEME, path: `/${item.conflict.copy}/${side}/${sides.mine.name.replace(/[/\\]/g, '_')}` });
        this.documents.set(made.toString(), conflictDocument(sides[side]));
        return made;
      };
      await vscode.commands.executeCommand('vscode.diff', uri('theirs'), uri('mine'), compareTitle(sides));
    } catch (error) {
      void vscode.window.showErrorMessage(`Could not compare the conflict: ${(error as Error).message}`);
    }
  }

  async settle(item: ConflictItem | undefined, keep: ConflictChoice): Promise<void> {
    const connection = this.server.connection;
    if (!item || !connection) return;
    try {
      let fields: readonly ConflictField[] | undefined;
      if (keep !== 'both') {
        const ask = fieldsToAsk(await connection.client.sync.conflict(item.conflict.copy));
        if (ask.length > 0) {
          const picked = await vscode.window.showQuickPick(
            ask.map((field) => ({ label: fieldLabel(field), field, picked: true })),
            { canPickMany: true, title: `Keep ${keep === 'mine' ? 'your' : 'their'} version of these fields (the others keep the other version)`, ignoreFocusOut: true },
          );
          if (picked === undefined) return;
          fields = pickedFields(ask, picked.map((choice) => choice.field));
        }
      }
      await connection.client.sync.resolve(item.conflict.copy, keep, fields);
    } catch (error) {
      void vscode.window.showErrorMessage(`Could not settle the conflict: ${(error as Error).message}`);
      return;
    }
    this.items = this.items.filter((other) => other !== item);
    this._onDidChangeTreeData.fire();
    this.changed();
  }
}
