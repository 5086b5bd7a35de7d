/**
 * Sync in a real VS Code: with `satchel.sync.remote` set to a bare repository, Sync Now sends a
 * snippet and the status bar says so; another machine (a clone of the repository, as an edit on a
 * Git host's page would) changes the same line the user changed here, and the next sync keeps the
 * other version and lists the user's in the Sync Conflicts view, whose diff shows both; Keep Mine
 * makes the user's the snippet's again, and the sync after sends it. Screenshots: the Conflicts
 * view and the diff.
 */
import * as vscode from 'vscode';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXTENSION_ID, screenshot, until } from './support.ts';
import type { SatchelExtension } from '../../../src/extension/satchelExtension.ts';
import type { SyncSummary } from '../../../src/client/sync.ts';
import { assetText } from '../../../src/client/assets.ts';
import { assetDir } from '../../../src/core/sync/vaultFormat.ts';

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const git = (args: string[], cwd?: string): string => execFileSync('git', ['-c', 'user.name=Other machine', '-c', 'user.email=other@example.com', ...args], { cwd, encoding: 'utf8' });

describe('Sync through git', function () {
  let api: SatchelExtension;
  let root: string;
  let remote: string;
  let id: string;

  before(async function () {
    const extension = vscode.extensions.getExtension<SatchelExtension>(EXTENSION_ID)!;
    api = await extension.activate();
    await until('the server role', () => (api.server.connection ? true : undefined), 30_000);
    root = mkdtempSync(join(tmpdir(), 'satchel-it-sync-'));
    remote = join(root, 'remote.git');
    git(['init', '--bare', '--quiet', '--initial-branch=main', remote]);
    const configuration = vscode.workspace.getConfiguration('satchel.sync');
    await configuration.update('intervalMinutes', 0, vscode.ConfigurationTarget.Global);
    await configuration.update('onFocus', false, vscode.ConfigurationTarget.Global);
    await configuration.update('remote', remote, vscode.ConfigurationTarget.Global);
    const { client } = api.server.connection!;
    const application = await api.server.application();
    id = (await client.assets.createFromText({ text: 'const retries = 3;\n', application, language: 'ts', name: 'Retries' })).id;
  });

  after(async () => {
    await vscode.workspace.getConfiguration('satchel.sync').update('remote', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(root, { recursive: true, force: true });
  });

  it('sends a snippet, meets another machine\'s edit of the same line as a conflict, and keeps mine', async function () {
    const first = await vscode.commands.executeCommand<SyncSummary | undefined>('satchel.sync.now');
    assert.ok(first && first.sent >= 1, `the first sync sent the library (${JSON.stringify(first)})`);
    await until('the status bar saying it synced', () => api.sync.statusText === '$(sync) Synced');

    // The other machine: a clone of the repository, the same line changed, pushed.
    const work = join(root, 'other');
    git(['clone', '--quiet', '--branch', 'main', remote, work]);
    const code = join(work, ...assetDir(id).split('/'), 'code.ts');
    assert.equal(readFileSync(code, 'utf8'), 'const retries = 3;\n', 'the snippet is a file in the repository');
    writeFileSync(code, 'const retries = 10;\n');
    git(['commit', '--quiet', '-am', 'More retries'], work);
    git(['push', '--quiet', 'origin', 'HEAD'], work);
    const { client } = api.server.connection!;
    await client.history.edit(id, { content: 'const retries = 5;\n' });

    const second = await vscode.commands.executeCommand<SyncSummary | undefined>('satchel.sync.now');
    assert.deepEqual(second?.notices.map((notice) => notice.notice), ['conflict']);
    assert.equal(assetText(await client.assets.get(id)), 'const retries = 10;\n', 'the other machine\'s version is kept');
    const [conflict] = await until('the Sync Conflicts view listing it', () => (api.sync.conflicts.listed.length === 1 ? api.sync.conflicts.listed : undefined));
    assert.equal(conflict!.original, id);
    assert.equal(conflict!.name, 'Retries (conflict copy)');
    assert.equal(assetText(await client.assets.get(conflict!.copy)), 'const retries = 5;\n', 'mine is the copy, without conflict markers');
    await until('the status bar counting it', () => api.sync.statusText === '$(git-compare) 1 conflict');
    await vscode.commands.executeCommand('satchel.sync.showConflicts');
    await pause(1000);
    await screenshot('sync-conflicts');

    await vscode.commands.executeCommand('satchel.sync.compareConflict', conflict!.copy);
    const tab = await until('the diff editor', () => {
      const active = vscode.window.tabGroups.activeTabGroup.activeTab;
      return active?.input instanceof vscode.TabInputTextDiff ? active : undefined;
    });
    assert.ok(tab.input instanceof vscode.TabInputTextDiff);
    // Every field, then the code: theirs on the left, yours on the right.
    const theirs = (await vscode.workspace.openTextDocument(tab.input.original)).getText();
    const mine = (await vscode.workspace.openTextDocument(tab.input.modified)).getText();
    assert.match(theirs, /^Name: Retries\nLanguage: ts\nTags: /);
    assert.ok(theirs.endsWith('──── Code ────\nconst retries = 10;\n'), theirs);
    assert.ok(mine.endsWith('──── Code ────\nconst retries = 5;\n'), mine);
    await pause(1500);
    await screenshot('sync-conflict-diff');

    await vscode.commands.executeCommand('satchel.sync.keepMine', conflict!.copy);
    assert.equal(assetText(await client.assets.get(id)), 'const retries = 5;\n', 'mine is the snippet again');
    assert.deepEqual(await client.sync.conflicts(), []);
    const third = await vscode.commands.executeCommand<SyncSummary | undefined>('satchel.sync.now');
    assert.ok(third && third.sent >= 1);
    git(['pull', '--quiet'], work);
    assert.equal(readFileSync(code, 'utf8'), 'const retries = 5;\n', 'the other machine gets it');
  });
});
