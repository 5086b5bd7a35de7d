/**
 * Show History in a real VS Code: a snippet saved by the extension and changed twice over HTTP by
 * two other applications lists three revisions with their authors (the tags one of them set read
 * in lazily); picking the oldest opens a diff whose left side holds its text and whose right side
 * the current one; Restore from the diff's title asks for confirmation first, then makes the old
 * state current, as the server then answers, and the diff's right side and the tree follow.
 * Screenshots: the picker and the diff.
 */
import * as vscode from 'vscode';
import assert from 'node:assert/strict';
import { EXTENSION_ID, screenshot, until } from './support.ts';
import type { SatchelExtension } from '../../../src/extension/satchelExtension.ts';
import type { HistoryChoice } from '../../../src/extension/history/historyPicker.ts';
import { SatchelClient } from '../../../src/client/satchelClient.ts';
import type { RevisionSummary } from '../../../src/client/history.ts';
import { assetText } from '../../../src/client/assets.ts';
import { authorOf } from '../../../src/core/history/authors.ts';

const V1 = 'export function backoff(attempt: number): number {\n  return 100 * 2 ** attempt;\n}\n';
const V2 = 'export function backoff(attempt: number, base = 100): number {\n  return base * 2 ** attempt;\n}\n';
const V3 = 'export function backoff(attempt: number, base = 100): number {\n  const jitter = Math.random() * base;\n  return base * 2 ** attempt + jitter;\n}\n';

let api: SatchelExtension;
/** Two other applications on the port, each naming itself as Satchel's own clients do. */
let claude: SatchelClient;
let pieces: SatchelClient;

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Moves the picker's selection to its last row and presses Enter, as a user pressing End then Enter
 * does. Enter waits for the workbench to report the move (a picker still being drawn may miss a key).
 */
async function acceptLast<T extends vscode.QuickPickItem>(picker: vscode.QuickPick<T>): Promise<T> {
  const last = picker.items[picker.items.length - 1]!;
  let moved = false;
  const listener = picker.onDidChangeActive((active) => (moved = active[0] === last));
  // Already active (a move that landed before the listener): no event comes, and another move changes nothing.
  const onLast = (): boolean => moved || picker.activeItems[0] === last;
  try {
    await until(`the selection on ${last.label}`, async () => {
      if (!onLast()) {
        await vscode.commands.executeCommand('quickInput.last');
        await pause(250);
      }
      return onLast();
    });
  } finally {
    listener.dispose();
  }
  await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
  return last;
}

describe('Show History on a snippet', function () {
  let id: string;

  before(async function () {
    const extension = vscode.extensions.getExtension<SatchelExtension>(EXTENSION_ID)!;
    api = await extension.activate();
    await until('the server role', () => (api.server.connection ? true : undefined), 30_000);
    const { url, client } = api.server.connection!;
    claude = new SatchelClient(url, { author: authorOf('mcp', 'Claude Desktop') });
    pieces = new SatchelClient(url, { author: authorOf('pieces-app', 'Pieces Desktop') });
    const application = await api.server.application();
    id = (await client.assets.createFromText({ text: V1, application, language: 'ts', name: 'Backoff delay' })).id;
    await claude.history.edit(id, { content: V2, tags: ['retry', 'timing'] });
    await pieces.history.edit(id, { content: V3, name: 'Backoff delay with jitter' });
    await until('the renamed snippet in the tree', () => api.assets.asset(id)?.name === 'Backoff delay with jitter');
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    claude?.dispose();
    pieces?.dispose();
  });

  it('lists the revisions with their authors, opens the oldest beside the current text, and restores it', async function () {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('workbench.view.extension.satchel');
    const shown = vscode.commands.executeCommand<HistoryChoice | undefined>('satchel.asset.showHistory', id);
    // The tags Claude set are read lazily and filled into its row.
    const picker = await until('the picker with the tags read', () => {
      const open = api.history.picker;
      return open && open.items.length === 3 && open.items[1]?.detail?.includes('Tags: retry, timing') ? open : undefined;
    });
    assert.equal(picker.title, 'History of “Backoff delay with jitter”');
    assert.deepEqual(
      picker.items.map((item) => item.label.replace(/ · .*$/, '')),
      ['$(plug) Pieces Desktop', '$(robot) Claude Desktop', '$(vscode) Satchel for VS Code'],
      'newest first, each by its author',
    );
    assert.match(picker.items[0]!.description ?? '', /^current · Backoff delay with jitter · \d+ B$/);
    assert.match(picker.items[0]!.detail ?? '', /^Pieces client · Content changed \(\d+ B → \d+ B\) · Renamed from “Backoff delay”$/);
    assert.match(picker.items[1]!.detail ?? '', /^MCP client · Content changed .* · Tags: retry, timing$/);
    assert.equal(picker.items[2]!.detail, 'VS Code · Created');
    assert.deepEqual(picker.items.map((item) => item.buttons?.length ?? 0), [1, 2, 1], 'current: what it changed; the middle: that and Restore; the oldest: Restore');
    await pause(500);
    await screenshot('history-pick');

    // The oldest, the last row.
    assert.equal(await acceptLast(picker), picker.items[2]);
    const choice = await shown;
    assert.equal(choice?.action, 'compare');
    const oldest: RevisionSummary = choice!.revision;
    assert.equal(oldest.author.name, 'Satchel for VS Code');

    const tab = await until('the diff editor', () => {
      const active = vscode.window.tabGroups.activeTabGroup.activeTab;
      return active?.input instanceof vscode.TabInputTextDiff ? active : undefined;
    });
    assert.ok(tab.input instanceof vscode.TabInputTextDiff);
    const { original, modified } = tab.input;
    assert.match(tab.label, /^Backoff delay \((just now|\d+ minutes? ago), by Satchel for VS Code\) ↔ current$/);
    const left = await vscode.workspace.openTextDocument(original);
    const right = await vscode.workspace.openTextDocument(modified);
    assert.equal(left.getText(), V1, 'the left side holds the old text');
    assert.equal(right.getText(), V3, 'the right side the current text');
    assert.equal(left.languageId, 'typescript');
    assert.equal(right.languageId, 'typescript');
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await pause(1500);
    await screenshot('history-diff');

    // Restore from the diff editor's title (it passes the modified side). It asks first: VS Code's
    // test mode refuses modal dialogs, so the question shows up as the refusal, and nothing is restored.
    await assert.rejects(
      Promise.resolve(vscode.commands.executeCommand('satchel.revision.restore', modified)),
      /refused to show dialog.*Restore “Backoff delay” as it was (just now|\d+ minutes? ago) \(by Satchel for VS Code\)\?/s,
    );
    assert.equal(assetText(await api.server.connection!.client.assets.get(id)), V3, 'unconfirmed, nothing is restored');
    const restored = await vscode.commands.executeCommand<RevisionSummary | undefined>('satchel.revision.restore', modified, { confirmed: true });
    assert.equal(restored?.restoredFrom, oldest.id);

    const client = api.server.connection!.client;
    const asset = await client.assets.get(id);
    assert.equal(assetText(asset), V1, 'the old text is current again');
    assert.equal(asset.name, 'Backoff delay');
    assert.deepEqual(asset.tags?.iterable?.map((tag) => tag.text) ?? [], [], 'and the tags it had (none)');
    const list = await client.history.list(id);
    assert.equal(list.revisions.length, 4, 'the restore is itself a revision: nothing is lost');
    assert.equal(list.revisions[0]!.restoredFrom, oldest.id);
    assert.equal(list.revisions[0]!.author.name, 'Satchel for VS Code');
    await until('the diff\'s right side showing the restored text', () => right.getText() === V1);
    await until('the tree showing the restored name', () => api.assets.asset(id)?.name === 'Backoff delay');
    await vscode.commands.executeCommand('workbench.view.extension.satchel');

    // Show History again from the revision's editor (the palette's command): the restore heads the list.
    const again = vscode.commands.executeCommand<HistoryChoice | undefined>('satchel.showHistory', original);
    const reopened = await until('the picker again', () => (api.history.picker?.items.length === 4 ? api.history.picker : undefined));
    assert.match(reopened.items[0]!.detail ?? '', /^VS Code · Restored the revision of (just now|\d+ minutes? ago)/);
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.equal(await again, undefined, 'dismissed: nothing done');
  });

  it('shows a long history a page at a time', async function () {
    const { client } = api.server.connection!;
    const application = await api.server.application();
    const busy = (await client.assets.createFromText({ text: 'let n = 0;', application, language: 'ts', name: 'Counter' })).id;
    for (let n = 1; n <= 60; n++) await claude.history.edit(busy, { content: `let n = ${n};` });
    const shown = vscode.commands.executeCommand<HistoryChoice | undefined>('satchel.asset.showHistory', busy);
    const picker = await until('the first page', () => (api.history.picker?.items.length === 51 ? api.history.picker : undefined));
    const older = picker.items[50]!;
    assert.equal(older.label, '$(history) Show 11 older revisions…');
    assert.equal(older.revision, undefined);
    assert.equal(await acceptLast(picker), older);
    await until('the older revisions', () => picker.items.length === 61);
    assert.equal(api.history.picker, picker, 'the picker stays open');
    assert.equal(picker.items[60]!.detail, 'VS Code · Created', 'down to the first revision');
    assert.equal(picker.activeItems[0]?.revision?.id, picker.items[50]!.revision?.id, 'on the first revision loaded');
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.equal(await shown, undefined);
  });
});
