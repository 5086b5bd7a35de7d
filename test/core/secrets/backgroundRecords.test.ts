/**
 * The background scan writes what it found in batches (AssetScans.scanQueued): few transactions for
 * many snippets, a door never waits for a batch, and an older note's outcome never replaces what a
 * door recorded for a newer one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { withCore } from '../../support/helpers.ts';
import { codeSeed } from '../../support/assetFixtures.ts';
import { TEST_AUTHOR, TEST_WRITE } from '../../support/authors.ts';
import { AssetScans } from '../../../src/core/secrets/assetScans.ts';
import { SecretRecords } from '../../../src/core/secrets/secretRecords.ts';
import { SecretScanner } from '../../../src/core/secrets/secretScanner.ts';
import type { Satchel } from '../../../src/core/satchel.ts';
import { PLANTED } from './plantedSecrets.ts';

const stripe = PLANTED.find((p) => p.shape === 'stripe:STRIPE_SECRET_KEY_LIVE')!;

/** AssetScans over the store's code alone, its batch never written by the clock. */
function queuedScans(core: Satchel): { scans: AssetScans; records: SecretRecords; dispose(): void } {
  const records = new SecretRecords(core.context.database);
  const scanner = new SecretScanner({ logger: core.context.logger });
  const source = { textsOf: (id: string) => { const code = core.assets.text(id); return code === undefined ? undefined : { code }; } };
  const scans = new AssetScans(core.context, source, records, scanner, () => undefined, { recordWaitMs: 3_600_000 });
  return { scans, records, dispose: () => { scans.dispose(); scanner.dispose(); } };
}

test('the background scan of 300 snippets writes fewer WAL frames than snippets', async () => {
  await withCore(async (core) => {
    await Promise.all(Array.from({ length: 300 }, (_, i) => core.assets.writes.create(codeSeed(i === 7 ? `key = "${stripe.value}"` : `const n${i} = ${i};`), { author: TEST_AUTHOR })));
    const { db, path } = core.context.database;
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    assert.equal(statSync(`${path}-wal`).size, 0);
    const progress = await core.assets.secrets.scanPending();
    assert.equal(progress.pending, 0);
    assert.equal(core.assets.secrets.summary().flaggedSnippets, 1);
    const pageSize = (db.prepare('PRAGMA page_size').get() as { page_size: number }).page_size;
    const frames = (statSync(`${path}-wal`).size - 32) / (pageSize + 24);
    // A transaction a snippet wrote 5-7 frames each (1,500+ here).
    assert.ok(frames < 300, `${frames} frames`);
  }, { secretsScan: false });
});

test('a door asking for a snippet whose records wait for their batch gets them at once', async () => {
  await withCore(async (core) => {
    const { scans, records, dispose } = queuedScans(core);
    try {
      const asset = await core.assets.writes.create(codeSeed(`key = "${stripe.value}"`), { author: TEST_AUTHOR });
      const seq = records.pendingSeq(asset.id)!;
      await scans.scanQueued(asset.id, seq);
      assert.equal(scans.queuedCount, 1, 'scanned, not yet written');
      assert.equal(records.pendingSeq(asset.id), seq);
      const found = await scans.scan(asset.id, seq, 'interactive');
      assert.deepEqual(found.map((f) => f.label), ['Stripe live secret key']);
      assert.equal(scans.queuedCount, 0);
      assert.equal(records.pendingSeq(asset.id), undefined, 'the note is settled');
      assert.equal(records.findings(asset.id).length, 1);
    } finally {
      dispose();
    }
  }, { secretsScan: false });
});

test("an older note's queued outcome never replaces what a door recorded for a newer one", async () => {
  await withCore(async (core) => {
    const { scans, records, dispose } = queuedScans(core);
    try {
      const asset = await core.assets.writes.create(codeSeed(`key = "${stripe.value}"`), { author: TEST_AUTHOR });
      const older = records.pendingSeq(asset.id)!;
      await scans.scanQueued(asset.id, older);
      assert.equal(scans.queuedCount, 1);
      core.assets.writes.edit(asset.id, { content: { text: 'key = process.env.STRIPE_KEY' } }, TEST_WRITE);
      const newer = records.pendingSeq(asset.id)!;
      assert.ok(newer > older);
      assert.deepEqual(await scans.scan(asset.id, newer, 'interactive'), [], 'the door scans the newer text');
      scans.flush();
      assert.deepEqual(records.findings(asset.id), [], 'the older outcome (a secret) was not written over it');
      assert.equal(records.pendingSeq(asset.id), undefined);
    } finally {
      dispose();
    }
  }, { secretsScan: false });
});

test('a batch that cannot be written leaves its notes pending and is reported, never half-written', async () => {
  await withCore(async (core) => {
    const { scans, records, dispose } = queuedScans(core);
    try {
      const a = await core.assets.writes.create(codeSeed(`key = "${stripe.value}"`), { author: TEST_AUTHOR });
      const b = await core.assets.writes.create(codeSeed('const plain = 1;'), { author: TEST_AUTHOR });
      const seqs = [records.pendingSeq(a.id)!, records.pendingSeq(b.id)!];
      await scans.scanQueued(a.id, seqs[0]!);
      await scans.scanQueued(b.id, seqs[1]!);
      // The findings table gone for a moment: the batch's transaction fails as a whole.
      core.context.database.db.exec('ALTER TABLE secret_scans RENAME TO secret_scans_away');
      try {
        scans.flush();
      } finally {
        core.context.database.db.exec('ALTER TABLE secret_scans_away RENAME TO secret_scans');
      }
      assert.deepEqual([records.pendingSeq(a.id), records.pendingSeq(b.id)], seqs, 'both notes stay pending');
      assert.deepEqual(records.findings(a.id), [], 'nothing of the batch was written');
      assert.deepEqual([...scans.takeUnwritten()].sort(), [a.id, b.id].sort());
      assert.equal(scans.takeUnwritten().size, 0, 'taken once');
      // The next scan records them (once the failed ones are no longer in flight).
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal((await scans.scan(a.id, seqs[0]!, 'interactive')).length, 1);
      assert.equal(records.pendingSeq(a.id), undefined);
    } finally {
      dispose();
    }
  }, { secretsScan: false });
});
