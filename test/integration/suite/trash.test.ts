/**
 * The Trash in a real VS Code: a deleted snippet (and a deleted conversation) appear under the
 * Trash node of the Assets view, newest deleted first; Restore brings the snippet back whole under
 * its id; the delete toast's Undo does the same; Delete Forever and Empty
 * Trash ask in a modal dialog first (VS Code's test mode refuses to show one, which tells what was
 * asked) and then remove entries for good. A screenshot shows the node.
 */
import * as vscode from 'vscode';
import assert from 'node:assert/strict';
import { EXTENSION_ID, screenshot, until } from './support.ts';
import type { SatchelExtension } from '../../../src/extension/satchelExtension.ts';
import type { AssetsNode } from '../../../src/extension/views/assetsView.ts';
import { SatchelClient } from '../../../src/client/satchelClient.ts';
import { ClientError } from '../../../src/client/errors.ts';
import { assetText } from '../../../src/client/assets.ts';
import type { Asset } from '../../../src/core/piecesTypes.ts';

let api: SatchelExtension;
let client: SatchelClient;

function trashRoot(): AssetsNode | undefined {
  return api.assets.getChildren().find((node) => node.type === 'trash');
}

/** The entries under the Trash node, as the view lists them. */
function trashEntries(): Array<Extract<AssetsNode, { type: 'trashEntry' }>> {
  const root = trashRoot();
  if (!root) return [];
  const children = api.assets.getChildren(root);
  if (!Array.isArray(children)) return [];
  return children.flatMap((node) => (node.type === 'trashEntry' ? [node] : []));
}

function entryNode(id: string): Extract<AssetsNode, { type: 'trashEntry' }> | undefined {
  return trashEntries().find((node) => node.entry.id === id);
}

async function status(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
    return 200;
  } catch (error) {
    assert.ok(error instanceof ClientError, String(error));
    return error.status;
  }
}

/** A command that must ask in a modal dialog before it acts: VS Code's test mode refuses the dialog, naming its message. */
async function refusedDialog(command: Thenable<unknown>): Promise<string> {
  try {
    await command;
  } catch (error) {
    const match = /refused to show dialog in tests\. Contents: (.*)/.exec((error as Error).message);
    if (match) return match[1]!;
    throw error;
  }
  assert.fail('the command acted without asking');
}

async function saveSnippet(name: string, text: string, tags: string): Promise<Asset> {
  const application = await api.server.application();
  const asset = await client.assets.createFromText({ text, application, language: 'ts', name });
  await vscode.commands.executeCommand('satchel.asset.tags', asset.id, tags);
  await until(`${name} with its tags in the tree`, () => (api.assets.asset(asset.id)?.tags?.iterable?.length ?? 0) > 0);
  return client.assets.get(asset.id);
}

describe('Trash in VS Code', function () {
  before(async function () {
    const extension = vscode.extensions.getExtension<SatchelExtension>(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is installed`);
    api = await extension.activate();
    await until('the server connection', () => api.server.connection, 30_000);
    client = new SatchelClient(api.server.connection!.url);
    // Suites before this one leave what they deleted (agents' reverts among them): start from an empty trash.
    await client.trash.empty();
    await api.assets.trash.reload();
    await until('an empty trash in the tree', () => trashRoot() === undefined);
  });

  after(() => client?.dispose());

  it('a deleted snippet is listed under Trash; Restore brings it back whole; Delete Forever removes it after asking', async function () {
    this.timeout(120_000);
    const kept = await saveSnippet('Retry with backoff', 'export async function retry<T>(fn: () => Promise<T>, attempts = 3): Promise<T> {\n  for (let i = 1; ; i++) {\n    try {\n      return await fn();\n    } catch (error) {\n      if (i >= attempts) throw error;\n    }\n  }\n}\n', 'async');
    const before = await saveSnippet(
      'Clamp a number',
      'export function clamp(value: number, low: number, high: number): number {\n  return Math.min(high, Math.max(low, value));\n}\n',
      'math, numbers',
    );
    await vscode.commands.executeCommand('satchel.asset.delete', before.id);
    await until('the snippet to leave the tree', () => !api.assets.asset(before.id));
    const listed = await until('the snippet under Trash', () => entryNode(before.id));
    const item = api.assets.getTreeItem(listed);
    assert.equal(item.label, 'Clamp a number');
    assert.equal(item.contextValue, 'trashEntry:asset');
    assert.equal(item.description, 'deleted just now');
    assert.ok(item.tooltip instanceof vscode.MarkdownString && /Math\.min/.test(item.tooltip.value), 'the tooltip previews the code');
    assert.match(item.tooltip.value, /TypeScript[\s\S]*Deleted for good in 30 days/);

    // A conversation deleted after it is listed first (newest deleted first).
    const conversation = await client.conversations.create({ name: 'How to clamp' });
    await client.conversations.addMessage(conversation.id, 'USER', 'How do I keep a number between two bounds?');
    await until('the conversation in its view', () => api.conversations.conversations.some((c) => c.id === conversation.id));
    await vscode.commands.executeCommand('satchel.conversation.delete', conversation.id, { confirmed: true });
    await until('the conversation first under Trash', () => trashEntries()[0]?.entry.id === conversation.id);
    assert.equal(api.assets.getTreeItem(trashEntries()[0]!).contextValue, 'trashEntry:conversation');
    const root = trashRoot()!;
    assert.equal(api.assets.getTreeItem(root).description, '2');
    assert.equal(api.assets.getChildren().at(-1), root, 'the Trash node comes last');

    await vscode.commands.executeCommand('workbench.view.extension.satchel');
    await vscode.commands.executeCommand('satchel.assets.focus');
    await until('the Assets view visible', () => api.assets.treeView.visible);
    // The tree refreshes as the streams and the trash listing answer: reveal until it holds still.
    const reveal = (node: AssetsNode | undefined, options: { expand?: boolean; select?: boolean; focus?: boolean }) => async () =>
      node !== undefined && api.assets.treeView.reveal(node, options).then(() => true, () => false);
    await until('the Trash node expanded', () => reveal(trashRoot(), { expand: true, select: false })());
    await until('the deleted snippet selected', () => reveal(entryNode(before.id), { select: true, focus: true })());
    await new Promise((r) => setTimeout(r, 800));
    await screenshot('trash');

    const restored = await vscode.commands.executeCommand<{ id: string; kind: string; revision?: string }>('satchel.trash.restore', entryNode(before.id));
    assert.equal(restored?.id, before.id);
    assert.equal(restored?.kind, 'asset');
    const back = await until('the snippet back in the tree', () => api.assets.asset(before.id));
    assert.equal(assetText(await client.assets.get(back.id)), assetText(before), 'the view holds it without its text: read from the host');
    assert.equal(back.name, before.name);
    assert.deepEqual(back.tags?.iterable?.map((tag) => tag.text).sort(), ['math', 'numbers']);
    await until('the snippet gone from Trash', () => !entryNode(before.id));
    const history = await client.history.list(before.id);
    assert.equal(history.current, restored?.revision, 'the restore is the current revision');
    assert.ok(history.revisions.length >= 3, 'the revisions before the delete are kept');

    await vscode.commands.executeCommand('satchel.asset.delete', before.id);
    const again = await until('the snippet under Trash again', () => entryNode(before.id));
    assert.equal(await refusedDialog(vscode.commands.executeCommand('satchel.trash.deleteForever', again)), 'Delete "Clamp a number" forever?');
    assert.ok(entryNode(before.id), 'nothing is deleted without the answer');
    assert.equal((await client.trash.get(before.id)).id, before.id);
    const deleted = await vscode.commands.executeCommand<{ id: string } | false>('satchel.trash.deleteForever', again, { confirmed: true });
    assert.ok(deleted && deleted.id === before.id, 'Delete Forever answers the entry it deleted');
    await until('the snippet gone from Trash', () => !entryNode(before.id));
    assert.equal(await status(client.trash.get(before.id)), 404);
    assert.equal(await status(client.assets.get(before.id)), 404);
    assert.equal(await status(client.history.list(before.id)), 404, 'its history went with it');
    assert.ok(api.assets.asset(kept.id), 'the live snippet stays');
  });

  it("the delete toast's Undo restores the snippet under its own id", async function () {
    this.timeout(60_000);
    const saved = await saveSnippet('Sleep for a while', 'export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));\n', 'async');
    // Earlier deletes' toasts go first, so the Undo clicked is this delete's.
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.commands.executeCommand('satchel.asset.delete', saved.id);
    await until('the snippet to leave the tree', () => !api.assets.asset(saved.id));
    // Toasts of this headless window go straight to the notification list: open it, as a user would,
    // and run the notification's first button (it is the only notification). A mouse click cannot
    // reach it here: the list lays the info message out shorter than it draws, cutting the button off.
    await vscode.commands.executeCommand('notifications.showList');
    await new Promise((r) => setTimeout(r, 300));
    await vscode.commands.executeCommand('notification.acceptPrimaryAction');
    const back = await until('the snippet back under its id', () => api.assets.asset(saved.id));
    assert.equal(assetText(await client.assets.get(back.id)), assetText(saved));
    assert.deepEqual(back.tags?.iterable?.map((tag) => tag.text), ['async']);
    await until('the snippet gone from Trash', () => !entryNode(saved.id));
    await vscode.commands.executeCommand('notifications.hideList');
  });

  it('Empty Trash asks first, then deletes every entry for good and the Trash node goes', async function () {
    this.timeout(60_000);
    const saved = await saveSnippet('Pick keys', 'export const pick = <T, K extends keyof T>(o: T, keys: K[]) => Object.fromEntries(keys.map((k) => [k, o[k]]));\n', 'objects');
    await vscode.commands.executeCommand('satchel.asset.delete', saved.id);
    await until('the snippet under Trash', () => entryNode(saved.id));
    const count = (await client.trash.list()).total;
    assert.ok(count >= 2, `the snippet and the conversation deleted earlier (${count})`);
    assert.equal(await refusedDialog(vscode.commands.executeCommand('satchel.trash.empty')), 'Empty the trash?');
    assert.equal((await client.trash.list()).total, count, 'nothing is deleted without the answer');
    // As the Trash node's own menu calls it: the node first.
    const emptied = await vscode.commands.executeCommand<{ deleted: number } | undefined>('satchel.trash.empty', trashRoot(), { confirmed: true });
    assert.equal(emptied?.deleted, count);
    assert.equal((await client.trash.list()).total, 0);
    await until('the Trash node to go', () => !trashRoot());
    assert.equal(await status(client.assets.get(saved.id)), 404);
  });
});
