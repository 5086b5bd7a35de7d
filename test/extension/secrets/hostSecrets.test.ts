/**
 * The editor's reading of secrets against a real host (no VS Code): what `GET /asset/{id}` records in
 * `sensitives` is read as the tree, hover and marks read it (kind, line, span; hidden in previews), the
 * assets stream tells a window when a scan recorded them, and Replace Secret with Placeholder's rewrite,
 * saved as the editor saves it, leaves a template the host no longer flags.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withClient } from '../../support/helpers.ts';
import { assetText } from '../../../src/client/assets.ts';
import type { Asset, StreamedIdentifiers } from '../../../src/core/piecesTypes.ts';
import type { SatchelClient } from '../../../src/client/satchelClient.ts';
import { describeSecret, hideSecrets, locateSecrets, secretsOf } from '../../../src/extension/secrets/snippetSecrets.ts';
import { replaceWithTabStops } from '../../../src/extension/secrets/secretTabStops.ts';
import { renderSnippet } from '../../../src/core/snippets/snippetSyntax.ts';

// Made up, in the shapes of secretlint's AWS rules: nobody's credentials.
const KEY_ID = 'AKIAZ7Q3VN5LKD2WJX4M';
const SECRET = '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';
const UPLOAD = [
  'import boto3',
  '',
  `s3 = boto3.client("s3", aws_access_key_id="${KEY_ID}",`,
  `                  aws_secret_access_key="${SECRET}")`,
  'print(f"uploaded to ${BUCKET}")',
  '',
].join('\n');

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The asset once its sensitives number `count` (the host scans after each write). */
const withSensitives = (client: SatchelClient, id: string, count: number): Promise<Asset> =>
  until(`${count} sensitives on ${id}`, async () => {
    const asset = await client.assets.get(id);
    return (asset.sensitives?.iterable.length ?? 0) === count ? asset : undefined;
  });

test('a flagged snippet reads as the editor shows it: kinds and lines, values hidden, spans in the code', async () => {
  await withClient(async (client) => {
    const { application } = await client.connector.connect({ name: 'VS_CODE', version: '1.0.0', platform: 'LINUX' });
    const frames: StreamedIdentifiers[] = [];
    client.assetIdentifiers().onFrame((frame) => frames.push(frame));
    const created = await client.assets.createFromText({ text: UPLOAD, application, language: 'py', name: 'Upload a report' });
    const asset = await withSensitives(client, created.id, 2);
    const code = assetText(asset);
    const secrets = secretsOf(asset, code);
    assert.deepEqual(secrets.map(describeSecret), ['AWS access key ID · access key · line 3', 'AWS secret access key · secret key · line 4']);
    assert.deepEqual(secrets.map((s) => code.slice(s.start, s.end)), [KEY_ID, SECRET]);
    const preview = hideSecrets(code, secrets);
    assert.ok(!preview.includes(KEY_ID) && !preview.includes(SECRET));
    assert.match(preview, /aws_secret_access_key="«secret: AWS secret access key»"/);
    assert.deepEqual(locateSecrets(code, secrets).map((span) => span.secret.label), ['AWS access key ID', 'AWS secret access key']);

    // A window follows the assets stream: the create's frame may come before the scan (the view then reads
    // no findings), so a frame names the asset again once the scan recorded them; a clean snippet gets one frame.
    const naming = (id: string) => frames.filter((f) => f.iterable.some((e) => e.asset?.id === id)).length;
    const later = await client.assets.createFromText({ text: `token = "${SECRET}"\n`, application, language: 'py', name: 'Later' });
    const clean = await client.assets.createFromText({ text: 'const answer = 42;\n', application, language: 'ts', name: 'Clean' });
    await withSensitives(client, later.id, 1);
    await until('a frame after the scan', async () => (naming(later.id) >= 2 ? true : undefined));
    await until('the clean snippet scanned', async () => ((await client.assets.get(clean.id)).sensitives === undefined && naming(clean.id) >= 1 ? true : undefined));
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(naming(clean.id), 1, 'a scan that found nothing sends no frame');
  });
});

test('Replace Secret with Placeholder, saved as the editor saves it, leaves a template the host no longer flags', async () => {
  await withClient(async (client) => {
    const { application } = await client.connector.connect({ name: 'VS_CODE', version: '1.0.0', platform: 'LINUX' });
    const created = await client.assets.createFromText({ text: UPLOAD, application, language: 'py', name: 'Upload a report' });
    const asset = await withSensitives(client, created.id, 2);
    const code = assetText(asset);
    const spans = locateSecrets(code, secretsOf(asset, code));
    const { text, replaced } = replaceWithTabStops(code, false, spans.map((s) => ({ start: s.start, end: s.end, label: s.secret.label, category: s.secret.category })));
    assert.equal(replaced, 2);
    await client.history.edit(created.id, { content: text });
    await client.snippets.setInfo(created.id, { syntax: true });
    const after = await withSensitives(client, created.id, 0);
    const template = assetText(after);
    assert.ok(template.includes('aws_access_key_id="${1:AWS_ACCESS_KEY_ID}"'));
    assert.ok(template.includes('aws_secret_access_key="${2:AWS_SECRET_ACCESS_KEY}"'));
    assert.ok(template.includes('print(f"uploaded to \\${BUCKET\\}")'), 'the code\'s own `${` escaped');
    assert.equal(after.sensitives, undefined, 'no sensitives once the values are gone');
    // What inserting it gives before the user types: the code with the names where the values were.
    assert.equal(renderSnippet(template), UPLOAD.replace(KEY_ID, 'AWS_ACCESS_KEY_ID').replace(SECRET, 'AWS_SECRET_ACCESS_KEY'));
  });
});

test('the editor\'s toggle reads whether a snippet syncs with its secret (GET sync-secrets), 404 for no snippet', async () => {
  await withClient(async (client) => {
    const { application } = await client.connector.connect({ name: 'VS_CODE', version: '1.0.0', platform: 'LINUX' });
    const created = await client.assets.createFromText({ text: UPLOAD, application, language: 'py', name: 'Upload a report' });
    assert.deepEqual(await client.secrets.syncsWithSecrets(created.id), { asset: created.id, include: false });
    await client.secrets.setSyncWithSecrets(created.id, true);
    assert.deepEqual(await client.secrets.syncsWithSecrets(created.id), { asset: created.id, include: true });
    await assert.rejects(client.secrets.syncsWithSecrets('no-such-asset'), (error: unknown) => error instanceof Error && 'status' in error && error.status === 404);
  });
});
