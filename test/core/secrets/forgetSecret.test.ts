/**
 * "Forget Secret" removes a value from the snippet, from every revision it had (contents,
 * descriptions, names) and from the trash, after a backup; a restore of an earlier revision then
 * brings back the placeholder, never the value. The other values of the snippet stay where asked.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { withCore } from '../../support/helpers.ts';
import { codeSeed } from '../../support/assetFixtures.ts';
import { TEST_AUTHOR, TEST_WRITE } from '../../support/authors.ts';
import { PLANTED } from './plantedSecrets.ts';

const github = PLANTED.find((p) => p.shape === 'github:GITHUB_TOKEN')!;
const stripe = PLANTED.find((p) => p.shape === 'stripe:STRIPE_SECRET_KEY_LIVE')!;

/** Every place of the store that could still hold `value`: revision texts, revision names, the trash. */
function leftIn(core: Parameters<Parameters<typeof withCore>[0]>[0], value: string): string[] {
  const database = core.context.database;
  const out: string[] = [];
  for (const row of database.prepare('SELECT hash FROM revision_texts').all() as Array<{ hash: string }>) {
    const revision = database.prepare('SELECT asset_id, id FROM revisions WHERE content_hash = ?1 OR description_hash = ?1 LIMIT 1').get(row.hash) as { asset_id: string; id: string } | undefined;
    if (revision && JSON.stringify(core.history.get(revision.asset_id, revision.id)).includes(value)) out.push(`revision ${revision.id}`);
  }
  for (const [table, column] of [['revisions', 'name'], ['trash', 'data'], ['trash', 'name'], ['trash', 'preview'], ['trash_records', 'data']] as const) {
    const n = (database.prepare(`SELECT count(*) AS n FROM ${table} WHERE instr(${column}, ?) > 0`).get(value) as { n: number }).n;
    if (n > 0) out.push(`${table}.${column}`);
  }
  return out;
}

test('Forget Secret rewrites the snippet, its revisions and the trash, after a backup', async () => {
  await withCore(async (core) => {
    const asset = await core.assets.writes.create(codeSeed(`// v1\n${github.text}\n`, `deploy ${github.value}`), { author: TEST_AUTHOR });
    core.assets.writes.edit(asset.id, { content: { text: `// v2\n${github.text}\n${stripe.text}\n` }, description: `token ${github.value}` }, TEST_WRITE);
    core.assets.writes.edit(asset.id, { content: { text: `// v3\n${github.text}\n${stripe.text}\n` } }, TEST_WRITE);
    const copy = await core.assets.writes.create(codeSeed(`copy: ${github.value}`), { author: TEST_AUTHOR });
    core.assets.writes.delete(copy.id, TEST_WRITE);
    assert.ok(leftIn(core, github.value).length > 0, 'the value is in history and the trash before');

    const ghSensitive = (await core.assets.secrets.findingsNow(asset.id)) && core.assets.secrets.storedFindings(asset.id).find((f) => f.label === 'GitHub token')!;
    const forgotten = await core.secretForgetter.forget(asset.id, TEST_WRITE, ghSensitive.sensitiveId);
    assert.equal(forgotten.values, 1);
    assert.ok(existsSync(path.join(core.dataDir, 'backups', forgotten.backup)), `backup ${forgotten.backup}`);
    assert.deepEqual(leftIn(core, github.value), [], 'nowhere in history or the trash');

    const text = core.assets.text(asset.id)!;
    assert.ok(!text.includes(github.value) && text.includes('«secret: GitHub token»'));
    assert.ok(text.includes(stripe.value), 'the other value was not asked to be forgotten');
    assert.ok(!core.assets.get(asset.id).name!.includes(github.value));
    assert.deepEqual((await core.assets.secrets.findingsNow(asset.id)).map((f) => f.label), ['Stripe live secret key']);

    // Every value when none is named.
    const all = await core.secretForgetter.forget(asset.id, TEST_WRITE);
    assert.equal(all.values, 1);
    assert.deepEqual(leftIn(core, stripe.value), []);
    assert.ok(!core.assets.text(asset.id)!.includes(stripe.value));
    await assert.rejects(core.secretForgetter.forget(asset.id, TEST_WRITE), /not found/i, 'nothing left to forget');

    // Restoring the first revision brings back the placeholder, not the value.
    const first = core.history.list(asset.id).revisions.at(-1)!;
    core.history.restore(asset.id, first.id, TEST_WRITE);
    assert.ok(core.assets.text(asset.id)!.includes('// v1'));
    assert.ok(!core.assets.text(asset.id)!.includes(github.value));
  }, { secretsScan: false });
});
