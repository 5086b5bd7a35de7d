/**
 * Drag and drop between the Assets view and the rest of a real VS Code, with the real mouse
 * (Chromium's HTML5 drag through the workbench, see host/mouseActions.ts): a snippet dragged into
 * an editor with Shift held is inserted at the drop point as a snippet (its first placeholder
 * selected, mirrors filled), and without Shift VS Code opens its editable document; an editor's tab
 * and an Explorer file dropped on the view are saved as snippets in their language; text dropped
 * on the view (as from another application) is saved as it is.
 */
import * as vscode from 'vscode';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mouse, screenshot, until } from './support.ts';
import { activated, discardEditors, pause, revealAsset, showAssets } from './assetsWorkbench.ts';
import type { SatchelExtension } from '../../../src/extension/satchelExtension.ts';
import type { SatchelClient } from '../../../src/client/satchelClient.ts';
import { assetLanguage, assetText } from '../../../src/client/assets.ts';
import type { Asset } from '../../../src/core/piecesTypes.ts';

const TEMPLATE = 'const ${1:response} = await fetch(${2:url});\nif (!$1.ok) throw new Error(${3:"request failed"});\n';
/** What the template inserts before any tab stop is filled. */
const INSERTED = 'const response = await fetch(url);\nif (!response.ok) throw new Error("request failed");\n';
const TARGET = '// one\n// two\n// three\n// four\n';
const BACKOFF = 'def backoff(attempt: int, base: float = 0.1) -> float:\n    return base * 2 ** attempt\n';
const JITTER = '#!/bin/sh\n# Sleep a random 0-2 s before retrying.\nsleep "$(awk "BEGIN { srand(); print rand() * 2 }")"\n';

let api: SatchelExtension;
let client: SatchelClient;

/** The snippet saved with exactly this text, once the Assets view has it. */
function savedWith(text: string): Promise<Asset> {
  // The view holds snippets without their text: the text of those it holds is read from the host.
  return until(
    `a snippet holding ${JSON.stringify(text.slice(0, 30))}`,
    async () => (await client.snippets.byId(api.assets.assets.map((asset) => asset.id), { transferables: true })).find((asset) => assetText(asset) === text),
    20_000,
  );
}

/** A file holding TARGET alone in the editor area, and the Assets view showing the snippet to drag. */
async function targetBesideTheView(file: string, id: string): Promise<vscode.TextEditor> {
  await discardEditors();
  writeFileSync(file, TARGET);
  const editor = await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: false });
  await showAssets();
  await revealAsset(api, id);
  return editor;
}

describe('Drag and drop with the Assets view', function () {
  let template: Asset;
  let folder: string;

  before(async function () {
    ({ api, client } = await activated());
    folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    template = await client.assets.createFromText({ text: TEMPLATE, application: await api.server.application(), language: 'ts', name: 'Fetch or throw' });
    await client.snippets.setInfo(template.id, { syntax: true });
    await until('the template in the view', () => api.assets.asset(template.id));
  });

  after(async function () {
    await discardEditors();
    client?.dispose();
  });

  it('a snippet dragged into an editor with Shift is inserted at the drop point as a snippet', async function () {
    const editor = await targetBesideTheView(join(folder, 'drop-target.ts'), template.id);

    await mouse({ action: 'drag', from: { treeItem: 'Fetch or throw' }, to: { editorLine: 3 }, shift: true });
    const document = editor.document;
    await until('the snippet in the editor', () => document.getText() !== TARGET);
    const at = TARGET.indexOf('// three');
    assert.equal(document.getText(), TARGET.slice(0, at) + INSERTED + TARGET.slice(at), 'inserted at the start of the third line');
    const active = vscode.window.activeTextEditor;
    assert.equal(active?.document, document);
    assert.equal(document.getText(active.selection), 'response', 'the first placeholder is selected: a snippet, not text');
    await screenshot('drag-into-editor');
  });

  it('a snippet dragged into an editor without Shift opens its editable document', async function () {
    const editor = await targetBesideTheView(join(folder, 'open-target.ts'), template.id);
    await mouse({ action: 'drag', from: { treeItem: 'Fetch or throw' }, to: { editorLine: 2 } });
    const opened = await until('the snippet opened', () => {
      const active = vscode.window.activeTextEditor;
      return active?.document.uri.scheme === 'satchel' && active;
    });
    assert.equal(opened.document.uri.authority, template.id);
    assert.equal(opened.document.getText(), TEMPLATE);
    assert.equal(editor.document.getText(), TARGET, 'nothing was inserted');
  });

  it('an editor tab and an Explorer file dropped on the view are saved as snippets', async function () {
    await discardEditors();
    const backoff = join(folder, 'backoff.py');
    writeFileSync(backoff, BACKOFF);
    await vscode.window.showTextDocument(vscode.Uri.file(backoff), { preview: false });
    await showAssets();
    await revealAsset(api, template.id);

    await mouse({ action: 'drag', from: { tab: 'backoff.py' }, to: { treeItem: 'Fetch or throw' } });
    const fromTab = await savedWith(BACKOFF);
    assert.equal(assetLanguage(fromTab), 'py');
    assert.match(fromTab.name ?? '', /backoff/);

    // The Explorer and the Assets view side by side: the view moved into the Explorer's container for the drag.
    writeFileSync(join(folder, 'jitter.sh'), JITTER);
    await vscode.commands.executeCommand('vscode.moveViews', { viewIds: ['satchel.assets'], destinationId: 'workbench.view.explorer' });
    try {
      await vscode.commands.executeCommand('workbench.view.explorer');
      await vscode.commands.executeCommand('satchel.assets.focus');
      await vscode.commands.executeCommand('workbench.files.action.refreshFilesExplorer');
      await pause(1000);
      await revealAsset(api, template.id);
      await mouse({ action: 'drag', from: { treeItem: 'jitter.sh' }, to: { treeItem: 'Fetch or throw' } });
      const fromExplorer = await savedWith(JITTER);
      assert.equal(assetLanguage(fromExplorer), 'sh');
    } finally {
      await vscode.commands.executeCommand('vscode.moveViews', { viewIds: ['satchel.assets'], destinationId: 'workbench.view.extension.satchel' });
    }
  });

  it('text dropped on the view is saved as it is', async function () {
    await showAssets();
    await revealAsset(api, template.id);
    const text = 'SELECT id, email FROM users WHERE last_seen < now() - interval \'90 days\';';
    await mouse({ action: 'drop-text', on: { treeItem: 'Fetch or throw' }, text });
    await savedWith(text);
  });
});
