/** The Conversations view: conversations (live from their identifiers stream) with their messages. */
import * as vscode from 'vscode';
import type { Conversation, ConversationMessage } from '../../core/wire.ts';
import { LiveCollection } from '../liveCollection.ts';
import { Disposable, MutableDisposable } from '../lifecycle.ts';
import type { ServerController, Connection } from '../serverController.ts';
import type { Log } from '../log.ts';
import { relativeTime } from '../languages.ts';

export type ConversationsNode =
  | { readonly type: 'conversation'; readonly conversation: Conversation }
  | { readonly type: 'message'; readonly message: ConversationMessage };

export class ConversationsView extends Disposable implements vscode.TreeDataProvider<ConversationsNode> {
  readonly treeView: vscode.TreeView<ConversationsNode>;
  private readonly server: ServerController;
  private readonly log: Log;
  private readonly collection = this._register(new MutableDisposable<LiveCollection<Conversation>>());
  private readonly _onDidChangeTreeData = this._register(new vscode.EventEmitter<ConversationsNode | undefined>());
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;

  constructor(server: ServerController, log: Log) {
    super();
    this.server = server;
    this.log = log;
    this.treeView = this._register(vscode.window.createTreeView('satchel.conversations', { treeDataProvider: this }));
    this._register(server.onDidChangeConnection((connection) => this.connect(connection)));
    this.connect(server.connection);
  }

  get conversations(): readonly Conversation[] {
    return this.collection.value?.values ?? [];
  }

  get loaded(): Promise<void> {
    return this.collection.value?.loaded ?? Promise.resolve();
  }

  refresh(): void {
    this.collection.value?.refresh();
  }

  async reload(id: string): Promise<void> {
    await this.collection.value?.reload(id);
  }

  private connect(connection: Connection | undefined): void {
    if (!connection) {
      this.collection.value = undefined;
      this._onDidChangeTreeData.fire(undefined);
      return;
    }
    const collection = new LiveCollection<Conversation>(
      {
        open: () => connection.client.conversationIdentifiers(),
        key: (entry) => entry.conversation?.id,
        fetch: (id) => connection.client.conversations.get(id),
      },
      this.log,
    );
    collection.onDidChange(() => {
      this._onDidChangeTreeData.fire(undefined);
      this.treeView.description = collection.size ? `${collection.size}` : undefined;
    });
    this.collection.value = collection;
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
      item.description = `${count} message${count === 1 ? '' : 's'} · ${relativeTime(conversation.updated?.value)}`;
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
