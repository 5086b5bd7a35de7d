/**
 * The Assets view: a "Suggestions" node (quiet-mode connector suggestions), the "Agent changes" and
 * "Memories" nodes (memoriesNode.ts: agents' notes, apart from the code), then the other assets grouped
 * by language or by tag, then the Trash (views/trashNodes.ts) while it holds anything. It holds only
 * what it shows (assetsData.ts): the host's group counts, the pages of the groups the user opened
 * ("Load more…" reads the next), let go when a group is collapsed or left unread; the identifiers
 * stream on `/assets/stream/identifiers` says what changed, so changes made by any tool on the port
 * show up here.
 */
import * as vscode from 'vscode';
import type { Asset } from '../../core/piecesTypes.ts';
import { assetLanguage } from '../../client/assets.ts';
import type { ServerController, Connection } from '../serverController.ts';
import type { CopyConnector, PendingSuggestion } from '../copyConnector.ts';
import type { Log } from '../log.ts';
import { AgentChangesSection, type AgentChangesNode } from './agentChangesNode.ts';
import { TrashPages, whenCountChanges } from '../trashPages.ts';
import { isTrashNode, TRASH_ROOT, trashChildren, trashTreeItem, type TrashNode } from './trashNodes.ts';
import { assetTooltip } from './assetTooltip.ts';
import { MemoriesSection } from './memoriesNode.ts';
import { assetSecrets } from '../secrets/snippetSecrets.ts';
import { Owner, MutableDisposable, toDisposable } from '../../core/lifecycle.ts';
import type { CollectionChange } from '../liveCollection.ts';
import { AssetsData, ASSETS_DATA, type AssetsSource } from './assetsData.ts';
import { GroupPages, type Held } from './groupPages.ts';
import { assetTreeItem, groupNodes, groupTreeItem, memoriesTreeItem, moreTreeItem, suggestionsTreeItem, suggestionTreeItem, type AssetRow, type Grouping, type GroupNode, type MoreRow } from './assetTreeItems.ts';

/** The group key of the assets under the Memories node. */
const MEMORIES = 'memories';
/** A group nobody read for this long is let go (VS Code asks again when it shows it). */
const IDLE_MS = 10 * 60_000;
/** A collapsed group is let go this long after, unless read again. */
const LET_GO_MS = 30_000;

export type { Grouping, GroupNode };

export type AssetsNode =
  | { readonly type: 'suggestions' }
  | { readonly type: 'suggestion'; readonly suggestion: PendingSuggestion }
  | { readonly type: 'memories' }
  | GroupNode
  | AssetRow
  | MoreRow
  | AgentChangesNode
  | TrashNode;

export class AssetsView extends Owner implements vscode.TreeDataProvider<AssetsNode> {
  readonly treeView: vscode.TreeView<AssetsNode>;
  private readonly log: Log;
  private readonly server: ServerController;
  private readonly connector: CopyConnector;
  private grouping: Grouping = 'language';
  private readonly data = this._register(new MutableDisposable<AssetsData>());
  private readonly _onDidChangeTreeData = this._register(new vscode.EventEmitter<AssetsNode | undefined>());
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;
  private readonly _onDidChangeAssets = this._register(new vscode.EventEmitter<CollectionChange>());
  /** Fires after the library changed and what the view holds was read again (tests and previews wait on it). */
  readonly onDidChangeAssets = this._onDidChangeAssets.event;
  /** The "Agent changes" node: what agents did, until the user accepts or reverts it. */
  readonly agentChanges: AgentChangesSection;
  /** The Trash node's listing (read again when an asset goes or comes back). */
  readonly trash: TrashPages;
  /** The "Memories" node: which assets are memories, and which of those may be stale. */
  readonly memories: MemoriesSection;
  /** The memories' records, read a page at a time when the node is opened. */
  private readonly memoryPages: GroupPages<Asset>;

  constructor(server: ServerController, connector: CopyConnector, log: Log, dragAndDropController?: vscode.TreeDragAndDropController<AssetsNode>) {
    super();
    this.log = log;
    this.server = server;
    this.connector = connector;
    this.treeView = this._register(
      vscode.window.createTreeView('satchel.assets', { treeDataProvider: this, showCollapseAll: true, ...(dragAndDropController ? { dragAndDropController } : {}) }),
    );
    this.trash = this._register(new TrashPages(log));
    this._register(connector.onDidChangeSuggestions(() => this.refreshView()));
    this.agentChanges = this._register(new AgentChangesSection(server, log));
    this._register(this.agentChanges.onDidChange(() => this.refreshView()));
    this._register(this.trash.onDidChange(() => this.refreshView()));
    this.memories = this._register(new MemoriesSection(server, log));
    this.memoryPages = new GroupPages<Asset>((_, after, limit) => this.memoryPage(after, limit), (asset) => asset.id, ASSETS_DATA);
    this._register(
      this.memories.onDidChange(() => {
        void this.memoryPages.reload([MEMORIES]).finally(() => this.refreshView());
      }),
    );
    this._register(this.onDidChangeAssets(() => this.memories.schedule()));
    this._register(whenCountChanges(this.onDidChangeAssets, () => this.count, () => this.trash.invalidate()));
    // A collapsed group is let go; one nobody read for a while too.
    this._register(this.treeView.onDidCollapseElement(({ element }) => this.letGo(element)));
    const sweep = setInterval(() => {
      this.data.value?.pages.evictIdle(IDLE_MS);
      this.memoryPages.evictIdle(IDLE_MS);
    }, IDLE_MS / 2);
    sweep.unref?.();
    this._register(toDisposable(() => clearInterval(sweep)));
    const listTrash = (connection: Connection | undefined) => void this.trash.connect(connection && ((options) => connection.client.trash.list(options)));
    this._register(server.onDidChangeConnection(listTrash));
    this._register(server.onDidChangeConnection((connection) => this.connect(connection)));
    // With no connection yet (at activation) the new view is already empty: refreshing it would only
    // have VS Code ask for the same roots again.
    if (server.connection) {
      listTrash(server.connection);
      this.connect(server.connection);
    }
    void vscode.commands.executeCommand('setContext', 'satchel.assetsGrouping', this.grouping);
  }

  /** The records the view holds now: the open groups' and the last changes' (not the library). */
  get assets(): readonly Asset[] {
    return this.data.value?.held() ?? [];
  }

  /** A record the view holds (undefined for one in no open group and not changed lately). */
  asset(id: string): Asset | undefined {
    return this.data.value?.get(id) ?? this.memoryPages.find(id);
  }

  /** How many snippets the library holds (memories apart), as the host counts them. */
  get count(): number {
    return this.data.value?.counts?.total ?? 0;
  }

  get loaded(): Promise<void> {
    return this.data.value?.loaded ?? Promise.resolve();
  }

  async setGrouping(grouping: Grouping): Promise<void> {
    this.grouping = grouping;
    await vscode.commands.executeCommand('setContext', 'satchel.assetsGrouping', grouping);
    await this.data.value?.setGrouping(grouping);
    this.refreshView();
  }

  /** Reconnects the stream (which reads the counts and open groups again) and reads the trash again. */
  refresh(): void {
    this.data.value?.refresh();
    void this.trash.reload();
  }

  /** Reads one record again after a local change, without waiting for the stream. */
  async reload(id: string): Promise<void> {
    await this.data.value?.reload(id);
  }

  /** "Load more…": the group's next page. */
  async loadMore(node: AssetsNode): Promise<void> {
    if (node.type !== 'more') return;
    if (node.group === MEMORIES) await this.memoryPages.more(MEMORIES);
    else await this.data.value?.pages.more(node.group);
    this.refreshView();
  }

  /**
   * The node of a snippet in the tree, its group's pages read up to it (a reveal, a test): its
   * language's group, or its first tag's, or the Memories node's.
   */
  async nodeOf(id: string): Promise<AssetsNode | undefined> {
    const data = this.data.value;
    const client = this.server.connection?.client;
    if (!data || !client) return undefined;
    const [pages, group] = this.memories.has(id)
      ? [this.memoryPages, MEMORIES]
      : await (async () => {
          const asset = this.asset(id) ?? (await client.snippets.byId([id]))[0];
          const key = !asset ? undefined : this.grouping === 'language' ? (assetLanguage(asset) ?? '') : (asset.tags?.iterable?.[0]?.id ?? '');
          return [data.pages, key] as const;
        })();
    if (group === undefined) return undefined;
    const wasHeld = pages.held(group)?.items.length;
    let held = await pages.open(group);
    // A language's newest are on its first page, so a snippet just saved is found at once.
    let asset = held.items.find((candidate) => candidate.id === id);
    while (!asset && held.more) {
      await pages.more(group);
      held = pages.held(group) ?? { items: [], more: false };
      asset = held.items.find((candidate) => candidate.id === id);
    }
    // Pages read here are shown: VS Code keeps the children it last asked for, and a reveal waits
    // for this refresh before it looks for the node among them.
    if (held.items.length !== wasHeld) this.refreshView();
    return asset && { type: 'asset', asset, group };
  }

  private connect(connection: Connection | undefined): void {
    this.memoryPages.clear();
    if (!connection) {
      this.data.value = undefined;
      this.refreshView();
      return;
    }
    const client = connection.client;
    const source: AssetsSource = {
      // The connect frame names the newest few, all AssetsData reads of it (not the whole library's ids).
      open: () => client.recentAssetIdentifiers(),
      counts: (by) => client.snippets.groups(by),
      page: async (by, key, after, limit) => {
        const page = await client.snippets.groupPage(by, key, { ...(after !== undefined ? { after } : {}), limit });
        return { items: page.iterable, ...(page.next !== undefined ? { next: page.next } : {}) };
      },
      // Without their content: the tree shows names, languages, tags and secret counts; what reads a
      // snippet's text (hover, copy, insert, drag) asks the host for it then (see `hasContent`).
      byId: (ids) => client.snippets.byId(ids),
    };
    const data = new AssetsData(source, this.grouping, this.log);
    data.onDidChange((change) => {
      // After a (re)connect the frame names only the newest snippets: the memories are read again anyway.
      if (change.full || change.ids.some((id) => this.memories.has(id))) void this.memoryPages.reload([MEMORIES]);
      this.refreshView();
      this._onDidChangeAssets.fire(change);
    });
    this.data.value = data;
    this.refreshView();
  }

  /** A page of the memories' records, in the host's order (newest first); the cursor is an index. */
  private async memoryPage(after: string | undefined, limit: number): Promise<{ items: Asset[]; next?: string }> {
    const client = this.server.connection?.client;
    const start = after === undefined ? 0 : Number(after);
    const ids = this.memories.memories.slice(start, start + limit).map((memory) => memory.id);
    const items = client && ids.length ? await client.snippets.byId(ids) : [];
    const end = start + limit;
    return end < this.memories.count ? { items, next: String(end) } : { items };
  }

  /**
   * A collapsed group is let go a little later, unless read again meanwhile: VS Code collapses and
   * reopens a group around a refresh or a reveal, and reading its first page again each time would
   * leave it answering asynchronously while the next refresh voids the answer.
   */
  private letGo(node: AssetsNode): void {
    const pages = node.type === 'group' ? this.data.value?.pages : node.type === 'memories' ? this.memoryPages : undefined;
    const key = node.type === 'group' ? node.pageKey : MEMORIES;
    if (!pages) return;
    const collapsed = Date.now();
    const timer = setTimeout(() => pages.closeIfUnreadSince(key, collapsed), LET_GO_MS);
    timer.unref?.();
  }

  private describe(): string | undefined {
    return this.count ? `${this.count}` : undefined;
  }

  private refreshView(): void {
    this._onDidChangeTreeData.fire(undefined);
    this.treeView.description = this.describe();
    const pending = this.connector.suggestions.length;
    const changes = this.agentChanges?.total ?? 0;
    const tooltip = [pending && `${pending} suggestions`, changes && `${changes} agent changes to review`].filter(Boolean).join(', ');
    this.treeView.badge = pending + changes ? { value: pending + changes, tooltip } : undefined;
  }

  /** The roots at once; a group's or the Memories' children from what is held, else after their first page. */
  getChildren(): AssetsNode[];
  getChildren(node: AssetsNode | undefined): AssetsNode[] | Promise<AssetsNode[]>;
  getChildren(node?: AssetsNode): AssetsNode[] | Promise<AssetsNode[]> {
    if (!node) {
      const roots: AssetsNode[] = [];
      if (this.connector.suggestions.length) roots.push({ type: 'suggestions' });
      roots.push(...this.agentChanges.roots());
      if (this.memories.count > 0) roots.push({ type: 'memories' });
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
      case 'memories': {
        // Opened: the files its memories cite are checked again when the list is a few seconds old.
        this.memories.refreshIfOld();
        const held = this.memoryPages.held(MEMORIES);
        const shown = (h: Held<Asset>) => this.pageNodes(MEMORIES, h, this.memories.count);
        return held ? shown(held) : this.memoryPages.open(MEMORIES).then(shown, (error: unknown) => this.failed(error));
      }
      case 'group': {
        const data = this.data.value;
        if (!data) return [];
        const held = data.pages.held(node.pageKey);
        const shown = (h: Held<Asset>) => this.pageNodes(node.pageKey, h, node.count);
        return held ? shown(held) : data.pages.open(node.pageKey).then(shown, (error: unknown) => this.failed(error));
      }
      default:
        return [];
    }
  }

  private pageNodes(group: string, held: Held<Asset>, count: number): AssetsNode[] {
    // Each record once: VS Code refuses a second element with the same id, and the whole group with it.
    const seen = new Set<string>();
    const nodes: AssetsNode[] = held.items.flatMap((asset) => (seen.has(asset.id) ? [] : (seen.add(asset.id), [{ type: 'asset' as const, asset, group }])));
    if (held.more) nodes.push({ type: 'more', group, held: held.items.length, count });
    return nodes;
  }

  private failed(error: unknown): AssetsNode[] {
    this.log.warn(`Could not read a group of the Assets view: ${error instanceof Error ? error.message : String(error)}`);
    return [];
  }

  /** Stable parents let `reveal` find assets. */
  getParent(node: AssetsNode): AssetsNode | undefined {
    if (node.type === 'suggestion') return { type: 'suggestions' };
    if (node.type === 'agentChange') return { type: 'agentChanges' };
    if (node.type === 'trashEntry' || node.type === 'trashMore') return TRASH_ROOT;
    if ((node.type === 'asset' || node.type === 'more') && node.group === MEMORIES) return { type: 'memories' };
    if (node.type === 'asset' || node.type === 'more') return this.groups().find((group) => group.pageKey === node.group);
    return undefined;
  }

  private groups(): GroupNode[] {
    const counts = this.data.value?.counts;
    return counts && counts.by === this.grouping ? groupNodes(counts, this.grouping) : [];
  }

  getTreeItem(node: AssetsNode): vscode.TreeItem {
    if (isTrashNode(node)) return trashTreeItem(node, this.trash);
    switch (node.type) {
      case 'agentChanges':
      case 'agentChange':
        return this.agentChanges.treeItem(node);
      case 'memories':
        return memoriesTreeItem(this.memories.memories);
      case 'suggestions':
        return suggestionsTreeItem(this.connector.suggestions.length);
      case 'suggestion':
        return suggestionTreeItem(node.suggestion);
      case 'group':
        // Open at first only while the whole library fits one page: opening every group of a large
        // one would read a page of each.
        return groupTreeItem(node, this.grouping, this.count <= ASSETS_DATA.pageSize);
      case 'more':
        return moreTreeItem(node, this.grouping);
      case 'asset':
        return assetTreeItem(node, node.group === MEMORIES ? this.memories.memory(node.asset.id) : undefined);
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
