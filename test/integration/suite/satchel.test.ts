/**
 * Satchel in a real VS Code: the installed .vsix activates, hosts its server, and the views,
 * commands and copy connector work against it. Screenshots of the three views are taken with
 * real data (SATCHEL_SCREENSHOT_DIR).
 */
import * as vscode from 'vscode';
import assert from 'node:assert/strict';
import { EXTENSION_ID, screenshot, until } from './support.ts';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import type { SatchelExtension } from '../../../src/extension/satchelExtension.ts';
import { SatchelClient } from '../../../src/client/satchelClient.ts';
import { assetText } from '../../../src/client/assets.ts';
import { HostSupervisor } from '../../../src/hosting/hostSupervisor.ts';
import { readPortFile } from '../../../src/hosting/portFile.ts';
import { silentLogger } from '../../../src/core/context.ts';
import type { Asset } from '../../../src/core/piecesTypes.ts';

/** Shows a view of the Satchel container with the others collapsed, so it gets the room. */
async function showView(view: 'assets' | 'conversations' | 'models'): Promise<void> {
  await vscode.commands.executeCommand('workbench.view.extension.satchel');
  await vscode.commands.executeCommand(`satchel.${view}.focus`);
  await new Promise((r) => setTimeout(r, 800));
}

let api: SatchelExtension;
let client: SatchelClient;
let saved: Asset;

describe('Satchel in VS Code', function () {
  before(async function () {
    const extension = vscode.extensions.getExtension<SatchelExtension>(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is installed`);
    api = await extension.activate();
    assert.ok(api, 'activate returns the extension API');
    await until('the server role', () => (api.server.connection ? true : undefined), 30_000);
    client = new SatchelClient(api.server.connection!.url);
  });

  after(() => client?.dispose());

  it('activates on startup and starts the data host as its own process, on its port', async function () {
    const role = api.server.role;
    assert.equal(role.kind, 'host');
    const file = readPortFile(api.server.dataDir!);
    assert.ok(file?.managed, 'the port file names a host a window started');
    assert.notEqual(file.pid, process.pid, 'the data host is not the extension host');
    assert.equal(role.kind === 'host' && role.pid, file.pid);
    const url = api.server.connection!.url;
    const health = await fetch(`${url}/.well-known/health`);
    assert.equal(health.status, 200);
    assert.equal(await health.text(), 'ok');
    assert.match(api.statusBar.text, new RegExp(`:${api.server.connection!.port}`));
    assert.ok(role.kind === 'host' && role.port >= 39300 && role.port <= 39333, 'a port of the Pieces range');
  });

  it('registers every contributed command', async function () {
    const manifest = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as { contributes: { commands: { command: string }[] } };
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = manifest.contributes.commands.map((c) => c.command).filter((id) => !registered.has(id));
    assert.deepEqual(missing, []);
    assert.deepEqual([...api.commands.ids].sort(), manifest.contributes.commands.map((c) => c.command).sort());
  });

  it('a second window on the same data directory becomes a client of the same data host', async function () {
    const dataDir = api.server.dataDir!;
    const second = new HostSupervisor({ dataDir, logger: silentLogger, probeIntervalMs: 200, idleMinutes: 1, command: { execPath: process.execPath, script: '/nonexistent' } });
    try {
      const role = await second.start();
      assert.equal(role.kind, 'client');
      assert.equal(role.kind === 'client' ? role.url : '', api.server.connection!.url);
    } finally {
      await second.close();
    }
    assert.equal(api.server.role.kind, 'host', 'the window still leads');
  });

  it('saves the selection as an asset that appears in the Assets tree', async function () {
    const file = vscode.workspace.workspaceFolders![0]!.uri.fsPath + '/retry.ts';
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));
    editor.selection = new vscode.Selection(0, 0, editor.document.lineCount, 0);
    saved = (await vscode.commands.executeCommand<Asset>('satchel.saveSelection'))!;
    assert.ok(saved?.id, 'the command returns the new asset');
    const inTree = await until('the asset in the tree', () => api.assets.asset(saved.id));
    assert.equal(inTree.name, saved.name);
    assert.match(assetText(await api.server.connection!.client.assets.get(saved.id)), /export async function retry/);
    const node = await api.assets.nodeOf(saved.id);
    assert.ok(node?.type === 'asset', 'the asset is in a language group');
    assert.ok(api.assets.getChildren().some((root) => root.type === 'group' && root.pageKey === node.group), 'under its group');
    const item = await api.assets.resolveTreeItem(api.assets.getTreeItem(node), node, new vscode.CancellationTokenSource().token);
    assert.equal(item.contextValue, 'asset');
    assert.ok(item.tooltip instanceof vscode.MarkdownString && item.tooltip.value.includes('retry'), 'tooltip previews the code');
  });

  it('finds the asset through the search quick pick', async function () {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const picked = vscode.commands.executeCommand<Asset>('satchel.searchAssets', 'retry attempts');
    await new Promise((r) => setTimeout(r, 1500));
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    const asset = await picked;
    assert.equal(asset?.id, saved.id);
    const preview = await until('the snippet\'s editor', () => vscode.window.activeTextEditor);
    assert.equal(preview.document.uri.scheme, 'satchel');
    assert.match(preview.document.getText(), /lastError/);
  });

  it('shows an asset created by another client over HTTP, through the stream', async function () {
    const application = await api.server.application();
    const created = await client.assets.createFromText({
      text: 'SELECT id, name FROM users WHERE active = 1 ORDER BY created_at DESC LIMIT 20;',
      application,
      language: 'sql',
      name: 'Recent active users',
    });
    await until('the HTTP-created asset in the tree', () => api.assets.asset(created.id));
    await vscode.commands.executeCommand('satchel.asset.tags', created.id, 'database, sql');
    await until('the tag to arrive', () => api.assets.asset(created.id)?.tags?.iterable?.some((t) => t.text === 'database'));
    await client.assets.createFromText({
      text: 'def chunks(items, size):\n    for i in range(0, len(items), size):\n        yield items[i:i + size]\n',
      application,
      language: 'py',
      name: 'Split a list into chunks',
    });
    await until('three assets', () => api.assets.assets.length >= 3);
  });

  it('suggests reuse when a near-duplicate is copied, and saving for new code; reactions are sent', async function () {
    const partial = 'for (let i = 0; i < attempts; i++) {\n    try {\n      return await fn();\n    } catch (error) {\n      lastError = error;';
    const reuse = await api.connector.handleCopy(partial, 'typescript');
    assert.equal(reuse?.kind, 'reuse');
    assert.equal(reuse?.asset?.id, saved.id);
    assert.ok(api.assets.getChildren()[0]?.type === 'suggestions', 'quiet mode lists it under Suggestions');
    assert.match(api.statusBar.text, /Satchel:/, 'the status bar flashes');

    const fresh = 'export function debounce(fn: () => void, ms: number) {\n  let timer: NodeJS.Timeout | undefined;\n  return () => {\n    clearTimeout(timer);\n    timer = setTimeout(fn, ms);\n  };\n}\n';
    const save = await api.connector.handleCopy(fresh, 'typescript');
    assert.equal(save?.kind, 'save');
    await showView('assets');
    await screenshot('assets');

    await vscode.commands.executeCommand('satchel.suggestion.reuse', { suggestion: reuse });
    const opened = await until('the reused asset\'s editor', () => vscode.window.activeTextEditor?.document.uri.scheme === 'satchel' && vscode.window.activeTextEditor);
    assert.match(opened.document.getText(), /retry/);
    const newId = await vscode.commands.executeCommand<string>('satchel.suggestion.save', { suggestion: save });
    const stored = await until('the saved suggestion', () => api.assets.asset(newId!));
    assert.match(assetText(await api.server.connection!.client.assets.get(stored.id)), /debounce/);
    assert.equal(api.connector.suggestions.length, 0, 'answered suggestions leave the list');
  });

  it('lists a conversation created over HTTP, with its messages', async function () {
    const conversation = await client.conversations.create({ name: 'Retry with backoff' });
    await client.conversations.addMessage(conversation.id, 'USER', 'How do I retry a failing fetch with exponential backoff?');
    await client.conversations.addMessage(conversation.id, 'ASSISTANT', 'Wrap the call in a loop and wait 2^i × 100 ms between attempts; rethrow the last error.');
    await client.conversations.associateAsset(conversation.id, saved.id);
    const second = await client.conversations.create({ name: 'SQL pagination' });
    await client.conversations.addMessage(second.id, 'USER', 'Keyset or offset pagination for a users table?');
    const listed = await until('the conversation in the view', () => api.conversations.conversations.find((c) => c.id === conversation.id));
    assert.equal(listed.name, 'Retry with backoff');
    const nodes = await api.conversations.getChildren();
    const node = nodes.find((n) => n.type === 'conversation' && n.conversation.id === conversation.id)!;
    const messages = await until('two messages', async () => {
      await api.conversations.reload(conversation.id);
      const children = await api.conversations.getChildren(node);
      return children.length === 2 ? children : undefined;
    });
    assert.equal(messages[0]!.type, 'message');
    await showView('conversations');
    await api.conversations.treeView.reveal(node, { expand: true, select: false }).then(undefined, () => undefined);
    await new Promise((r) => setTimeout(r, 800));
    await screenshot('conversations');
    const summary = await vscode.commands.executeCommand<string>('satchel.conversation.summarize', conversation.id);
    assert.ok(summary && summary.length > 0, 'summarize opens a summary');
  });

  it('downloads a model from a local mirror with progress, then loads and unloads it', async function () {
    this.timeout(180_000);
    const model = await until('a downloadable text model', () =>
      api.models.models.find((m) => !m.downloaded && String(m.usage) === 'CODE_CONVERSATION' && /smol/i.test(m.name)) ??
      api.models.models.find((m) => !m.downloaded && String(m.usage) === 'CODE_CONVERSATION'),
    );
    const status = await vscode.commands.executeCommand<string>('satchel.model.download', model.id);
    assert.equal(status, 'COMPLETED');
    assert.ok((api.models.progress.get(model.id) ?? 0) > 0, 'progress frames reached the tree');
    await until('downloaded state', () => api.models.models.find((m) => m.id === model.id)?.downloaded);
    const loaded = await vscode.commands.executeCommand<{ loaded?: boolean }>('satchel.model.load', model.id);
    assert.equal(loaded?.loaded, true);
    await until('loaded state in the tree', () => api.models.models.find((m) => m.id === model.id)?.loaded);
    await showView('models');
    // The classifier and the built-in encoder ship with Satchel: the view (Satchel's own route) shows them
    // downloaded, though the Pieces paths show them as not downloaded so that Pieces clients' chat pickers skip them.
    const builtIns = api.models.models.filter((m) => String(m.usage) === 'CODE_CLASSIFICATION' || (String(m.usage) === 'TEXT_EMBEDDING' && /built in/i.test(m.name)));
    assert.ok(builtIns.some((m) => String(m.usage) === 'CODE_CLASSIFICATION'), 'the classifier is in the view');
    for (const m of builtIns) assert.match(String(api.models.getTreeItem({ type: 'model', model: m }).description), /^(downloaded|loaded)/, m.name);
    await screenshot('models');
    const unloaded = await vscode.commands.executeCommand<{ loaded?: boolean }>('satchel.model.unload', model.id);
    assert.equal(unloaded?.loaded, false);
    await until('unloaded state in the tree', () => api.models.models.find((m) => m.id === model.id)?.loaded === false);
  });

  it('exports an asset to Markdown and deletes it (with an Undo offer)', async function () {
    const target = vscode.Uri.file(join(tmpdir(), `satchel-export-${process.pid}.md`));
    await vscode.commands.executeCommand('satchel.asset.exportMarkdown', saved.id, target);
    assert.match(readFileSync(target.fsPath, 'utf8'), /retry/);
    rmSync(target.fsPath, { force: true });
    await vscode.commands.executeCommand('satchel.asset.delete', saved.id);
    await until('the asset to leave the tree', () => !api.assets.asset(saved.id));
  });
});
