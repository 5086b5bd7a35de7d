/**
 * The editor's reading of secrets against a real host (no VS Code): what `GET /asset/{id}` records in
 * `sensitives` is read as the tree, hover and marks read it (kind, line, span; hidden in previews), the
 * assets stream tells a window when a scan recorded them, Replace Secret with Placeholder's conditional
 * edit leaves a template the host no longer flags (and never overwrites a change made meanwhile), and the
 * toggle reads whether a snippet syncs with its secret.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withClient } from '../../support/helpers.ts';
import { assetText } from '../../../src/client/assets.ts';
import type { Asset, StreamedIdentifiers } from '../../../src/core/piecesTypes.ts';
import type { SatchelClient } from '../../../src/client/satchelClient.ts';
import { describeSecret, hideSecrets, locateSecrets, secretsOf } from '../../../src/extension/secrets/snippetSecrets.ts';
import { replaceSecretsWithPlaceholders, SecretGoneError } from '../../../src/extension/secrets/replaceSecrets.ts';
import { ClientError } from '../../../src/client/errors.ts';
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

test('Replace Secret with Placeholder writes one conditional edit the host no longer flags; a template keeps numbering', async () => {
  await withClient(async (client) => {
    const { application } = await client.connector.connect({ name: 'VS_CODE', version: '1.0.0', platform: 'LINUX' });
    const created = await client.assets.createFromText({ text: UPLOAD, application, language: 'py', name: 'Upload a report' });
    const asset = await withSensitives(client, created.id, 2);
    const [keyId, secret] = secretsOf(asset, assetText(asset));
    const revisions = (await client.history.list(created.id)).revisions.length;

    assert.equal(await replaceSecretsWithPlaceholders(client, created.id, [secret!.id]), 1);
    const once = await withSensitives(client, created.id, 1);
    assert.equal(once.sensitives?.iterable[0]?.id, keyId!.id, 'only the chosen value went');
    assert.ok(assetText(once).includes('aws_secret_access_key="${1:AWS_SECRET_ACCESS_KEY}"'));
    assert.ok(assetText(once).includes('print(f"uploaded to \\${BUCKET\\}")'), "the code's own `${` escaped");
    assert.equal((await client.snippets.info(created.id)).syntax, true, 'now a template');
    assert.equal((await client.history.list(created.id)).revisions.length, revisions + 1, 'one revision');

    assert.equal(await replaceSecretsWithPlaceholders(client, created.id, []), 1, 'every value left in the code');
    const template = assetText(await withSensitives(client, created.id, 0));
    assert.ok(template.includes('aws_access_key_id="${2:AWS_ACCESS_KEY_ID}"'), 'numbered after the template\'s own');
    // What inserting it gives before the user types: the code with the names where the values were.
    assert.equal(renderSnippet(template), UPLOAD.replace(KEY_ID, 'AWS_ACCESS_KEY_ID').replace(SECRET, 'AWS_SECRET_ACCESS_KEY'));
    await assert.rejects(replaceSecretsWithPlaceholders(client, created.id, []), SecretGoneError);
  });
});

test('Replace Secret with Placeholder never overwrites a change made meanwhile', async () => {
  await withClient(async (client) => {
    const { application } = await client.connector.connect({ name: 'VS_CODE', version: '1.0.0', platform: 'LINUX' });
    const created = await client.assets.createFromText({ text: UPLOAD, application, language: 'py', name: 'Upload a report' });
    await withSensitives(client, created.id, 2);
    // Another tool edits between the command's read and its write: the write is refused, the edit kept.
    const getRevised = client.assets.getRevised.bind(client.assets);
    client.assets.getRevised = async (...args: Parameters<typeof getRevised>) => {
      const read = await getRevised(...args);
      await client.history.edit(created.id, { content: `${UPLOAD}# edited elsewhere\n` });
      return read;
    };
    await assert.rejects(replaceSecretsWithPlaceholders(client, created.id, []), (error: unknown) => error instanceof ClientError && error.staleRevision);
    const kept = assetText(await client.assets.get(created.id));
    assert.ok(kept.endsWith('# edited elsewhere\n') && kept.includes(SECRET));
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
