/** The Conversations view: conversations (live from their identifiers stream) with their messages. */
import * as vscode from 'vscode';
import type { Conversation, ConversationMessage } from '../../core/piecesTypes.ts';
import type { LiveCollectionSource } from '../liveCollection.ts';
import { LiveTreeView } from './liveTreeView.ts';
import type { ServerController, Connection } from '../serverController.ts';
import type { Log } from '../log.ts';
import { timeAgo } from '../../core/timeAgo.ts';

export type ConversationsNode =
  | { readonly type: 'conversation'; readonly conversation: Conversation }
  | { readonly type: 'message'; readonly message: ConversationMessage };

export class ConversationsView extends LiveTreeView<Conversation, ConversationsNode> {
  private readonly server: ServerController;

  constructor(server: ServerController, log: Log) {
    super('satchel.conversations', log);
    this.server = server;
    this.follow(server);
  }

  get conversations(): readonly Conversation[] {
    return this.items;
  }

  protected source(connection: Connection): LiveCollectionSource<Conversation> {
    return {
      open: () => connection.client.conversationIdentifiers(),
      key: (entry) => entry.conversation?.id,
      fetch: (id) => connection.client.conversations.get(id),
    };
  }

  protected describe(): string | undefined {
    return this.items.length ? `${this.items.length}` : undefined;
  }

  async getChildren(node?: ConversationsNode): Promise<ConversationsNode[]> {
    if (!node) {
      return [...this.conversations]
        .sort((a, b) => (b.updated?.value ?? '').localeCompare(a.updated?.value ?? ''))
        .map((conversation) => ({ type: 'conversation', conversation }));
    }
    if (node.type !== 'conversation') return [];
    const connection = this.server.connection;
    if (!connection) return [];
    try {
      const messages = await connection.client.conversations.messages(node.conversation.id);
      return (messages.iterable ?? [])
        .filter((message) => !message.deleted)
        .sort((a, b) => (a.created?.value ?? '').localeCompare(b.created?.value ?? ''))
        .map((message) => ({ type: 'message', message }));
    } catch (error) {
      this.log.warn(`Could not read the messages of ${node.conversation.id}: ${(error as Error).message}`);
      return [];
    }
  }

  getTreeItem(node: ConversationsNode): vscode.TreeItem {
    if (node.type === 'conversation') {
      const { conversation } = node;
      const count = conversation.messages?.iterable?.length ?? 0;
      const item = new vscode.TreeItem(conversation.name || 'Untitled conversation', vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `conversation:${conversation.id}`;
      item.description = `${count} message${count === 1 ? '' : 's'} · ${timeAgo(conversation.updated?.value, Date.now(), 'short') ?? ''}`;
      item.iconPath = new vscode.ThemeIcon('comment-discussion');
      item.contextValue = 'conversation';
      return item;
    }
    const { message } = node;
    const text = message.fragment?.string?.raw ?? '';
    const role = String(message.role ?? '').toLowerCase();
    const item = new vscode.TreeItem(text.trim().split('\n')[0]?.slice(0, 80) || '(empty)', vscode.TreeItemCollapsibleState.None);
    item.id = `message:${message.id}`;
    item.description = role;
    item.iconPath = new vscode.ThemeIcon(role === 'user' ? 'account' : role === 'system' ? 'gear' : 'hubot');
    item.tooltip = new vscode.MarkdownString().appendMarkdown(`**${role}** · ${message.created?.value ?? ''}\n\n`).appendText(text);
    item.contextValue = 'message';
    return item;
  }
}
