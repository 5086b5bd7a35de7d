/**
 * Remote windows in a real VS Code. A UI-side Satchel sees a remote window's workspace as
 * `vscode-remote:` documents and folders; a file system of another scheme stands in for it here:
 * a file and a selection of it are saved, a folder of it is imported, an export is written into
 * it, and a copy in it reaches the copy connector. code-server runs Satchel on its remote side
 * (a browser window has no local one, whatever extensionKind says), which is the case the remote
 * notice is for: pointed at a new, empty data directory the window says so, with a screenshot,
 * and its buttons open the sync settings and turn the warning off.
 */
import * as vscode from 'vscode';
import assert from 'node:assert/strict';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { EXTENSION_ID, MemoryFileSystem, clickNotificationButton, screenshot, until } from './support.ts';
import type { SatchelExtension } from '../../../src/extension/satchelExtension.ts';
import type { ImportSummary } from '../../../src/client/imports.ts';
import { assetText } from '../../../src/client/assets.ts';
import type { Asset } from '../../../src/core/piecesTypes.ts';

const SCHEME = 'satchelremote';
const uri = (path: string): vscode.Uri => vscode.Uri.from({ scheme: SCHEME, path });
const write = (path: string, text: string): Thenable<void> => vscode.workspace.fs.writeFile(uri(path), new TextEncoder().encode(text));

const PYTHON = 'def retry(fn, attempts=3):\n    for i in range(attempts):\n        try:\n            return fn()\n        except Exception:\n            if i == attempts - 1:\n                raise\n';
const SNIPPETS = JSON.stringify({
  'Remote log': { prefix: 'rlog', body: ['console.log("remote", $1);'], scope: 'javascript' },
  'Remote fetch': { prefix: 'rfetch', body: ['await fetch(${1:url});'], scope: 'javascript' },
});

/**
 * Drops every notification earlier tests left: the runner clicks the first button with a label, and
 * another one's "Don't Show Again" (VS Code's own prompts carry one too) would be clicked instead of the notice's.
 */
async function clearNotifications(): Promise<void> {
  await vscode.commands.executeCommand('notifications.clearAll');
  await new Promise((r) => setTimeout(r, 300));
}

/** Toasts of this headless window go straight to the notification list: open it, as a user would. */
async function showNotifications(): Promise<void> {
  await vscode.commands.executeCommand('notifications.showList');
  await new Promise((r) => setTimeout(r, 800));
}

let api: SatchelExtension;
let registration: vscode.Disposable;

describe('Remote windows', function () {
  before(async function () {
    api = await vscode.extensions.getExtension<SatchelExtension>(EXTENSION_ID)!.activate();
    await until('the server role', () => (api.server.connection ? true : undefined), 30_000);
    registration = vscode.workspace.registerFileSystemProvider(SCHEME, new MemoryFileSystem());
    await write('/project/retry.py', PYTHON);
    await write('/project/snippets/remote.code-snippets', SNIPPETS);
    await write('/project/snippets/.cache/stale.json', '{}');
  });

  after(() => registration?.dispose());

  it('saves a file and a selection of a document of another file system, named from its Uri', async function () {
    const document = await vscode.workspace.openTextDocument(uri('/project/retry.py'));
    const whole = await vscode.commands.executeCommand<Asset>('satchel.saveFile', document.uri);
    assert.equal(whole?.name, 'retry.py');
    assert.equal(assetText(await api.server.connection!.client.assets.get(whole.id)).trim(), PYTHON.trim());

    const editor = await vscode.window.showTextDocument(document);
    editor.selection = new vscode.Selection(2, 0, 4, 0);
    const part = await vscode.commands.executeCommand<Asset>('satchel.saveSelection');
    assert.equal(assetText(await api.server.connection!.client.assets.get(part!.id)), '        try:\n            return fn()\n');

    const untitled = await vscode.workspace.openTextDocument({ language: 'python', content: 'print("untitled")\n' });
    const saved = await vscode.commands.executeCommand<Asset>('satchel.saveFile', untitled.uri);
    assert.match(saved?.name ?? '', /^Untitled-\d+$/);
    // Closed unsaved, so no "Save changes?" dialog waits later.
    await vscode.window.showTextDocument(untitled);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('imports a folder of another file system through VS Code (hidden folders skipped), and exports into it', async function () {
    const summary = await vscode.commands.executeCommand<ImportSummary>('satchel.importSnippets', uri('/project/snippets'));
    assert.ok(summary, 'the command returns its summary');
    assert.equal(summary.imported, 2, JSON.stringify(summary.failures));
    assert.equal(summary.failed, 0);
    const names = (await api.server.connection!.client.assets.list({ transferables: false })).iterable.map((asset) => asset.name);
    assert.ok(names.includes('Remote log') && names.includes('Remote fetch'), names.join(', '));

    const asset = api.assets.assets.find((candidate) => candidate.name === 'retry.py') ?? (await until('retry.py in the view', () => api.assets.assets.find((a) => a.name === 'retry.py')));
    const target = uri('/project/exports/retry.md');
    await vscode.commands.executeCommand('satchel.asset.exportMarkdown', asset.id, target);
    assert.match(new TextDecoder().decode(await vscode.workspace.fs.readFile(target)), /def retry\(fn, attempts=3\):/);
    await vscode.commands.executeCommand('satchel.asset.exportSnippets', asset.id, uri('/project/exports/retry.code-snippets'));
    const snippets = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri('/project/exports/retry.code-snippets')))) as Record<string, { body: string[] }>;
    assert.match(Object.values(snippets)[0]?.body.join('\n') ?? '', /def retry/);
  });

  it('a copy in a document of another file system reaches the copy connector; a copy from an asset preview does not', async function () {
    const document = await vscode.workspace.openTextDocument(uri('/project/retry.py'));
    // Before, the connector listened to `file` and `untitled` documents only: a remote window's were never heard.
    assert.equal(vscode.languages.match([{ scheme: 'file' }, { scheme: 'untitled' }], document), 0);
    assert.equal(api.connector.copiesFrom(document), true);
    const asset = await until('an asset', () => api.assets.assets[0]);
    const preview = await vscode.commands.executeCommand<vscode.TextEditor>('satchel.asset.open', asset.id);
    assert.equal(api.connector.copiesFrom(preview!.document), false);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  describe('on the remote side of a window', function () {
    const configuration = () => vscode.workspace.getConfiguration('satchel');
    let dataDir: string | undefined;
    let emptyDir: string;

    before(async function () {
      dataDir = configuration().inspect<string>('dataDirectory')?.globalValue;
      emptyDir = mkdtempSync(join(tmpdir(), 'satchel-remote-'));
    });

    after(async function () {
      this.timeout(60_000);
      await configuration().update('remote.warnOnRemoteHost', false, vscode.ConfigurationTarget.Global);
      await configuration().update('dataDirectory', dataDir, vscode.ConfigurationTarget.Global);
      await until('the library back', () => api.server.connection && api.server.dataDir === dataDir, 30_000);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      rmSync(emptyDir, { recursive: true, force: true });
    });

    it('code-server runs Satchel on the remote side: remoteName set, extensionKind Workspace', function () {
      const extension = vscode.extensions.getExtension(EXTENSION_ID)!;
      assert.deepEqual(extension.packageJSON.extensionKind, ['ui', 'workspace']);
      assert.ok(vscode.env.remoteName, 'a remote window');
      assert.equal(extension.extensionKind, vscode.ExtensionKind.Workspace, 'a browser window has no local extension host to prefer');
      assert.equal(api.remote.host.inBrowser, true);
    });

    it('a new, empty library there is announced with the machine and the data directory; Set Sync Remote opens the sync settings', async function () {
      this.timeout(90_000);
      await clearNotifications();
      await configuration().update('remote.warnOnRemoteHost', true, vscode.ConfigurationTarget.Global);
      await configuration().update('dataDirectory', emptyDir, vscode.ConfigurationTarget.Global);
      const notice = await until('the remote notice', () => api.server.dataDir === emptyDir && api.remote.showing, 30_000);
      assert.match(notice.message, new RegExp(`^Satchel is running on the remote machine \\(${hostname()}\\), not on your computer: a browser window has no local side\\.`));
      assert.ok(notice.message.includes(`Its library there, ${emptyDir}, is empty.`), notice.message);
      await showNotifications();
      await screenshot('remote-notice');
      clickNotificationButton('Set Sync Remote');
      assert.equal(await api.remote.last, 'Set Sync Remote…');
      await until('the settings editor', () => vscode.window.tabGroups.activeTabGroup.activeTab?.label === 'Settings', 10_000);
    });

    it("Don't Show Again turns the warning off; a library with snippets is never announced", async function () {
      this.timeout(60_000);
      await clearNotifications();
      const again = api.remote.check();
      await until('the notice again', () => api.remote.showing);
      await showNotifications();
      clickNotificationButton("Don't Show Again");
      assert.equal(await again, "Don't Show Again");
      await until('the setting off', () => configuration().get<boolean>('remote.warnOnRemoteHost') === false);
      assert.equal(await api.remote.check(), undefined);

      await configuration().update('remote.warnOnRemoteHost', true, vscode.ConfigurationTarget.Global);
      const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ language: 'python', content: 'x = 1\n' }));
      editor.selection = new vscode.Selection(0, 0, 1, 0);
      const asset = await vscode.commands.executeCommand<Asset>('satchel.saveSelection');
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
      await until('the snippet in the view', () => api.assets.asset(asset!.id));
      assert.equal(await api.remote.check(), undefined);
      assert.equal(api.remote.showing, undefined);
    });
  });
});
