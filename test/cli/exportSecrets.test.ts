/**
 * `satchel export --vault` with the real detector (issue 32): every planted credential is written as its
 * placeholder, the output says how many snippets were; `--include-secrets` writes the values.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Satchel } from '../../src/core/satchel.ts';
import { tempDir } from '../support/helpers.ts';
import { runCli } from '../support/cli.ts';
import { TEST_WRITE } from '../support/authors.ts';
import { seed } from '../core/sync/vaultSupport.ts';
import { PLANTED, plantedIn } from '../support/fakeSecrets.ts';

function allText(dir: string): string {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .map((path) => readFileSync(path, 'utf8'))
    .join('\n');
}

test('export --vault writes placeholders for every credential; --include-secrets writes the values', { timeout: 120_000 }, async () => {
  const root = tempDir('satchel-cli-secrets-');
  const data = join(root, 'data');
  try {
    const core = Satchel.open({ dataDir: data, importWorker: false });
    await core.assets.writes.create(seed(`import boto3\ns3 = boto3.client("s3", aws_access_key_id="${PLANTED.awsKeyId}", aws_secret_access_key="${PLANTED.awsSecret}")\n`, { name: 'S3', ext: 'py' }), TEST_WRITE);
    await core.assets.writes.create(seed(`curl -H "Authorization: Bearer ${PLANTED.githubToken}" https://api.github.com/user\n`, { name: 'GitHub', ext: 'sh' }), TEST_WRITE);
    await core.assets.writes.create(seed(`const slack = new WebClient("${PLANTED.slackToken}");\nconst stripe = new Stripe("${PLANTED.stripeKey}");\n`, { name: 'Clients' }), TEST_WRITE);
    await core.assets.writes.create(seed(`DATABASE_URL=postgres://app:${PLANTED.postgresPassword}@db.internal:5432/app\n`, { name: 'Postgres', ext: 'sh' }), TEST_WRITE);
    await core.assets.writes.create(seed('export const answer = 42;\n', { name: 'Plain' }), TEST_WRITE);
    await core.close();
    const guarded = await runCli(['export', '--data-dir', data, '--vault', join(root, 'vault')]);
    assert.equal(guarded.code, 0, guarded.stderr);
    assert.match(guarded.stdout, /4 snippets hold secrets: they were written with placeholders/);
    const vault = allText(join(root, 'vault'));
    assert.deepEqual(plantedIn(vault), []);
    assert.match(vault, /«secret: /);
    const open = await runCli(['export', '--data-dir', data, '--vault', join(root, 'open'), '--include-secrets']);
    assert.equal(open.code, 0, open.stderr);
    assert.deepEqual(plantedIn(allText(join(root, 'open'))).sort(), Object.keys(PLANTED).sort());
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('importing the library\'s own redacted vault back keeps every value: placeholders take this store\'s values again', { timeout: 120_000 }, async () => {
  const root = tempDir('satchel-cli-secrets-back-');
  const data = join(root, 'data');
  const aws = `import boto3\ns3 = boto3.client("s3", aws_access_key_id="${PLANTED.awsKeyId}", aws_secret_access_key="${PLANTED.awsSecret}")\n`;
  try {
    let core = Satchel.open({ dataDir: data, importWorker: false });
    const made = await core.assets.writes.create(seed(aws, { name: 'S3', ext: 'py' }), TEST_WRITE);
    await core.assets.secrets.findingsNow(made.id);
    await core.close();
    const exported = await runCli(['export', '--data-dir', data, '--vault', join(root, 'vault')]);
    assert.equal(exported.code, 0, exported.stderr);
    assert.deepEqual(plantedIn(allText(join(root, 'vault'))), []);
    const imported = await runCli(['import', '--data-dir', data, join(root, 'vault')]);
    assert.equal(imported.code, 0, imported.stderr);
    core = Satchel.open({ dataDir: data, importWorker: false });
    try {
      assert.equal(core.assets.text(made.id), aws, 'the snippet keeps its values, not the placeholders');
    } finally {
      await core.close();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
