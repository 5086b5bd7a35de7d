/** Exports (issue 32): the vault and `.code-snippets` files hold placeholders unless the user asks for the values. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, withCore } from '../../support/helpers.ts';
import { TEST_WRITE } from '../../support/authors.ts';
import { seed } from '../sync/vaultSupport.ts';
import { conversationsOf, recordsOf } from '../sync/vaultSupport.ts';
import { FakeSecrets, PLANTED, plantedIn } from '../../support/fakeSecrets.ts';
import { exportVault } from '../../../src/core/sync/vaultExport.ts';
import type { Satchel } from '../../../src/core/satchel.ts';

/** Every file under `dir`, read as text and joined. */
function allText(dir: string): string {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .map((path) => readFileSync(path, 'utf8'))
    .join('\n');
}

async function plant(core: Satchel): Promise<string[]> {
  const by = TEST_WRITE;
  const boto = await core.assets.writes.create(seed(`aws_access_key_id = "${PLANTED.awsKeyId}"\naws_secret_access_key = "${PLANTED.awsSecret}"\n`, { name: 'S3', ext: 'py', tags: ['cloud'] }), by);
  const named = await core.assets.writes.create(seed(`curl -H "Authorization: Bearer ${PLANTED.githubToken}"\n`, { name: `Slack ${PLANTED.slackToken}`, ext: 'sh', tags: ['cloud'] }), by);
  core.assets.writes.edit(named.id, { description: `stripe ${PLANTED.stripeKey}` }, by);
  const plain = await core.assets.writes.create(seed('export const x = 1;\n', { name: 'Plain', tags: ['cloud'] }), by);
  return [boto.id, named.id, plain.id];
}

test('the vault export writes placeholders for every value, in code, names and descriptions; without the door it writes the values', async () => {
  const secrets = new FakeSecrets();
  await withCore(
    async (core) => {
      await plant(core);
      const chat = core.conversations.create({ type: 'COPILOT', name: 'Deploy', messages: [] } as never, false);
      core.conversations.createMessage(chat.id, { role: 'USER', fragment: { string: { raw: `my key is ${PLANTED.postgresPassword}` } } }, false);
      const root = tempDir('satchel-secret-export-');
      try {
        const guarded = await exportVault(join(root, 'vault'), recordsOf(core), core.assets.identifierPages(), core.assets.ordinaryCount(), { secrets, conversations: conversationsOf(core) });
        assert.equal(guarded.exported, 3);
        assert.equal(guarded.conversations, 1);
        assert.equal(guarded.redacted, 2);
        const text = allText(join(root, 'vault'));
        assert.deepEqual(plantedIn(text), []);
        assert.match(text, /«secret: AWS secret access key»/);
        // --include-secrets: the door is left out, the values written.
        const open = await exportVault(join(root, 'open'), recordsOf(core), core.assets.identifierPages(), core.assets.ordinaryCount());
        assert.equal(open.redacted, 0);
        assert.deepEqual(plantedIn(allText(join(root, 'open'))).sort(), Object.keys(PLANTED).filter((key) => key !== 'postgresPassword').sort());
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
    { secrets, importWorker: false },
  );
});

test('.code-snippets export: placeholders by default (the count says how many), values only when asked', async () => {
  const secrets = new FakeSecrets();
  await withCore(
    async (core) => {
      const [boto] = await plant(core);
      const tagged = await core.snippets.exportCodeSnippets({ tag: 'cloud' });
      assert.equal(tagged.count, 3);
      assert.equal(tagged.redacted, 2);
      assert.deepEqual(plantedIn(tagged.content), []);
      assert.deepEqual(plantedIn(tagged.fileName), []);
      const one = await core.snippets.exportCodeSnippets({ asset: boto! });
      assert.deepEqual(plantedIn(one.content), []);
      assert.match(one.content, /«secret: AWS access key ID»/);
      const asked = await core.snippets.exportCodeSnippets({ tag: 'cloud', includeSecrets: true });
      assert.equal(asked.redacted, 0);
      assert.ok(plantedIn(asked.content).includes('awsSecret'));
    },
    { secrets, importWorker: false },
  );
});

test('with the store\'s own door, a snippet named after its first line exports its name with the key\'s placeholder, no piece of the key', async () => {
  const key = 'PtYgjmUhBel31iEl2hpChYgCfrL1spNxnyVmihA+';
  await withCore(async (core) => {
    const named = await core.assets.writes.create(seed(`AWS_SECRET_ACCESS_KEY=${key}\nAWS_DEFAULT_REGION=eu-west-1\n`, { ext: 'sh' }), TEST_WRITE);
    assert.ok(named.name?.includes(key.slice(0, 20)), 'named after its first line');
    const root = tempDir('satchel-secret-export-echo-');
    try {
      const doors = core.doorSecrets();
      assert.ok(doors);
      await exportVault(join(root, 'vault'), recordsOf(core), core.assets.identifierPages(), core.assets.ordinaryCount(), { secrets: doors });
      const text = allText(join(root, 'vault'));
      assert.match(text, /name: "AWS_SECRET_ACCESS_KEY=«secret: [^»]+»…"/);
      for (let at = 0; at + 8 <= key.length; at++) assert.ok(!text.includes(key.slice(at, at + 8)), `the export holds ${key.slice(at, at + 8)}`);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
