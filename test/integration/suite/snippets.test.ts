/**
 * Saved snippets in IntelliSense and as templates, in a real VS Code: completion items in a file,
 * an untitled document and a document of a file system of another scheme (as SSH and WSL windows
 * have); a template accepted through completion leaves the cursor in its first placeholder; a `$`
 * in plain code survives completion and Insert at Cursor; the settings turn completion off or
 * restrict it to a trigger prefix; Save Selection as Snippet Template proposes placeholders, shows
 * them for confirmation (Save / Discard above the preview) and saves a template that inserts with
 * tab stops. Screenshots: the
 * completion list with its preview, the template confirmation.
 */
import * as vscode from 'vscode';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXTENSION_ID, MemoryFileSystem, screenshot, until } from './support.ts';
import type { SatchelExtension } from '../../../src/extension/satchelExtension.ts';
import { SatchelClient } from '../../../src/client/satchelClient.ts';
import type { Asset } from '../../../src/core/piecesTypes.ts';

let api: SatchelExtension;
let client: SatchelClient;

const TEMPLATE = 'for (let ${1:attempt} = 1; ; $1++) {\n\ttry {\n\t\treturn await fetch(${2:url});\n\t} catch (error) {\n\t\tif ($1 >= ${3:3}) throw error;\n\t\tconsole.warn(`retry \\${$1}`);\n\t}\n}';
const SHELL = 'echo "$HOME" && cd ${PROJECT_DIR:-.} # costs $5';

const labelOf = (item: vscode.CompletionItem): string => (typeof item.label === 'string' ? item.label : item.label.label);

const isSatchel = (item: vscode.CompletionItem): boolean => item.detail?.startsWith('Satchel · ') === true;

/**
 * Satchel's items for the position, as VS Code's completion asks every provider; with `resolved`,
 * their previews filled (items are resolved in the list's order, so the language's own are too).
 */
async function satchelItems(uri: vscode.Uri, position: vscode.Position, resolved = false): Promise<vscode.CompletionItem[]> {
  const complete = (resolve?: number) => vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', uri, position, undefined, resolve);
  const items = (await complete()).items;
  const last = items.findLastIndex(isSatchel);
  if (!resolved || last === -1) return items.filter(isSatchel);
  return (await complete(last + 1)).items.filter(isSatchel);
}

/** An editor on a new untitled document holding `text`, the cursor at its end. */
async function editorWith(text: string, language: string): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument({ language, content: text });
  const editor = await vscode.window.showTextDocument(document);
  const end = document.positionAt(text.length);
  editor.selection = new vscode.Selection(end, end);
  return editor;
}

/** Opens the suggest widget where the cursor is and accepts its first item, as a user pressing Ctrl+Space then Enter. */
async function acceptFirstSuggestion(editor: vscode.TextEditor, before: string): Promise<void> {
  for (let attempt = 0; attempt < 3 && editor.document.getText() === before; attempt++) {
    await vscode.commands.executeCommand('editor.action.triggerSuggest');
    await new Promise((r) => setTimeout(r, 1500));
    await vscode.commands.executeCommand('acceptSelectedSuggestion');
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** Closes every editor, dropping the changes of untitled ones (closing them would ask to save). */
async function discardEditors(): Promise<void> {
  for (let i = 0; i < 50 && vscode.window.tabGroups.all.some((group) => group.tabs.length > 0); i++) {
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  }
}

async function setting(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('satchel').update(key, value, vscode.ConfigurationTarget.Global);
  await new Promise((r) => setTimeout(r, 300));
}

describe('Snippets in IntelliSense and templates', function () {
  let template: Asset;
  let shell: Asset;

  before(async function () {
    const extension = vscode.extensions.getExtension<SatchelExtension>(EXTENSION_ID)!;
    api = await extension.activate();
    await until('the server role', () => (api.server.connection ? true : undefined), 30_000);
    client = new SatchelClient(api.server.connection!.url);
    const application = await api.server.application();
    template = await client.assets.createFromText({ text: TEMPLATE, application, language: 'ts', name: 'Fetch with retry', tags: ['http'] });
    await client.snippets.setInfo(template.id, { syntax: true, prefixes: ['fetchretry'] });
    shell = await client.assets.createFromText({ text: SHELL, application, language: 'sh', name: 'Go to the project' });
    await client.snippets.setInfo(shell.id, { prefixes: ['gohome'] });
  });

  after(async () => {
    await setting('completion.triggerPrefix', undefined);
    await setting('completion.enabled', undefined);
    client?.dispose();
  });

  it('offers saved snippets in a file:, an untitled: and another scheme\'s document, with a Markdown preview', async function () {
    const fileUri = vscode.Uri.file(join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, 'completion.ts'));
    writeFileSync(fileUri.fsPath, 'const response = fetchretr');
    const file = await vscode.workspace.openTextDocument(fileUri);
    const untitled = await vscode.workspace.openTextDocument({ language: 'typescript', content: 'const response = fetchretr' });
    const memory = new MemoryFileSystem();
    const registration = vscode.workspace.registerFileSystemProvider('satchelmem', memory);
    try {
      const remoteUri = vscode.Uri.parse('satchelmem:/remote/app.ts');
      await vscode.workspace.fs.writeFile(remoteUri, Buffer.from('const response = fetchretr'));
      const remote = await vscode.workspace.openTextDocument(remoteUri);
      for (const document of [file, untitled, remote]) {
        assert.equal(document.languageId, 'typescript', document.uri.toString());
        // The TypeScript server has no items for the other scheme: there Satchel's are resolved (in the others, after ~1,000 of its own).
        const items = await satchelItems(document.uri, document.positionAt(document.getText().length), document === remote);
        assert.deepEqual(items.map(labelOf), ['fetchretry'], `${document.uri.scheme}: the template by its prefix`);
        const [item] = items;
        assert.ok(item!.insertText instanceof vscode.SnippetString && item!.insertText.value === TEMPLATE, 'inserted as snippet syntax');
        if (document !== remote) continue;
        const preview = item!.documentation instanceof vscode.MarkdownString ? item!.documentation.value : '';
        assert.match(preview, /\*\*Fetch with retry\*\* · `http` `fetchretry`/, `${document.uri.scheme}: the preview's head in ${JSON.stringify(preview)}`);
        assert.match(preview, /```typescript\nfor \(let attempt = 1; ; attempt\+\+\) \{\n\ttry \{\n\t\treturn await fetch\(url\);/, 'the code as inserted, highlighted');
      }
    } finally {
      registration.dispose();
    }
  });

  it('a template accepted through completion leaves the cursor in its first placeholder; Tab goes to the next', async function () {
    await discardEditors();
    const file = vscode.Uri.file(join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, 'completion.ts'));
    const editor = await vscode.window.showTextDocument(file);
    await editor.edit((edit) => edit.replace(new vscode.Range(0, 0, editor.document.lineCount, 0), 'async function load(url: string) {\n    fetchretr\n}\n'));
    const end = new vscode.Position(1, 13);
    editor.selection = new vscode.Selection(end, end);
    // The screenshot: the suggest widget with the preview beside it.
    await vscode.commands.executeCommand('editor.action.triggerSuggest');
    await new Promise((r) => setTimeout(r, 1500));
    await vscode.commands.executeCommand('toggleSuggestionDetails');
    await new Promise((r) => setTimeout(r, 800));
    await screenshot('completion');
    const before = editor.document.getText();
    await vscode.commands.executeCommand('acceptSelectedSuggestion');
    await new Promise((r) => setTimeout(r, 300));
    if (editor.document.getText() === before) await acceptFirstSuggestion(editor, before);
    const text = editor.document.getText();
    assert.match(text, /\n(\s+)for \(let attempt = 1; ; attempt\+\+\) \{\n\1\s+try \{\n\1\s+return await fetch\(url\);/, `inserted with the line's indentation, placeholders showing their defaults: ${JSON.stringify(text)}`);
    assert.ok(text.includes('console.warn(`retry ${attempt}`);'), 'an escaped $ inside the template stays a $');
    assert.equal(editor.document.getText(editor.selection), 'attempt', 'the cursor selects the first placeholder');
    assert.deepEqual(editor.selections.map((selection) => editor.document.getText(selection)), ['attempt', 'attempt', 'attempt', 'attempt'], 'and its three mirrors, linked');
    await vscode.commands.executeCommand('jumpToNextSnippetPlaceholder');
    assert.equal(editor.document.getText(editor.selection), 'url', 'Tab goes to the second placeholder');
  });

  it('plain code keeps its $ through completion and Insert at Cursor', async function () {
    const editor = await editorWith('gohom', 'shellscript');
    await acceptFirstSuggestion(editor, 'gohom');
    assert.equal(editor.document.getText(), SHELL, 'completion inserts the code as saved');

    const inserted = await editorWith('', 'shellscript');
    await vscode.commands.executeCommand('satchel.asset.insert', shell.id);
    assert.equal(inserted.document.getText(), SHELL, 'Insert at Cursor inserts it the same way');
    const templated = await editorWith('', 'typescript');
    await vscode.commands.executeCommand('satchel.asset.insert', template.id);
    assert.equal(templated.document.getText(templated.selection), 'attempt', 'Insert at Cursor gives a template its tab stops too');
  });

  it('the settings turn completion off, or restrict it to a trigger prefix that the snippet replaces', async function () {
    // Plain text offers every language's snippets, and has no language server to wait for.
    const document = await vscode.workspace.openTextDocument({ language: 'plaintext', content: 'fetchretr\nx = sat:fetchr' });
    await setting('completion.enabled', false);
    assert.equal((await satchelItems(document.uri, new vscode.Position(0, 9))).length, 0, 'off');
    await setting('completion.enabled', true);
    await setting('completion.triggerPrefix', 'sat:');
    assert.equal((await satchelItems(document.uri, new vscode.Position(0, 9))).length, 0, 'no prefix typed');
    const [item] = await satchelItems(document.uri, new vscode.Position(1, 14));
    assert.equal(item && labelOf(item), 'fetchretry');
    const range = item!.range instanceof vscode.Range ? item!.range : item!.range?.replacing;
    assert.deepEqual([range?.start.character, range?.end.character], [4, 14], 'the prefix is replaced too');
    await setting('completion.triggerPrefix', undefined);
    assert.equal((await satchelItems(document.uri, new vscode.Position(0, 9))).length, 1, 'back to words as typed');
  });

  it('a snippet can be made plain code or a template again; a tag exports to a .code-snippets file', async function () {
    await vscode.commands.executeCommand('satchel.asset.snippetSyntax', template.id, false);
    const document = await vscode.workspace.openTextDocument({ language: 'plaintext', content: 'fetchretr' });
    const [plain] = await satchelItems(document.uri, new vscode.Position(0, 9));
    assert.ok(plain?.insertText instanceof vscode.SnippetString);
    assert.equal(plain.insertText.value, TEMPLATE.replace(/[$}\\]/g, '\\$&'), 'as plain code its ${1:…} would insert as written');
    await vscode.commands.executeCommand('satchel.asset.snippetSyntax', template.id, true);
    const [again] = await satchelItems(document.uri, new vscode.Position(0, 9));
    assert.equal((again?.insertText as vscode.SnippetString).value, TEMPLATE);
    await vscode.commands.executeCommand('satchel.asset.prefixes', template.id, 'fetchretry, fwr');
    assert.deepEqual((await client.snippets.info(template.id)).prefixes, ['fetchretry', 'fwr']);

    const target = vscode.Uri.file(join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, 'http.code-snippets'));
    const written = await vscode.commands.executeCommand<vscode.Uri>('satchel.exportTagSnippets', 'http', target);
    assert.equal(written?.toString(), target.toString());
    const exported = JSON.parse(Buffer.from(await vscode.workspace.fs.readFile(target)).toString('utf8')) as Record<string, { prefix: unknown; body: string[]; scope: string }>;
    assert.deepEqual(exported['Fetch with retry'], { prefix: ['fetchretry', 'fwr'], body: TEMPLATE.split('\n'), scope: 'typescript' });
  });

  it('saves a selection as a template: placeholders proposed, shown for confirmation, saved as snippet syntax', async function () {
    await discardEditors();
    const code = "export async function loadUser(api: Api, userId: string): Promise<User> {\n  const user = await api.get<User>('/users/' + userId);\n  if (!user) throw new Error('no user ' + userId);\n  return user;\n}\n";
    const file = join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, 'users.ts');
    writeFileSync(file, `interface User {\n  readonly id: string;\n}\ninterface Api {\n  get<T>(path: string): Promise<T | undefined>;\n}\n\n${code}`);
    const source = await vscode.window.showTextDocument(vscode.Uri.file(file));
    source.selection = new vscode.Selection(7, 0, 12, 0);
    assert.equal(source.document.getText(source.selection), code);
    const saving = vscode.commands.executeCommand<Asset>('satchel.saveSelectionAsTemplate');
    const preview = await until('the template preview', () => vscode.window.visibleTextEditors.find((e) => e.document.uri.scheme === 'satchel-template'));
    assert.equal(
      preview.document.getText(),
      "export async function loadUser(${1:api}: Api, ${2:userId}: string): Promise<${3:User}> {\n  const ${4:user} = await $1.get<$3>('${5:/users/}' + $2);\n  if (!$4) throw new Error('${6:no user }' + $2);\n  return $4;\n}\n",
    );
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', preview.document.uri);
    assert.deepEqual(lenses.map((lens) => lens.command?.title), ['$(check) Save as Snippet Template…', '$(close) Discard', 'TypeScript template, 6 placeholders']);
    assert.equal(lenses[0]!.command?.tooltip, '6 placeholders: $1 api ×2, $2 userId ×3, $3 User ×2, $4 user ×3, $5 "/users/", $6 "no user "');
    // Room for the code and the template side by side.
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await new Promise((r) => setTimeout(r, 1500));
    await screenshot('template');
    await vscode.commands.executeCommand('workbench.view.explorer');
    // As a click on the Save lens does; then the name and the prefix are confirmed as proposed
    // (Enter, again until both questions are answered: each appears once the one before is gone).
    let done = false;
    void saving.then(() => (done = true), () => (done = true));
    await vscode.commands.executeCommand('satchel.template.save', preview.document.uri);
    for (let i = 0; i < 40 && !done; i++) {
      await new Promise((r) => setTimeout(r, 500));
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    }
    const saved = await saving;
    assert.ok(saved?.id, 'the command returns the saved template');
    const info = await client.snippets.info(saved.id);
    assert.equal(info.syntax, true);
    assert.deepEqual(info.prefixes, ['loadUser'], 'the prefix proposed from the name proposed (the declared function)');
    assert.ok(vscode.window.visibleTextEditors.every((e) => e.document.uri.scheme !== 'satchel-template'), 'the preview is closed without a save prompt');

    const target = await editorWith('', 'typescript');
    await vscode.commands.executeCommand('satchel.asset.insert', saved.id);
    assert.equal(target.document.getText(), code, 'before anything is typed, the template inserts the code it came from');
    assert.equal(target.document.getText(target.selection), 'api', 'inserted with its tab stops');
  });
});
