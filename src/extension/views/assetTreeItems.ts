/**
 * The Assets view's rows for a snippet and for a group's "Load more…" (views/assetsView.ts), apart
 * from the view so it stays about what it holds and when.
 */
import * as vscode from 'vscode';
import type { Asset } from '../../core/piecesTypes.ts';
import type { MemoryView } from '../../client/memories.ts';
import { assetLanguage } from '../../client/assets.ts';
import { snippetUri } from '../editing/snippetFileSystem.ts';
import { timeAgo } from '../../core/timeAgo.ts';
import { memoryTooltip } from './memoriesNode.ts';
import { assetSecrets, hideSecrets } from '../secrets/snippetSecrets.ts';

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
