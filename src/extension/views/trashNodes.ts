/**
 * The Trash node of the Assets view and what it lists: deleted snippets and conversations, newest
 * deleted first, a page at a time with a "Load more" node after the last one shown. Restore,
 * Delete Forever and Empty Trash are their context-menu actions (commands/trashCommands.ts).
 */
import * as vscode from 'vscode';
import type { TrashItem } from '../../client/trash.ts';
import { TRASH_PAGE, type TrashPages } from '../trashPages.ts';
import { fileNameFor, languageName } from '../languageNames.ts';
import { timeAgo } from '../../core/timeAgo.ts';
import { escapeMarkdown } from '../../core/markdown.ts';

export type TrashNode =
  | { readonly type: 'trash' }
  | { readonly type: 'trashEntry'; readonly entry: TrashItem }
  | { readonly type: 'trashMore'; readonly remaining: number };

/** The one Trash node (VS Code finds a node again by its object). */
export const TRASH_ROOT: TrashNode = { type: 'trash' };

const PREVIEW_LINES = 12;

/** One node per listed entry while the listing keeps it: `reveal` and refreshes find nodes by their object. */
const entryNodes = new WeakMap<TrashItem, TrashNode>();

export function isTrashNode(node: { readonly type: string }): node is TrashNode {
  return node.type === 'trash' || node.type === 'trashEntry' || node.type === 'trashMore';
}

/** The Trash node's children: the entries listed so far, then "Load more" while there are others. */
export function trashChildren(pages: TrashPages): TrashNode[] {
  const nodes = pages.items.map((entry) => {
    let node = entryNodes.get(entry);
    if (!node) entryNodes.set(entry, (node = { type: 'trashEntry', entry }));
    return node;
  });
  if (pages.remaining > 0) nodes.push({ type: 'trashMore', remaining: pages.remaining });
  return nodes;
}

export function trashTreeItem(node: TrashNode, pages: TrashPages): vscode.TreeItem {
  switch (node.type) {
    case 'trash': {
      const item = new vscode.TreeItem('Trash', vscode.TreeItemCollapsibleState.Collapsed);
      item.id = 'trash';
      item.description = `${pages.count}`;
      item.iconPath = new vscode.ThemeIcon('trash');
      item.tooltip = `Deleted snippets and conversations, ${keptFor(pages.retentionDays)}. Restore one, or delete it forever, from its context menu.`;
      item.contextValue = 'trash';
      return item;
    }
    case 'trashMore': {
      const item = new vscode.TreeItem(`Load ${Math.min(node.remaining, TRASH_PAGE)} more…`, vscode.TreeItemCollapsibleState.None);
      item.id = 'trash:more';
      item.description = `${node.remaining} not shown`;
      item.iconPath = new vscode.ThemeIcon('ellipsis');
      item.contextValue = 'trashMore';
      item.command = { command: 'satchel.trash.loadMore', title: 'Load More' };
      return item;
    }
    case 'trashEntry':
      return entryItem(node.entry);
  }
}

function entryItem(entry: TrashItem): vscode.TreeItem {
  const conversation = entry.kind === 'conversation';
  const name = entry.name || (conversation ? 'Untitled conversation' : 'Untitled');
  const item = new vscode.TreeItem(name, vscode.TreeItemCollapsibleState.None);
  item.id = `trash:${entry.id}`;
  const what = conversation ? `${entry.messages ?? 0} message${entry.messages === 1 ? '' : 's'}` : languageName(entry.language);
  // Short enough for a narrow side bar: the icon tells the language, the tooltip the rest.
  item.description = `deleted ${timeAgo(entry.deleted, Date.now(), 'short') ?? ''}`;
  if (conversation) item.iconPath = new vscode.ThemeIcon('comment-discussion');
  else {
    // A file-like URI lets the file icon theme draw the language's icon (nothing opens it).
    item.resourceUri = vscode.Uri.from({ scheme: 'satchel-trash', path: `/${fileNameFor(name, entry.language)}` });
    item.iconPath = vscode.ThemeIcon.File;
  }
  item.tooltip = entryTooltip(entry, name, what);
  item.contextValue = `trashEntry:${entry.kind}`;
  return item;
}

function entryTooltip(entry: TrashItem, name: string, what: string): vscode.MarkdownString {
  const markdown = new vscode.MarkdownString();
  markdown.appendMarkdown(`**${escapeMarkdown(name)}** · ${escapeMarkdown(what)}\n\n`);
  markdown.appendMarkdown(`Deleted ${escapeMarkdown(new Date(entry.deleted).toLocaleString())} by ${escapeMarkdown(entry.deletedBy.name)}. `);
  markdown.appendMarkdown(entry.expires === null ? 'Kept until the trash is emptied.\n\n' : `Deleted for good ${escapeMarkdown(until(entry.expires))}.\n\n`);
  const lines = entry.preview.split('\n');
  markdown.appendCodeblock(lines.slice(0, PREVIEW_LINES).join('\n'), entry.kind === 'asset' ? (entry.language ?? '') : '');
  return markdown;
}

function keptFor(days: number | undefined): string {
  if (days === undefined) return 'kept for a while';
  return days === 0 ? 'kept until the trash is emptied' : `kept ${days} day${days === 1 ? '' : 's'}`;
}

/** "in 3 days", "within a day" (a retention pass runs every hour). */
function until(iso: string, now = Date.now()): string {
  const days = Math.round((Date.parse(iso) - now) / 86_400_000);
  return days >= 1 ? `in ${days} day${days === 1 ? '' : 's'}` : 'within a day';
}
