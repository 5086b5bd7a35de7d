/** What the editing and drag-and-drop tests do in the workbench: the extension, the Assets view, editors. */
import * as vscode from 'vscode';
import { EXTENSION_ID, until } from './support.ts';
import type { SatchelExtension } from '../../../src/extension/satchelExtension.ts';
import { SatchelClient } from '../../../src/client/satchelClient.ts';
import type { AssetsNode } from '../../../src/extension/views/assetsView.ts';

/** The activated extension once it has its server, and a client of the server as another tool would be. */
export async function activated(): Promise<{ api: SatchelExtension; client: SatchelClient; url: string }> {
  const api = await vscode.extensions.getExtension<SatchelExtension>(EXTENSION_ID)!.activate();
  await until('the server role', () => (api.server.connection ? true : undefined), 30_000);
  const url = api.server.connection!.url;
  return { api, client: new SatchelClient(url), url };
}

/** The Assets view in the side bar, its container open and the view expanded. */
export async function showAssets(): Promise<void> {
  await vscode.commands.executeCommand('workbench.view.extension.satchel');
  await vscode.commands.executeCommand('satchel.assets.focus');
  await pause(800);
}

/** Scrolls the Assets view to a snippet (once the view has it), without selecting it. */
export async function revealAsset(api: SatchelExtension, id: string): Promise<void> {
  const node = await until(`${id} in the Assets view`, () => nodeOf(api, id));
  let failure: unknown;
  for (let attempt = 0; attempt < 30; attempt++) {
    try {
      await api.assets.treeView.reveal(node, { select: false, focus: false, expand: true });
      await pause(300);
      return;
    } catch (error) {
      // The tree renders asynchronously: the item may not be there yet.
      failure = error;
      await pause(200);
    }
  }
  throw failure;
}

function nodeOf(api: SatchelExtension, id: string): Promise<AssetsNode | undefined> {
  return api.assets.nodeOf(id);
}

/** Opens a snippet as the Assets view does, and waits for its editable editor. */
export async function openSnippet(id: string): Promise<vscode.TextEditor> {
  await vscode.commands.executeCommand('satchel.asset.open', id);
  return until(`the editor of ${id}`, () => {
    const editor = vscode.window.activeTextEditor;
    return editor?.document.uri.scheme === 'satchel' && editor.document.uri.authority === id && editor;
  });
}

/** Saves the active editor as Ctrl+S does. */
export async function saveActive(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.files.save');
}

/** Closes every editor, dropping unsaved changes (closing them would ask to save). */
export async function discardEditors(): Promise<void> {
  for (let i = 0; i < 50 && vscode.window.tabGroups.all.some((group) => group.tabs.length > 0); i++) {
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  }
}

/**
 * One editor group with no editors, whatever earlier suites left open: a test that opens an editor
 * beside another (ViewColumn.Beside) then finds it in column 2, not one further right.
 */
export async function oneEmptyEditorGroup(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.joinAllGroups');
  await discardEditors();
  await until('one empty editor group', () => vscode.window.tabGroups.all.length === 1 && vscode.window.tabGroups.all[0]!.tabs.length === 0);
}

/** The range of the first occurrence of `text` in the document. */
export function rangeOf(document: vscode.TextDocument, text: string): vscode.Range {
  const at = document.getText().indexOf(text);
  if (at === -1) throw new Error(`"${text}" is not in ${document.uri.toString()}`);
  return new vscode.Range(document.positionAt(at), document.positionAt(at + text.length));
}

export function pause(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
