/** The Conversations view's actions. */
import * as vscode from 'vscode';
import type { Conversation } from '../../core/piecesTypes.ts';
import type { ConversationsNode } from '../views/conversationsView.ts';
import { pickAsset } from './assetCommands.ts';
import { connected, withStatus, type CommandMap, type Services } from './services.ts';

type ConversationArg = ConversationsNode | Conversation | string | undefined;

function conversationId(arg: ConversationArg): string | undefined {
  if (typeof arg === 'string') return arg;
  if (!arg) return undefined;
  if ('conversation' in arg && arg.type === 'conversation') return arg.conversation.id;
  if ('message' in arg) return arg.message.conversation?.id;
  return 'id' in arg ? arg.id : undefined;
}

export function conversationCommands(s: Services): CommandMap {
  const { server, conversations } = s;
  const required = (arg: ConversationArg): string => {
    const id = conversationId(arg);
    if (!id) throw new Error('Choose a conversation in the Conversations view.');
    return id;
  };
  return {
    'satchel.conversations.refresh': () => conversations.refresh(),
    'satchel.conversations.create': async (name?: string) => {
      const { client } = connected(server);
      const created = await client.conversations.create(typeof name === 'string' && name ? { name } : {});
      await conversations.reload(created.id);
      return created;
    },
    'satchel.conversation.rename': async (arg: ConversationArg) => {
      const id = required(arg);
      const renamed = await withStatus('Generating a title…', () => connected(server).client.conversations.rename(id));
      await conversations.reload(id);
      void vscode.window.setStatusBarMessage(`$(edit) Renamed to "${renamed.name ?? ''}"`, 4_000);
      return renamed;
    },
    'satchel.conversation.summarize': async (arg: ConversationArg) => {
      const id = required(arg);
      const { client } = connected(server);
      const output = await withStatus('Summarizing…', () => client.conversations.summarize(id));
      const annotation = output.annotation?.reference?.text !== undefined ? output.annotation.reference : await client.conversations.annotation(output.annotation.id);
      const name = conversations.conversations.find((c) => c.id === id)?.name ?? 'Conversation';
      const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: `# Summary: ${name}\n\n${annotation.text}\n` });
      await vscode.window.showTextDocument(document, { preview: true });
      return annotation.text;
    },
    'satchel.conversation.associateAsset': async (arg: ConversationArg, assetId?: string) => {
      const id = required(arg);
      const selected = s.assets.treeView.selection.find((node) => node.type === 'asset');
      const asset =
        typeof assetId === 'string' ? assetId : selected?.type === 'asset' ? selected.asset.id : (await pickAsset(s))?.id;
      if (!asset) return undefined;
      await connected(server).client.conversations.associateAsset(id, asset);
      await conversations.reload(id);
      return asset;
    },
    'satchel.conversation.delete': async (arg: ConversationArg, options?: { confirmed?: boolean }) => {
      const id = required(arg);
      const name = conversations.conversations.find((c) => c.id === id)?.name ?? 'this conversation';
      if (!options?.confirmed) {
        const answer = await vscode.window.showWarningMessage(
          `Delete "${name}" and all its messages?`,
          { modal: true, detail: 'It goes to the trash (at the end of the Assets view), where it can be restored whole.' },
          'Delete',
        );
        if (answer !== 'Delete') return false;
      }
      await connected(server).client.conversations.delete(id);
      await conversations.reload(id);
      return true;
    },
  };
}
