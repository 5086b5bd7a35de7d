/**
 * The Assets view: a "Suggestions" node (quiet-mode connector suggestions), the "Agent changes" and
 * "Memories" nodes (memoriesNode.ts: agents' notes, apart from the code), then the other assets grouped
 * by language or by tag, then the Trash (views/trashNodes.ts) while it holds anything. The data is a
 * LiveCollection on `/assets/stream/identifiers`, so changes made by any tool on the port show up here.
 */
import * as vscode from 'vscode';
import type { Asset } from '../../core/piecesTypes.ts';
import { assetLanguage } from '../../client/assets.ts';
import type { LiveCollectionSource } from '../liveCollection.ts';
import { LiveTreeView } from './liveTreeView.ts';
import type { ServerController, Connection } from '../serverController.ts';
import type { CopyConnector, PendingSuggestion } from '../copyConnector.ts';
import type { Log } from '../log.ts';
import { snippetUri } from '../editing/snippetFileSystem.ts';
import { languageName } from '../languageNames.ts';
import { AgentChangesSection, type AgentChangesNode } from './agentChangesNode.ts';
import { TrashPages, whenCountChanges } from '../trashPages.ts';
import { isTrashNode, TRASH_ROOT, trashChildren, trashTreeItem, type TrashNode } from './trashNodes.ts';
import { assetTooltip, codePreview } from './assetTooltip.ts';
import { timeAgo } from '../../core/timeAgo.ts';
import { MemoriesSection, memoryTooltip } from './memoriesNode.ts';

/** The group key of the assets under the Memories node. */
const MEMORIES = 'memories';
import { assetSecrets, hideSecrets } from '../secrets/snippetSecrets.ts';

export type Grouping = 'language' | 'tag';

export type AssetsNode =
  | { readonly type: 'suggestions' }
  | { readonly type: 'suggestion'; readonly suggestion: PendingSuggestion }
  | { readonly type: 'memories' }
  | { readonly type: 'group'; readonly key: string; readonly label: string; readonly assets: readonly Asset[] }
  | { readonly type: 'asset'; readonly asset: Asset; readonly group: string }
  | AgentChangesNode
  | TrashNode;

export class AssetsView extends LiveTreeView<Asset, AssetsNode> {
  private readonly server: ServerController;
  private readonly connector: CopyConnector;
  private grouping: Grouping = 'language';
  /** The "Agent changes" node: what agents did, until the user accepts or reverts it. */
  readonly agentChanges: AgentChangesSection;
  /** Fires after the asset collection changed (tests and previews wait on it). */
  readonly onDidChangeAssets = this.onDidChangeItems;
  /** The Trash node's listing (read again when an asset goes or comes back). */
  readonly trash: TrashPages;
  /** The "Memories" node: which assets are memories, and which of those may be stale. */
  readonly memories: MemoriesSection;

  constructor(server: ServerController, connector: CopyConnector, log: Log, dragAndDropController?: vscode.TreeDragAndDropController<AssetsNode>) {
    super('satchel.assets', log, { showCollapseAll: true, ...(dragAndDropController ? { dragAndDropController } : {}) });
    this.server = server;
    this.connector = connector;
    this.trash = this._register(new TrashPages(log));
    this._register(connector.onDidChangeSuggestions(() => this.refreshView()));
    this.agentChanges = this._register(new AgentChangesSection(server, log));
    this._register(this.agentChanges.onDidChange(() => this.refreshView()));
    this._register(this.trash.onDidChange(() => this.refreshView()));
    this.memories = this._register(new MemoriesSection(server, log));
    this._register(this.memories.onDidChange(() => this.refreshView()));
    this._register(this.onDidChangeItems(() => this.memories.schedule()));
    this._register(whenCountChanges(this.onDidChangeItems, () => this.items.length, () => this.trash.invalidate()));
    const listTrash = (connection: Connection | undefined) => void this.trash.connect(connection && ((options) => connection.client.trash.list(options)));
    this._register(server.onDidChangeConnection(listTrash));
    listTrash(server.connection);
    this.follow(server);
    void this.setGrouping('language');
  }

  get assets(): readonly Asset[] {
    return this.items;
  }

  asset(id: string): Asset | undefined {
    return this.item(id);
  }

  async setGrouping(grouping: Grouping): Promise<void> {
    this.grouping = grouping;
    await vscode.commands.executeCommand('setContext', 'satchel.assetsGrouping', grouping);
    this.refreshView();
  }

  protected source(connection: Connection): LiveCollectionSource<Asset> {
    return {
      open: () => connection.client.assetIdentifiers(),
      key: (entry) => entry.asset?.id,
      // Without their content: the tree shows names, languages, tags and secret counts; what reads a
      // snippet's text (hover, copy, insert, drag) asks the host for it then (see `hasContent`).
      fetch: async (id) => (await connection.client.snippets.byId([id]))[0],
      fetchMany: async (ids) => new Map((await connection.client.snippets.byId(ids)).map((asset) => [asset.id, asset])),
    };
  }

  /** Reconnects the stream and reads the trash again. */
  override refresh(): void {
    super.refresh();
    void this.trash.reload();
  }

  protected describe(): string | undefined {
    return this.items.length ? `${this.items.length}` : undefined;
  }

  protected override refreshView(): void {
    super.refreshView();
    const pending = this.connector.suggestions.length;
    const changes = this.agentChanges?.total ?? 0;
    const tooltip = [pending && `${pending} suggestions`, changes && `${changes} agent changes to review`].filter(Boolean).join(', ');
    this.treeView.badge = pending + changes ? { value: pending + changes, tooltip } : undefined;
  }

  getChildren(node?: AssetsNode): AssetsNode[] {
    if (!node) {
      const roots: AssetsNode[] = [];
      if (this.connector.suggestions.length) roots.push({ type: 'suggestions' });
      roots.push(...this.agentChanges.roots());
      if (this.memoryAssets().length > 0) roots.push({ type: 'memories' });
      roots.push(...this.groups());
      if (this.trash.count > 0) roots.push(TRASH_ROOT);
      return roots;
    }
    switch (node.type) {
      case 'trash':
        return trashChildren(this.trash);
      case 'suggestions':
        return this.connector.suggestions.map((suggestion) => ({ type: 'suggestion', suggestion }));
      case 'agentChanges':
        return this.agentChanges.children();
      case 'memories':
        // Opened: the files its memories cite are checked again when the list is a few seconds old.
        this.memories.refreshIfOld();
        return this.memoryAssets().map((asset) => ({ type: 'asset', asset, group: MEMORIES }));
      case 'group':
        return [...node.assets]
          .sort((a, b) => (b.updated?.value ?? '').localeCompare(a.updated?.value ?? ''))
          .map((asset) => ({ type: 'asset', asset, group: node.key }));
      default:
        return [];
    }
  }

  /** Stable parents let `reveal` find assets. */
  getParent(node: AssetsNode): AssetsNode | undefined {
    if (node.type === 'suggestion') return { type: 'suggestions' };
    if (node.type === 'agentChange') return { type: 'agentChanges' };
    if (node.type === 'trashEntry' || node.type === 'trashMore') return TRASH_ROOT;
    if (node.type === 'asset' && node.group === MEMORIES) return { type: 'memories' };
    if (node.type === 'asset') return this.groups().find((group) => group.type === 'group' && group.key === node.group);
    return undefined;
  }

  /** The memories among the assets, newest first (the host's order). */
  private memoryAssets(): Asset[] {
    return this.memories.memories.map((memory) => this.item(memory.id)).filter((asset): asset is Asset => asset !== undefined);
  }

  private groups(): AssetsNode[] {
    const groups = new Map<string, Asset[]>();
    const add = (key: string, asset: Asset) => {
      const list = groups.get(key) ?? [];
      list.push(asset);
      groups.set(key, list);
    };
    for (const asset of this.assets) {
      // Memories are notes, under their own node: not Markdown snippets among the code.
      if (this.memories.has(asset.id)) continue;
      if (this.grouping === 'language') add(assetLanguage(asset) ?? '', asset);
      else {
        const tags = asset.tags?.iterable?.map((tag) => tag.text).filter(Boolean) ?? [];
        if (tags.length === 0) add('', asset);
        for (const tag of tags) add(tag, asset);
      }
    }
    return [...groups.entries()]
      .map(([key, assets]) => ({
        type: 'group' as const,
        key,
        label: this.grouping === 'language' ? languageName(key || undefined) : key ? `#${key}` : 'Untagged',
        assets,
      }))
      .sort((a, b) => (a.key === '' ? 1 : b.key === '' ? -1 : a.label.localeCompare(b.label)));
  }

  getTreeItem(node: AssetsNode): vscode.TreeItem {
    if (isTrashNode(node)) return trashTreeItem(node, this.trash);
    switch (node.type) {
      case 'agentChanges':
      case 'agentChange':
        return this.agentChanges.treeItem(node);
      case 'memories': {
        const memories = this.memoryAssets();
        const stale = memories.filter((asset) => this.memories.memory(asset.id)?.stale).length;
        const item = new vscode.TreeItem('Memories', vscode.TreeItemCollapsibleState.Collapsed);
        item.id = 'memories';
        item.description = stale > 0 ? `${memories.length}, ${stale} may be stale` : `${memories.length}`;
        item.iconPath = new vscode.ThemeIcon('notebook');
        item.contextValue = 'memories';
        return item;
      }
      case 'suggestions': {
        const item = new vscode.TreeItem(`Suggestions (${this.connector.suggestions.length})`, vscode.TreeItemCollapsibleState.Expanded);
        item.id = 'suggestions';
        item.iconPath = new vscode.ThemeIcon('lightbulb');
        item.contextValue = 'suggestions';
        return item;
      }
      case 'suggestion': {
        const { suggestion } = node;
        const firstLine = suggestion.text.trim().split('\n')[0]!.slice(0, 60);
        const label = suggestion.kind === 'reuse' ? `Already saved: ${suggestion.asset?.name ?? 'asset'}` : `Save? ${firstLine}`;
        const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
        item.id = `suggestion:${suggestion.id}`;
        item.description = timeAgo(new Date(suggestion.created).toISOString(), Date.now(), 'short') ?? '';
        item.iconPath = new vscode.ThemeIcon(suggestion.kind === 'reuse' ? 'references' : 'save');
        item.tooltip = codePreview(suggestion.text, suggestion.language);
        item.contextValue = `suggestion:${suggestion.kind}`;
        return item;
      }
      case 'group': {
        const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.Expanded);
        item.id = `group:${this.grouping}:${node.key}`;
        item.description = `${node.assets.length}`;
        item.iconPath = new vscode.ThemeIcon(this.grouping === 'language' ? 'symbol-namespace' : 'tag');
        item.contextValue = 'group';
        return item;
      }
      case 'asset': {
        const { asset } = node;
        const language = assetLanguage(asset);
        const name = asset.name || 'Untitled';
        const secrets = assetSecrets(asset);
        const item = new vscode.TreeItem(secrets.length ? hideSecrets(name, secrets) : name, vscode.TreeItemCollapsibleState.None);
        item.id = `asset:${node.group}:${asset.id}`;
        item.description = timeAgo(asset.updated?.value, Date.now(), 'short') ?? '';
        // The editable document's URI: the file icon theme draws the language's icon from it.
        item.resourceUri = snippetUri(asset.id, name, language);
        item.iconPath = vscode.ThemeIcon.File;
        item.contextValue = 'asset';
        if (secrets.length) {
          // A key instead of the language's icon: the snippet holds a secret (the hover says which kinds).
          item.iconPath = new vscode.ThemeIcon('key', new vscode.ThemeColor('list.warningForeground'));
          const count = secrets.length === 1 ? '1 secret' : `${secrets.length} secrets`;
          item.description = item.description ? `${count} · ${item.description}` : count;
          item.contextValue = 'asset:secret';
        }
        item.command = { command: 'satchel.asset.open', title: 'Open', arguments: [node] };
        const memory = node.group === MEMORIES ? this.memories.memory(asset.id) : undefined;
        if (memory) {
          item.iconPath = memory.stale ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground')) : new vscode.ThemeIcon('note');
          item.description = memory.stale ? `may be stale · ${item.description}` : item.description;
          item.tooltip = memoryTooltip(memory);
        }
        return item;
      }
    }
  }

  /** The hover, made when it is shown (with the description the host keeps), not for every item of the view. */
  async resolveTreeItem(item: vscode.TreeItem, node: AssetsNode, token: vscode.CancellationToken): Promise<vscode.TreeItem> {
    if (node.type !== 'asset' || node.group === MEMORIES) return item;
    const client = this.server.connection?.client;
    const controller = new AbortController();
    const cancel = token.onCancellationRequested(() => controller.abort());
    try {
      const flagged = assetSecrets(node.asset).length > 0;
      // The tree holds each snippet without its text: the code preview's is read for the hover.
      const [full, info, sync] = await Promise.all([
        client?.snippets.byId([node.asset.id], { transferables: true, signal: controller.signal }),
        client?.snippets.info(node.asset.id, controller.signal),
        flagged ? client?.secrets.syncsWithSecrets(node.asset.id, controller.signal) : undefined,
      ]);
      const syncsWithSecret = sync?.include;
      const asset = full?.[0] ?? node.asset;
      item.tooltip = assetTooltip(asset, info ? { tags: info.tags, description: info.description, syncsWithSecret } : { syncsWithSecret });
    } catch {
      item.tooltip = assetTooltip(node.asset);
    } finally {
      cancel.dispose();
    }
    return item;
  }
}
