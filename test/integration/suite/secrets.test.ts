/**
 * Secrets in the editor, in a real VS Code: a snippet holding credentials shows a key in the Assets view,
 * its hover lists what was found (kind and line, never the value), the open document marks each value
 * (highlight, warning, quick fixes) wherever it is as the user edits; Replace Secret with Placeholder turns
 * a value into a named tab stop that inserts as one; Not a Secret unflags the value in every snippet;
 * Forget Secret (confirmed: this harness's VS Code refuses modal dialogs) takes a backup and leaves no
 * revision holding the value; Sync With Its Secret is a per-snippet toggle the hover and the status bar count.
 * Screenshots: the tree, its hover, the marked document and the hover of a mark.
 */
import * as vscode from 'vscode';
import assert from 'node:assert/strict';
import { mouse, screenshot, screenshotPath, until } from './support.ts';
import { activated, discardEditors, openSnippet, pause, revealAsset, showAssets } from './assetsWorkbench.ts';
import type { SatchelExtension } from '../../../src/extension/satchelExtension.ts';
import type { SatchelClient } from '../../../src/client/satchelClient.ts';
import type { AssetsNode } from '../../../src/extension/views/assetsView.ts';
import type { SecretTarget } from '../../../src/extension/secrets/secretMarks.ts';
import { assetSecrets } from '../../../src/extension/secrets/snippetSecrets.ts';
import { assetText } from '../../../src/client/assets.ts';
import type { Asset } from '../../../src/core/piecesTypes.ts';
import type { Forgotten } from '../../../src/client/secrets.ts';

// Made up, in the shapes secretlint's AWS rules know: nobody's credentials.
const KEY_ID = 'AKIAZ7Q3VN5LKD2WJX4M';
const SECRET = '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';
const UPLOAD = [
  'import boto3',
  '',
  `s3 = boto3.client("s3", aws_access_key_id="${KEY_ID}",`,
  `                  aws_secret_access_key="${SECRET}")`,
  's3.upload_file("report.csv", "reports", "2026/report.csv")',
  '',
].join('\n');

const STRIPE_TEST = 'sk_test_4eC39HqLyjWDarjtT1zdp7dc';
const GITHUB = 'ghp_R8mZ2kQ7vX4nT9wL3pJ6hF1sD5gB0yC8aE2u';
const SLACK = 'xoxb-48213579610-7730215948362-Qm3ZtR8kVn2LwX6pJd9sHf4Y';

let api: SatchelExtension;
let client: SatchelClient;

async function nodeOf(id: string): Promise<AssetsNode> {
  const node = await api.assets.nodeOf(id);
  if (!node) throw new Error(`${id} is not in the Assets view`);
  return node;
}

/** Waits until the view's copy of the snippet carries `count` findings (the host scans on every write). */
function flagged(id: string, count: (n: number) => boolean): Promise<Asset> {
  return until(`the findings of ${id}`, () => {
    const asset = api.assets.asset(id);
    return asset && count(assetSecrets(asset).length) && asset;
  }, 30_000);
}

const noValue = (text: string, what: string) => {
  assert.ok(!text.includes(KEY_ID) && !text.includes(SECRET), `${what} shows no value`);
};

describe('Secrets in the editor', function () {
  let upload: Asset;

  before(async function () {
    ({ api, client } = await activated());
    const application = await api.server.application();
    upload = await client.assets.createFromText({ text: UPLOAD, application, language: 'py', name: 'Upload a report to S3', tags: ['aws'] });
    await flagged(upload.id, (n) => n === 2);
    // Whole (the view holds it without its code), so its findings come in the code's order, with their lines.
    upload = await client.assets.get(upload.id);
  });

  after(async function () {
    await discardEditors();
    client?.dispose();
  });

  it('shows a flagged snippet in the Assets view: a key, the count, and a hover listing kind and line, never the value', async function () {
    // The view holds the snippet without its code: its findings (kinds, values to mark), their lines from the whole snippet.
    assert.deepEqual(assetSecrets(api.assets.asset(upload.id)!).map((s) => s.label).sort(), ['AWS access key ID', 'AWS secret access key']);
    const secrets = assetSecrets(upload);
    assert.deepEqual(secrets.map((s) => [s.label, s.line]), [['AWS access key ID', 3], ['AWS secret access key', 4]]);
    const node = await nodeOf(upload.id);
    const item = api.assets.getTreeItem(node);
    assert.ok(item.iconPath instanceof vscode.ThemeIcon && item.iconPath.id === 'key', 'a key instead of the language icon');
    assert.match(String(item.description), /^2 secrets/);
    assert.equal(item.contextValue, 'asset:secret');
    const resolved = await api.assets.resolveTreeItem(item, node, new vscode.CancellationTokenSource().token);
    const tooltip = resolved.tooltip instanceof vscode.MarkdownString ? resolved.tooltip.value : String(resolved.tooltip);
    assert.match(tooltip, /Holds 2 secrets/);
    assert.match(tooltip, /AWS access key ID · access key · line 3/);
    assert.match(tooltip, /AWS secret access key · secret key · line 4/);
    assert.match(tooltip, /«secret: AWS secret access key»/, 'the code preview shows the placeholder');
    noValue(tooltip, 'the tooltip');

    await showAssets();
    await revealAsset(api, upload.id);
    // Its group's row at the top, so the snippet's row is not the one under the sticky group header.
    const group = api.assets.getChildren().find((candidate) => candidate.type === 'group' && node.type === 'asset' && candidate.pageKey === node.group);
    if (group) await api.assets.treeView.reveal(group, { select: false, focus: false }).then(undefined, () => undefined);
    await pause(500);
    await screenshot('secrets-tree');
    const hoverOnce = () => mouse({ action: 'hover', at: { treeItem: 'Upload a report to S3' }, ...(screenshotPath('secrets-hover') ? { screenshot: screenshotPath('secrets-hover')! } : {}) });
    // Once more if the first rest of the pointer showed nothing (the window was busy): the hover is what is tested.
    const hover = await hoverOnce().catch(async () => {
      await pause(2000);
      return hoverOnce();
    });
    assert.match(hover.text ?? '', /Holds 2 secrets/);
    assert.match(hover.text ?? '', /AWS secret access key/);
    assert.match(hover.text ?? '', /line 4/);
    noValue(hover.text ?? '', 'the hover VS Code shows');

    await until('the status bar count', () => api.secretsStatus.counts.flagged >= 1);
    assert.match(api.secretsStatus.text ?? '', /^\$\(key\) \d+/);
  });

  it('marks each value in the open snippet with a warning and quick fixes, and follows unsaved edits', async function () {
    const editor = await openSnippet(upload.id);
    const document = editor.document;
    const marks = await until('the marks', () => api.secretMarks.marksIn(document).length === 2 && api.secretMarks.marksIn(document));
    assert.deepEqual(marks.map((mark) => document.getText(mark.range)), [KEY_ID, SECRET]);
    assert.deepEqual(marks.map((mark) => mark.range.start.line), [2, 3]);
    const diagnostics = vscode.languages.getDiagnostics(document.uri).filter((d) => d.source === 'Satchel');
    assert.equal(diagnostics.length, 2);
    assert.match(diagnostics[1]!.message, /AWS secret access key \(secret key\)\. Sync, agents and exports get «secret: AWS secret access key» instead/);
    for (const diagnostic of diagnostics) noValue(diagnostic.message, 'the warning');

    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', document.uri, marks[1]!.range);
    const titles = actions.map((action) => action.title);
    for (const title of ['Replace AWS secret access key with Placeholder', 'Not a Secret', 'Forget Secret…']) assert.ok(titles.includes(title), `${title} in ${titles.join(', ')}`);
    const replace = actions.find((action) => action.title.startsWith('Replace'))!;
    assert.deepEqual(replace.command?.arguments, [{ asset: upload.id, sensitive: assetSecrets(upload)[1]!.id } satisfies SecretTarget]);

    // Unsaved edits move the values: the marks follow the text, not the host's offsets.
    assert.ok(await editor.edit((edit) => edit.insert(new vscode.Position(0, 0), '# Uploads the nightly report.\n')));
    await until('the marks to follow', () => api.secretMarks.marksIn(document)[1]?.range.start.line === 4);
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await until('the marks back', () => api.secretMarks.marksIn(document)[1]?.range.start.line === 3);

    await showAssets();
    await revealAsset(api, upload.id);
    await pause(500);
    await screenshot('secrets-editor');
    const secretColumn = document.lineAt(3).text.indexOf(SECRET) + 4;
    const hover = await mouse({ action: 'hover', at: { editorLine: 4, character: secretColumn }, ...(screenshotPath('secrets-editor-hover') ? { screenshot: screenshotPath('secrets-editor-hover')! } : {}) });
    assert.match(hover.text ?? '', /AWS secret access key/);
    noValue(hover.text ?? '', 'the hover of a mark');
  });

  it('Replace Secret with Placeholder turns a value into a named tab stop; the snippet inserts as a template', async function () {
    const [keyId, secret] = assetSecrets(upload);
    const replaced = await vscode.commands.executeCommand<number>('satchel.secret.replaceWithPlaceholder', { asset: upload.id, sensitive: secret!.id } satisfies SecretTarget);
    assert.equal(replaced, 1);
    const stored = assetText(await client.assets.get(upload.id));
    assert.ok(stored.includes('aws_secret_access_key="${1:AWS_SECRET_ACCESS_KEY}"'), stored);
    assert.ok(!stored.includes(SECRET));
    assert.ok(stored.includes(KEY_ID), 'only the chosen value');
    assert.equal((await client.snippets.info(upload.id)).syntax, true, 'now a snippet template');
    const after = await flagged(upload.id, (n) => n === 1);
    assert.equal(assetSecrets(after)[0]!.id, keyId!.id, 'the host no longer records the replaced value');

    await vscode.commands.executeCommand('satchel.secret.replaceWithPlaceholder', upload.id);
    await flagged(upload.id, (n) => n === 0);
    const template = assetText(await client.assets.get(upload.id));
    assert.ok(template.includes('aws_access_key_id="${2:AWS_ACCESS_KEY_ID}"'), template);
    assert.equal(api.assets.getTreeItem(await nodeOf(upload.id)).contextValue, 'asset', 'no longer flagged');

    // Inserted, the template puts the cursor on the first name to type over.
    const target = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ language: 'python' }));
    assert.ok(await vscode.commands.executeCommand('satchel.asset.insert', upload.id));
    await until('the insertion', () => target.document.getText().includes('boto3'));
    assert.equal(target.document.getText(target.selection), 'AWS_SECRET_ACCESS_KEY');
    await discardEditors();
  });

  it('Not a Secret: the value is no longer flagged, in this snippet or another one holding it', async function () {
    const application = await api.server.application();
    const fixture = await client.assets.createFromText({ text: `stripe.api_key = "${STRIPE_TEST}"  # the documentation's test key\n`, application, language: 'py', name: 'Stripe test fixture' });
    const other = await client.assets.createFromText({ text: `const stripe = new Stripe('${STRIPE_TEST}');\n`, application, language: 'js', name: 'Stripe client for tests' });
    const [secret] = assetSecrets(await flagged(fixture.id, (n) => n === 1));
    await flagged(other.id, (n) => n === 1);
    assert.equal(await vscode.commands.executeCommand('satchel.secret.notASecret', { asset: fixture.id, sensitive: secret!.id } satisfies SecretTarget), secret!.id);
    await flagged(fixture.id, (n) => n === 0);
    await flagged(other.id, (n) => n === 0);
    assert.equal((await client.assets.get(other.id)).sensitives, undefined, 'the host honours it for every snippet');
  });

  it('Forget Secret takes a backup, then no revision holds the value', async function () {
    this.timeout(120_000);
    const application = await api.server.application();
    const text = `curl -H "Authorization: token ${GITHUB}" https://api.github.com/user/repos\n`;
    const deploy = await client.assets.createFromText({ text, application, language: 'sh', name: 'List my repositories' });
    await flagged(deploy.id, (n) => n === 1);
    await client.history.edit(deploy.id, { content: `${text}echo listed\n` });
    await until('the edit scanned', async () => assetText(await client.assets.get(deploy.id)).includes('echo listed') && (await client.assets.get(deploy.id)).sensitives?.iterable.length === 1);
    const revisions = (await client.history.list(deploy.id)).revisions;
    assert.ok(revisions.length >= 2);

    const forgotten = await vscode.commands.executeCommand<Forgotten | undefined>('satchel.secret.forget', deploy.id, { confirmed: true });
    assert.ok(forgotten);
    assert.match(forgotten.backup, /forget/);
    assert.equal(forgotten.values, 1);
    assert.ok(forgotten.revisionTexts >= 1, 'earlier revisions rewritten');
    const now = assetText(await client.assets.get(deploy.id));
    assert.ok(now.includes('«secret: GitHub token»') && !now.includes(GITHUB), now);
    for (const revision of (await client.history.list(deploy.id)).revisions) {
      const content = (await client.history.get(deploy.id, revision.id)).content;
      assert.ok('text' in content && !content.text.includes(GITHUB), `revision ${revision.id} holds no value`);
    }
    await flagged(deploy.id, (n) => n === 0);
  });

  it('Sync With Its Secret is a per-snippet choice, shown in the hover and counted in the status bar', async function () {
    const application = await api.server.application();
    const bot = await client.assets.createFromText({ text: `app = App(token="${SLACK}")\n`, application, language: 'py', name: 'Slack bot' });
    await flagged(bot.id, (n) => n === 1);
    await api.secretsStatus.update();
    const before = api.secretsStatus.counts;
    assert.ok(before.flagged >= 1);

    assert.equal(await vscode.commands.executeCommand('satchel.secret.syncWithSecret', bot.id, true), true);
    assert.equal((await client.secrets.syncsWithSecrets(bot.id)).include, true);
    assert.equal(api.secretsStatus.counts.syncedWithSecret, (before.syncedWithSecret ?? 0) + 1);
    assert.match(api.secretsStatus.text ?? '', /synced\)$/);
    const node = await nodeOf(bot.id);
    const item = await api.assets.resolveTreeItem(api.assets.getTreeItem(node), node, new vscode.CancellationTokenSource().token);
    assert.match(item.tooltip instanceof vscode.MarkdownString ? item.tooltip.value : '', /Syncs with its secret, as you chose/);

    assert.equal(await vscode.commands.executeCommand('satchel.secret.syncWithSecret', bot.id, false), false);
    assert.equal((await client.secrets.syncsWithSecrets(bot.id)).include, false);
    assert.equal(api.secretsStatus.counts.syncedWithSecret, before.syncedWithSecret ?? 0);
  });
});
