/**
 * Satchel: Import Snippets in a real VS Code: files and a folder as the Explorer passes them, every
 * format's assets checked through the client, a re-run skipped as duplicates, failures with their
 * reasons in the summary, and the progress notification's Cancel clicked mid-import.
 */
import * as vscode from 'vscode';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXTENSION_ID, clickNotificationButton, screenshot, until } from './support.ts';
import type { SatchelExtension } from '../../../src/extension/satchelExtension.ts';
import type { ImportSummary } from '../../../src/client/imports.ts';
import { SatchelClient } from '../../../src/client/satchelClient.ts';
import type { Asset } from '../../../src/core/piecesTypes.ts';

// The suite is bundled to out/integration/suite.cjs; the fixtures stay in the repository.
const FIXTURES = join(__dirname, '../../test/fixtures/import');
const FORMATS = ['web.code-snippets', 'massCode-db.json', 'pieces-assets.json', 'gist.json'];
const IMPORTED = ['Fetch JSON', 'Print to console', 'Active users', 'Retry helper › retry.py', 'Retry helper › usage', 'Debounce', 'hello_world.rb', 'hello_world.py'];

let api: SatchelExtension;
let client: SatchelClient;
let folder: string;

const language = (asset: Asset): string | undefined => asset.formats.iterable[0]?.classification.specific;
const tags = (asset: Asset): string[] => (asset.tags?.iterable ?? []).map((t) => t.text).sort();

async function byName(): Promise<Map<string, Asset[]>> {
  const out = new Map<string, Asset[]>();
  for (const asset of (await client.assets.list({ transferables: false })).iterable) out.set(asset.name ?? '', [...(out.get(asset.name ?? '') ?? []), asset]);
  return out;
}

async function countNamed(prefix: string): Promise<number> {
  return (await client.assets.list({ transferables: false })).iterable.filter((a) => a.name?.startsWith(prefix)).length;
}

describe('Import snippets in VS Code', function () {
  before(async function () {
    const extension = vscode.extensions.getExtension<SatchelExtension>(EXTENSION_ID)!;
    api = await extension.activate();
    await until('the server role', () => (api.server.connection ? true : undefined), 30_000);
    client = new SatchelClient(api.server.connection!.url);
    folder = join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, 'to-import');
    mkdirSync(folder, { recursive: true });
    for (const name of [...FORMATS, 'truncated.json']) copyFileSync(join(FIXTURES, name), join(folder, name));
    // A lowercase "sql" tag exists before the import whatever ran earlier (the 'Satchel in VS Code' suite makes one
    // too; narrowed to this suite, nothing would): the massCode folder "SQL" must reuse it, not add "SQL".
    const application = await api.server.application();
    await client.assets.createFromText({ text: 'SELECT count(*) FROM orders;', application, language: 'sql', name: 'Count orders', tags: ['sql'] });
  });

  after(() => client?.dispose());

  it('imports the files selected in the Explorer: every format, with names, tags and languages', async function () {
    const uris = [...FORMATS, 'truncated.json'].map((name) => vscode.Uri.file(join(folder, name)));
    // The Explorer's context menu passes the clicked file and then the whole selection.
    const summary = await vscode.commands.executeCommand<ImportSummary>('satchel.importSnippets', uris[0], uris);
    assert.ok(summary, 'the command returns its summary');
    assert.equal(summary.imported, IMPORTED.length);
    assert.equal(summary.duplicates, 0);
    assert.equal(summary.cancelled, false);
    assert.deepEqual(summary.formats, { vscode: 1, masscode: 1, pieces: 1, gist: 1 });

    const stored = await byName();
    for (const name of IMPORTED) assert.equal(stored.get(name)?.length, 1, `${name} stored once`);
    const one = (name: string): Asset => stored.get(name)![0]!;
    assert.equal(language(one('Fetch JSON')), 'js');
    assert.deepEqual(tags(one('Fetch JSON')), ['fetchjson', 'fj']);
    assert.deepEqual(tags(one('Print to console')), ['log']);
    assert.equal(language(one('Active users')), 'sql');
    // Tags are shared by text whatever the case: the "sql" tag made in before() is reused for the folder "SQL";
    // "Backend" is new and keeps the folder's case.
    assert.deepEqual(tags(one('Active users')), ['Backend', 'reporting', 'sql'], 'massCode folders and tags become tags');
    assert.equal(language(one('Retry helper › usage')), 'sh');
    assert.equal(language(one('Debounce')), 'ts');
    assert.deepEqual(tags(one('Debounce')), ['timing', 'utils']);
    assert.equal(language(one('hello_world.rb')), 'rb');
    assert.equal(language(one('hello_world.py')), 'py');
    await until('the imported assets in the Assets tree', () => IMPORTED.every((name) => api.assets.assets.some((a) => a.name === name)));

    // The Assets view alone, so every imported group shows.
    await vscode.commands.executeCommand('workbench.view.extension.satchel');
    for (const view of ['satchel.conversations', 'satchel.models']) await vscode.commands.executeCommand(`${view}.removeView`).then(undefined, () => undefined);
    await vscode.commands.executeCommand('satchel.assets.focus');
    await new Promise((r) => setTimeout(r, 1200));
    await screenshot('import');
  });

  it('reports each failed item with its reason', async function () {
    // The same summary as above, asked again for the failing files alone (their good items are duplicates now).
    const uris = ['web.code-snippets', 'gist.json', 'truncated.json'].map((name) => vscode.Uri.file(join(folder, name)));
    const summary = (await vscode.commands.executeCommand<ImportSummary>('satchel.importSnippets', uris[0], uris))!;
    const reason = (source: RegExp): string | undefined => summary.failures.find((f) => source.test(f.source))?.reason;
    assert.match(reason(/web\.code-snippets › Broken$/) ?? '', /body is neither a string nor an array/);
    assert.match(reason(/big\.txt$/) ?? '', /truncated/);
    assert.match(reason(/truncated\.json/) ?? '', /not JSON/);
    assert.equal(summary.failed, summary.failures.length);
    assert.equal(summary.failed, 3);
  });

  it('a re-run on the folder skips everything as duplicates and duplicates nothing', async function () {
    const before = (await client.assets.list({ transferables: false })).iterable.length;
    const summary = (await vscode.commands.executeCommand<ImportSummary>('satchel.importSnippets', vscode.Uri.file(folder), [vscode.Uri.file(folder)]))!;
    assert.equal(summary.imported, 0);
    assert.equal(summary.duplicates, IMPORTED.length);
    assert.equal(summary.files, FORMATS.length + 1, 'the folder holds the four formats and the truncated file');
    assert.equal((await client.assets.list({ transferables: false })).iterable.length, before);
    const stored = await byName();
    for (const name of IMPORTED) assert.equal(stored.get(name)?.length, 1, `${name} still stored once`);
  });

  it('JetBrains live templates and Raycast snippets are offered by their abbreviations, inserted with their tab stops', async function () {
    const other = join(folder, '..', 'from-other-tools');
    mkdirSync(other, { recursive: true });
    for (const name of ['jetbrains-templates.xml', 'raycast.json']) copyFileSync(join(FIXTURES, name), join(other, name));
    const summary = (await vscode.commands.executeCommand<ImportSummary>('satchel.importSnippets', vscode.Uri.file(other), [vscode.Uri.file(other)]))!;
    assert.equal(summary.imported, 8, JSON.stringify(summary.failures));
    assert.deepEqual(summary.formats, { jetbrains: 1, raycast: 1 });
    // Plain text offers every language's snippets.
    const satchelItem = async (document: vscode.TextDocument, label: string): Promise<vscode.CompletionItem | undefined> => {
      const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', document.uri, document.positionAt(document.getText().length));
      return list.items.find((item) => item.detail?.startsWith('Satchel · ') && (typeof item.label === 'string' ? item.label : item.label.label) === label);
    };
    const typed = await vscode.workspace.openTextDocument({ language: 'plaintext', content: 'logg' });
    const logger = await until('the JetBrains template in completion', () => satchelItem(typed, 'logg'));
    assert.equal((logger.insertText as vscode.SnippetString).value, 'private static final org.slf4j.Logger logger = org.slf4j.LoggerFactory.getLogger(${1:$TM_FILENAME_BASE}.class);\n$0');
    // The screenshot: the template offered under its abbreviation, its preview beside it.
    const shown = await vscode.window.showTextDocument(typed);
    shown.selection = new vscode.Selection(0, 4, 0, 4);
    await vscode.commands.executeCommand('editor.action.triggerSuggest');
    await new Promise((r) => setTimeout(r, 1500));
    await vscode.commands.executeCommand('toggleSuggestionDetails');
    await new Promise((r) => setTimeout(r, 800));
    await screenshot('import-templates');
    await vscode.commands.executeCommand('hideSuggestWidget');

    const document = await vscode.workspace.openTextDocument({ language: 'plaintext', content: 'gcp' });
    const editor = await vscode.window.showTextDocument(document);
    const commit = (await satchelItem(document, 'gcp'))!;
    assert.ok(commit.insertText instanceof vscode.SnippetString, 'the Raycast keyword without its mark is the prefix');
    await editor.insertSnippet(commit.insertText, new vscode.Range(0, 0, 0, 3));
    assert.equal(document.getText(), 'git commit -m "message" && git push origin main # message');
    assert.deepEqual(editor.selections.map((selection) => document.getText(selection)), ['message', 'message'], 'one {argument name="message"}, one tab stop and its mirror');
    await vscode.commands.executeCommand('jumpToNextSnippetPlaceholder');
    assert.equal(document.getText(editor.selection), 'main', 'Tab goes to the argument with a default');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('Cancel on the progress notification stops between batches; a re-run imports the rest exactly once', async function () {
    this.timeout(240_000);
    const total = 10_000;
    // Each names its language: this is about cancelling between batches, not the classifier's speed.
    const snippets = Object.fromEntries(Array.from({ length: total }, (_, i) => [`Bulk ${i}`, { scope: 'typescript', prefix: `bulk${i}`, body: `export const bulk${i} = (x: number): number => x * ${i} + ${i % 97};` }]));
    const file = vscode.Uri.file(join(folder, '..', 'typescript.code-snippets'));
    writeFileSync(file.fsPath, JSON.stringify(snippets));

    const running = vscode.commands.executeCommand<ImportSummary>('satchel.importSnippets', file, [file]);
    await until('the first batches of the import', () => api.assets.assets.some((a) => a.name?.startsWith('Bulk ')), 60_000);
    // Toasts of this headless window go straight to the notification list: open it, as a user would.
    await vscode.commands.executeCommand('notifications.showList');
    await new Promise((r) => setTimeout(r, 300));
    clickNotificationButton('Cancel');
    const cancelled = (await running)!;
    assert.equal(cancelled.cancelled, true, 'the summary says the import was cancelled');

    // The host finishes the batch it is writing (one transaction) and stops; wait until the count holds for 3 s.
    let stored = -1;
    let steady = 0;
    await until('the count to settle', async () => {
      const now = await countNamed('Bulk ');
      steady = now === stored ? steady + 1 : 0;
      stored = now;
      await new Promise((r) => setTimeout(r, 1000));
      return steady >= 3;
    }, 120_000);
    assert.ok(stored > 0 && stored < total, `${stored} of ${total} written before the cancel took effect`);
    assert.ok(cancelled.imported > 0 && cancelled.imported <= stored, `the summary counts what was imported (${cancelled.imported} of ${stored})`);

    const rest = (await vscode.commands.executeCommand<ImportSummary>('satchel.importSnippets', file, [file]))!;
    assert.equal(rest.cancelled, false);
    assert.equal(rest.duplicates, stored, 'what the cancelled import wrote is whole: every one is a duplicate now');
    assert.equal(rest.imported, total - stored);
    assert.equal(rest.failed, 0);
    assert.equal(await countNamed('Bulk '), total, 'each snippet stored exactly once');
  });
});
