/**
 * The copy connector's door for secrets (issue 32), through the host's route as the editor calls it:
 * copying code that holds a credential never yields a quiet save suggestion (`save.suggested` false with
 * the reason `holds_secret`); the same code without the value does; saving it by hand works.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer } from '../support/helpers.ts';
import { SatchelClient } from '../../src/client/satchelClient.ts';
import { FakeSecrets, PLANTED } from '../support/fakeSecrets.ts';

const stripe = (key: string): string => `import Stripe from "stripe";\n\nexport function paymentsClient(): Stripe {\n  const client = new Stripe("${key}", { apiVersion: "2024-06-20" });\n  return client;\n}\n`;

test('a copy holding a credential gets no save suggestion, with a reason; without it, the same code does; a save by hand keeps it', async () => {
  const secrets = new FakeSecrets();
  const t = await startTestServer({ secrets });
  const client = new SatchelClient(t.url);
  try {
    const { application } = await client.connector.connect({ name: 'VS_CODE', version: '1.0.0', platform: 'LINUX' });
    const withKey = await client.connector.suggest(application.id, stripe(PLANTED.stripeKey), 'ts');
    assert.equal(withKey.save?.suggested, false);
    assert.equal((withKey as { reason?: string }).reason, 'holds_secret');
    assert.ok(secrets.scans > 0, 'the copy was scanned');
    const without = await client.connector.suggest(application.id, stripe('sk_test_placeholder'), 'ts');
    assert.equal(without.save?.suggested, true, 'the same shape of code is worth saving');
    const saved = await client.assets.createFromText({ text: stripe(PLANTED.stripeKey), application, language: 'ts' });
    assert.ok(t.core.assets.text(saved.id)?.includes(PLANTED.stripeKey), 'saved by hand, the value kept');
  } finally {
    client.dispose();
    await t.close();
  }
});
