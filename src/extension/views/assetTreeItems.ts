/**
 * The Assets view's rows (views/assetsView.ts): a snippet, a group and its "Load more…", the Memories
 * node and the connector's suggestions, apart from the view so it stays about what it holds and when.
 */
import * as vscode from 'vscode';
import type { Asset } from '../../core/piecesTypes.ts';
import type { MemoryView } from '../../client/memories.ts';
import { assetLanguage } from '../../client/assets.ts';
import { snippetUri } from '../editing/snippetFileSystem.ts';
import { timeAgo } from '../../core/timeAgo.ts';
import { memoryTooltip } from './memoriesNode.ts';
import { codePreview } from './assetTooltip.ts';
import { languageName } from '../languageNames.ts';
import type { PendingSuggestion } from '../copyConnector.ts';
import type { AssetGroupCounts } from '../../wire/snippets.ts';
import { assetSecrets, hideSecrets } from '../secrets/snippetSecrets.ts';

export type Grouping = 'language' | 'tag';

export interface GroupNode {
  readonly type: 'group';
  /** What commands see: the language, or the tag's text ('' for none). */
  readonly key: string;
  /** The host's key for the group's pages (the tag's id for tags). */
  readonly pageKey: string;
  readonly label: string;
  readonly count: number;
}

export interface AssetRow {
  readonly type: 'asset';
  readonly asset: Asset;
  readonly group: string;
}

export interface MoreRow {
  readonly type: 'more';
  readonly group: string;
  readonly held: number;
  readonly count: number;
}

/** A snippet's row: its name (secrets hidden), age, language icon or a key when it holds a secret; a memory's staleness. */
export function assetTreeItem(node: AssetRow, memory: MemoryView | undefined): vscode.TreeItem {
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
  if (memory) {
    item.iconPath = memory.stale ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground')) : new vscode.ThemeIcon('note');
    item.description = memory.stale ? `may be stale · ${item.description}` : item.description;
    item.tooltip = memoryTooltip(memory);
  }
  return item;
}

/** The row that reads a group's next page. */
export function moreTreeItem(node: MoreRow, grouping: string): vscode.TreeItem {
  const item = new vscode.TreeItem('Load more…', vscode.TreeItemCollapsibleState.None);
  item.id = `more:${grouping}:${node.group}:${node.held}`;
  item.description = `${node.held} of ${node.count}`;
  item.iconPath = new vscode.ThemeIcon('ellipsis');
  item.contextValue = 'more';
  item.command = { command: 'satchel.assets.loadMore', title: 'Load More', arguments: [node] };
  return item;
}

/** The groups as the host counts them (memories apart), by label, the unnamed one last. */
export function groupNodes(counts: AssetGroupCounts, grouping: Grouping): GroupNode[] {
  return counts.groups
    .filter((group) => group.count > 0)
    .map((group) => {
      const tag = group.label ?? group.key;
      return {
        type: 'group' as const,
        key: grouping === 'language' ? group.key : group.key ? tag : '',
        pageKey: group.key,
        label: grouping === 'language' ? languageName(group.key || undefined) : group.key ? `#${tag}` : 'Untagged',
        count: group.count,
      };
    })
    .sort((a, b) => (a.pageKey === '' ? 1 : b.pageKey === '' ? -1 : a.label.localeCompare(b.label)));
}

export function groupTreeItem(node: GroupNode, grouping: Grouping, open: boolean): vscode.TreeItem {
  const item = new vscode.TreeItem(node.label, open ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
  item.id = `group:${grouping}:${node.pageKey}`;
  item.description = `${node.count}`;
  item.iconPath = new vscode.ThemeIcon(grouping === 'language' ? 'symbol-namespace' : 'tag');
  item.contextValue = 'group';
  return item;
}

export function memoriesTreeItem(memories: readonly MemoryView[]): vscode.TreeItem {
  const stale = memories.filter((memory) => memory.stale).length;
  const item = new vscode.TreeItem('Memories', vscode.TreeItemCollapsibleState.Collapsed);
  item.id = 'memories';
  item.description = stale > 0 ? `${memories.length}, ${stale} may be stale` : `${memories.length}`;
  item.iconPath = new vscode.ThemeIcon('notebook');
  item.contextValue = 'memories';
  return item;
}

export function suggestionsTreeItem(count: number): vscode.TreeItem {
  const item = new vscode.TreeItem(`Suggestions (${count})`, vscode.TreeItemCollapsibleState.Expanded);
  item.id = 'suggestions';
  item.iconPath = new vscode.ThemeIcon('lightbulb');
  item.contextValue = 'suggestions';
  return item;
}

export function suggestionTreeItem(suggestion: PendingSuggestion): vscode.TreeItem {
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
