/**
 * The Trash node's actions: Restore (also the delete toast's Undo), Delete Forever and Empty Trash
 * (each confirmed in a modal dialog; emptying shows progress and can be cancelled), and listing
 * more of it. Everything goes through the host's trash operations (client/trash.ts).
 */
import * as vscode from 'vscode';
import type { Emptied, TrashDeleted, TrashItem, TrashRestored } from '../../client/trash.ts';
import { ClientError } from '../../client/errors.ts';
import type { AssetsNode } from '../views/assetsView.ts';
import { connected, type CommandMap, type Services } from './services.ts';

export type TrashArg = AssetsNode | TrashItem | string | undefined;

/** Confirmations a caller (a test, a keybinding's args) has already asked for. */
interface Confirmed {
  readonly confirmed?: boolean;
}

export function trashCommands(s: Services): CommandMap {
  const { server, assets } = s;
  const pages = assets.trash;

  const entryOf = async (arg: TrashArg): Promise<TrashItem> => {
    if (typeof arg === 'string') return pages.item(arg) ?? (await gone(s, arg, () => connected(server).client.trash.get(arg)));
    if (arg && 'kind' in arg) return arg;
    if (arg?.type === 'trashEntry') return arg.entry;
    throw new Error('Choose a deleted snippet or conversation under Trash in the Assets view.');
  };

  return {
    'satchel.trash.restore': async (arg?: TrashArg): Promise<TrashRestored> => {
      const entry = await entryOf(arg);
      const restored = await restoreFromTrash(s, entry.id, nameOf(entry));
      void vscode.window.setStatusBarMessage(`$(discard) Restored "${nameOf(entry)}"`, 4_000);
      return restored;
    },
    'satchel.trash.deleteForever': async (arg?: TrashArg, options?: Confirmed): Promise<TrashDeleted | false> => {
      const entry = await entryOf(arg);
      if (!options?.confirmed) {
        const answer = await vscode.window.showWarningMessage(
          `Delete "${nameOf(entry)}" forever?`,
          {
            modal: true,
            detail:
              entry.kind === 'asset'
                ? 'The snippet and its history are deleted for good. This cannot be undone.'
                : `The conversation and its ${entry.messages ?? 0} message${entry.messages === 1 ? '' : 's'} are deleted for good. This cannot be undone.`,
          },
          'Delete Forever',
        );
        if (answer !== 'Delete Forever') return false;
      }
      const deleted = await gone(s, entry.id, () => connected(server).client.trash.deleteForever(entry.id), nameOf(entry));
      pages.drop(entry.id);
      pages.invalidate();
      void vscode.window.setStatusBarMessage(`$(trash) Deleted "${nameOf(entry)}" forever`, 4_000);
      return deleted;
    },
    // From the Trash node's menu the first argument is the node; from the palette there is none.
    'satchel.trash.empty': async (_node?: AssetsNode, options?: Confirmed): Promise<Emptied | undefined> => {
      const { client } = connected(server);
      await pages.reload();
      const count = pages.count;
      if (count === 0) {
        void vscode.window.showInformationMessage('The trash is empty.');
        return undefined;
      }
      if (!options?.confirmed) {
        const answer = await vscode.window.showWarningMessage(
          'Empty the trash?',
          {
            modal: true,
            detail: `${count === 1 ? 'The deleted snippet or conversation in it is' : `All ${count} deleted snippets and conversations in it are`} deleted for good. This cannot be undone.`,
          },
          'Empty Trash',
        );
        if (answer !== 'Empty Trash') return undefined;
      }
      const emptied = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'Emptying the trash', cancellable: true },
        async (progress, token) => {
          const controller = new AbortController();
          const cancel = token.onCancellationRequested(() => controller.abort());
          let shown = 0;
          try {
            return await client.trash.empty({
              signal: controller.signal,
              onProgress: ({ deleted, total }) => {
                progress.report({ increment: total > 0 ? ((deleted - shown) / total) * 100 : 0, message: `${deleted} of ${total}` });
                shown = deleted;
              },
            });
          } catch (error) {
            // Cancelled: the host stops between steps; what it deleted stays deleted.
            if (controller.signal.aborted) return undefined;
            throw error;
          } finally {
            cancel.dispose();
          }
        },
      );
      await pages.reload();
      if (!emptied) {
        void vscode.window.showInformationMessage(`Stopped emptying the trash; ${pages.count} ${pages.count === 1 ? 'entry is' : 'entries are'} still in it.`);
        return undefined;
      }
      const backup = emptied.backup ? ` A copy of the store was kept first: backups/${emptied.backup}.` : '';
      void vscode.window.showInformationMessage(`Deleted ${emptied.deleted} ${emptied.deleted === 1 ? 'entry' : 'entries'} forever.${backup}`);
      return emptied;
    },
    'satchel.trash.loadMore': () => pages.loadMore(),
  };
}

/**
 * Brings a deleted snippet or conversation back whole under its id, and shows it again in its
 * view (the Trash node's Restore, the delete toast's Undo).
 */
export async function restoreFromTrash(s: Services, id: string, name?: string): Promise<TrashRestored> {
  const restored = await gone(s, id, () => connected(s.server).client.trash.restore(id), name);
  s.assets.trash.drop(id);
  s.assets.trash.invalidate();
  if (restored.kind === 'asset') await s.assets.reload(id);
  else await s.conversations.reload(id);
  return restored;
}

/** `call`, with a 404 told as what it means here: the entry left the trash (restored, deleted or emptied elsewhere). */
async function gone<T>(s: Services, id: string, call: () => Promise<T>, name?: string): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof ClientError && error.notFound)) throw error;
    s.assets.trash.drop(id);
    s.assets.trash.invalidate();
    throw new Error(`${name ? `"${name}"` : 'This entry'} is no longer in the trash (restored, deleted forever or emptied meanwhile).`, { cause: error });
  }
}

function nameOf(entry: TrashItem): string {
  return entry.name || (entry.kind === 'conversation' ? 'Untitled conversation' : 'Untitled');
}
