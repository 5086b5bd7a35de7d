/**
 * A website linked to a snippet can hold a value in its URL (a Slack webhook, a token in a raw file's
 * query). With the store's own door and the real detector, an agent's get_snippet and the vault export show
 * its placeholder; the user's copy keeps the URL.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { callToolOk, connectMcp } from '../support/mcpClient.ts';
import { startTestServer, tempDir, type TestServer } from '../support/helpers.ts';
import { TEST_WRITE } from '../support/authors.ts';
import { recordsOf, seed } from '../core/sync/vaultSupport.ts';
import { exportVault } from '../../src/core/sync/vaultExport.ts';

const HOOK_SECRET = 'Zq8VtN2rXc7LwP0sJkYb3HdG';
const HOOK = `https://hooks.slack.com/services/T0A1B2C3D/B4E5F6G7H/${HOOK_SECRET}`;
const DOCS = 'https://api.slack.com/messaging/webhooks';

let t: TestServer;
let id = '';

before(async () => {
  t = await startTestServer();
  id = (await t.core.assets.writes.create(seed('curl -X POST -H "Content-type: application/json" -d "{\\"text\\": \\"deployed\\"}" "$SLACK_HOOK"\n', { name: 'Notify Slack', ext: 'sh' }), TEST_WRITE)).id;
  for (const [url, name] of [[HOOK, 'Deploy channel hook'], [DOCS, 'Slack docs']] as const) {
    const site = t.core.assets.labels.createWebsite({ url, name });
    t.core.assets.writes.associate(id, 'website', site.id, TEST_WRITE);
  }
});
after(async () => {
  await t.close();
});

test('get_snippet shows the webhook\'s placeholder and the other website as it is', async () => {
  const client = await connectMcp(t.url, 'satchel-website-secrets-test');
  try {
    const got = await callToolOk(client, 'get_snippet', { id });
    const reply = JSON.stringify(got);
    assert.ok(!reply.includes(HOOK_SECRET), 'the webhook left in a reply');
    const websites = (got.structuredContent as { websites: Array<{ url: string; name: string }> }).websites;
    assert.deepEqual(websites.map((site) => site.name).sort(), ['Deploy channel hook', 'Slack docs']);
    assert.ok(websites.some((site) => site.url === DOCS), JSON.stringify(websites));
    assert.ok(websites.some((site) => site.url.includes('«secret: ')), JSON.stringify(websites));
  } finally {
    await client.close();
  }
  assert.ok(t.core.assets.labels.websitesOfAsset(id).some((site) => site.url === HOOK), 'the user\'s copy keeps the URL');
});

test('the vault export writes the webhook\'s placeholder', async () => {
  const root = tempDir('satchel-website-export-');
  try {
    const secrets = t.core.doorSecrets();
    assert.ok(secrets);
    const summary = await exportVault(join(root, 'vault'), recordsOf(t.core), t.core.assets.identifierPages(), t.core.assets.ordinaryCount(), { secrets });
    assert.equal(summary.redacted, 1);
    const text = readdirSync(join(root, 'vault'), { recursive: true, encoding: 'utf8' })
      .map((name) => join(root, 'vault', name))
      .filter((path) => statSync(path).isFile())
      .map((path) => readFileSync(path, 'utf8'))
      .join('\n');
    assert.ok(!text.includes(HOOK_SECRET), 'the webhook left in the export');
    assert.ok(text.includes(DOCS));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
