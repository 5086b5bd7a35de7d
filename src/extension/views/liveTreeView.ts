/**
 * What the three views share: a tree view over a LiveCollection that is rebuilt whenever the
 * server connection changes (host ↔ client, restart), so every view follows any change made on
 * the port. Subclasses say where their records come from and how to render them.
 */
import * as vscode from 'vscode';
import { LiveCollection, type CollectionChange, type LiveCollectionSource } from '../liveCollection.ts';
import { Owner, MutableDisposable } from '../../core/lifecycle.ts';
import type { ServerController, Connection } from '../serverController.ts';
import type { Log } from '../log.ts';

export abstract class LiveTreeView<T, N> extends Owner implements vscode.TreeDataProvider<N> {
  readonly treeView: vscode.TreeView<N>;
  protected readonly log: Log;
  private readonly collection = this._register(new MutableDisposable<LiveCollection<T>>());
  private readonly _onDidChangeTreeData = this._register(new vscode.EventEmitter<N | undefined>());
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;
  private readonly _onDidChangeItems = this._register(new vscode.EventEmitter<CollectionChange>());
  /** Fires after the records changed, with the ids that did (tests and open documents wait on it). */
  readonly onDidChangeItems = this._onDidChangeItems.event;

  constructor(viewId: string, log: Log, options: { showCollapseAll?: boolean; dragAndDropController?: vscode.TreeDragAndDropController<N> } = {}) {
    super();
    this.log = log;
    this.treeView = this._register(vscode.window.createTreeView(viewId, { treeDataProvider: this, ...options }));
  }

  /**
   * Follows the server's connection; call at the end of the subclass constructor. With none yet (at
   * activation: the data host is found after it) the new view already shows nothing, and a refresh
   * would only have VS Code ask for the same empty tree again.
   */
  protected follow(server: ServerController): void {
    this._register(server.onDidChangeConnection((connection) => this.connect(connection)));
    if (server.connection) this.connect(server.connection);
  }

  /** Where this view's records come from over one connection. */
  protected abstract source(connection: Connection): LiveCollectionSource<T>;

  /** The text beside the view's title (a count, say). */
  protected abstract describe(): string | undefined;

  abstract getChildren(node?: N): N[] | Promise<N[]>;
  abstract getTreeItem(node: N): vscode.TreeItem;

  protected get items(): readonly T[] {
    return this.collection.value?.values ?? [];
  }

  protected item(id: string): T | undefined {
    return this.collection.value?.get(id);
  }

  /** How many records the view holds now. */
  get count(): number {
    return this.collection.value?.size ?? 0;
  }

  get loaded(): Promise<void> {
    return this.collection.value?.loaded ?? Promise.resolve();
  }

  /** Reconnects the stream, which refetches everything. */
  refresh(): void {
    this.collection.value?.refresh();
  }

  /** Refetches one record after a local change, without waiting for the stream. */
  async reload(id: string): Promise<void> {
    await this.collection.value?.reload(id);
  }

  protected refreshView(): void {
    this._onDidChangeTreeData.fire(undefined);
    this.treeView.description = this.describe();
  }

  private connect(connection: Connection | undefined): void {
    if (!connection) {
      this.collection.value = undefined;
      this.refreshView();
      return;
    }
    const collection = new LiveCollection<T>(this.source(connection), this.log);
    collection.onDidChange((change) => {
      this.refreshView();
      this._onDidChangeItems.fire(change);
    });
    this.collection.value = collection;
    this.refreshView();
  }
}
