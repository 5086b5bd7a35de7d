/**
 * The retention policy (every revision of the last 30 days, then the newest of each day, at most
 * so many revisions and bytes per asset, the current one always) and the background compaction that
 * applies it, with the texts no revision names any more removed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withCore, waitFor } from '../../support/helpers.ts';
import { TEST_AUTHOR, TEST_WRITE } from '../../support/authors.ts';
import { DEFAULT_RETENTION, revisionsToDrop } from '../../../src/core/history/compaction.ts';
import type { CompactionRow } from '../../../src/core/history/revisionLog.ts';
import type { Satchel } from '../../../src/core/satchel.ts';

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.UTC(2026, 5, 15, 12);

function row(seq: number, ageMs: number, contentHash = `h${seq}`, size = 10): CompactionRow {
  return { seq, id: `r${seq}`, created: NOW - ageMs, contentHash, size, descriptionHash: null };
}

test('the policy keeps every revision of the last 30 days and the newest of each older day', () => {
  const rows = [
    row(9, 1000),
    row(8, 2 * DAY),
    row(7, 29 * DAY),
    // Day 40: three revisions, the newest (seq 6) stays.
    row(6, 40 * DAY + 1000),
    row(5, 40 * DAY + 2000),
    row(4, 40 * DAY + 3000),
    // Day 41 and day 400: one each, both stay.
    row(3, 41 * DAY + 5 * 3600_000),
    row(2, 400 * DAY),
  ];
  // Days are UTC days: make sure the three of "day 40" really share one.
  assert.equal(new Set([6, 5, 4].map((seq) => Math.floor(rows.find((r) => r.seq === seq)!.created / DAY))).size, 1);
  assert.deepEqual(revisionsToDrop(rows, NOW, DEFAULT_RETENTION).sort(), [4, 5]);
});

test('the current revision always stays, whatever its age; the caps drop the oldest first', () => {
  assert.deepEqual(revisionsToDrop([row(1, 900 * DAY)], NOW, DEFAULT_RETENTION), []);
  const many = Array.from({ length: 10 }, (_, i) => row(100 - i, i * 1000));
  assert.deepEqual(revisionsToDrop(many, NOW, { ...DEFAULT_RETENTION, maxPerAsset: 4 }).sort(), [91, 92, 93, 94, 95, 96]);
  // Bytes: each distinct replaced content counted once (the current content is the asset's own).
  const sized = [row(10, 0, 'cur', 500), row(9, 1, 'a', 40), row(8, 2, 'a', 40), row(7, 3, 'b', 40), row(6, 4, 'c', 40), row(5, 5, 'cur', 500)];
  assert.deepEqual(revisionsToDrop(sized, NOW, { ...DEFAULT_RETENTION, maxBytesPerAsset: 100 }).sort(), [5, 6]);
});

function backdate(core: Satchel, id: string, ages: number[]): void {
  const seqs = (core.context.database.db.prepare('SELECT seq FROM revisions WHERE asset_id = ? ORDER BY seq DESC').all(id) as Array<{ seq: number }>).map((r) => r.seq);
  const update = core.context.database.db.prepare('UPDATE revisions SET created = ? WHERE seq = ?');
  seqs.forEach((seq, i) => update.run(NOW - ages[i]!, seq));
}

test('compaction drops what the policy drops, keeps what it keeps readable, and removes texts nothing names', async () => {
  await withCore(async (core) => {
    const asset = await core.assets.writes.create({ asset: { format: { fragment: { string: { raw: 'v0' }, metadata: { ext: 'txt' as never } } } } }, { author: TEST_AUTHOR });
    for (let i = 1; i <= 5; i++) core.assets.writes.edit(asset.id, { content: { text: `v${i}` } }, TEST_WRITE);
    // Newest first: v5 now, v4 yesterday, v3..v1 on one day 60 days ago, v0 61 days ago.
    backdate(core, asset.id, [0, DAY, 60 * DAY, 60 * DAY + 1000, 60 * DAY + 2000, 61 * DAY]);
    const texts = (): number => (core.context.database.db.prepare('SELECT count(*) AS n FROM revision_texts').get() as { n: number }).n;
    assert.equal(texts(), 5);
    assert.equal(core.history.compactor.compactAsset(asset.id, NOW), 2);
    const kept = core.history.list(asset.id).revisions.map((r) => core.history.get(asset.id, r.id).content.text);
    assert.deepEqual(kept, ['v5', 'v4', 'v3', 'v0']);
    assert.equal(texts(), 3, 'v1 and v2 are gone with their revisions; v5 is the asset\'s own');
    assert.equal(core.history.compactor.compactAsset(asset.id, NOW), 0, 'a second pass finds nothing more');
  });
});

test('a text two assets share stays while either names it', async () => {
  await withCore(
    async (core) => {
      const seed = (raw: string) => ({ asset: { format: { fragment: { string: { raw }, metadata: { ext: 'txt' as never } } } } });
      const texts = (): number => (core.context.database.db.prepare('SELECT count(*) AS n FROM revision_texts').get() as { n: number }).n;
      const a = await core.assets.writes.create(seed('shared text'), { author: TEST_AUTHOR });
      const b = await core.assets.writes.create(seed('other'), { author: TEST_AUTHOR });
      core.assets.writes.edit(a.id, { content: { text: 'a later' } }, TEST_WRITE);
      core.assets.writes.edit(b.id, { content: { text: 'shared text' } }, TEST_WRITE);
      core.assets.writes.edit(b.id, { content: { text: 'b later' } }, TEST_WRITE);
      assert.equal(texts(), 2, '"shared text" is kept once for both assets, "other" once');
      // With a cap of one, a's first revision goes; b's middle one still names the shared text.
      assert.equal(core.history.compactor.compactAsset(a.id), 1);
      assert.equal(texts(), 2);
      assert.equal(core.history.get(b.id, core.history.list(b.id).revisions[1]!.id).content.text, 'shared text');
      assert.equal(core.history.compactor.compactAsset(b.id), 2);
      assert.equal(texts(), 0, 'the current contents are the assets\' own; nothing else is named');
    },
    { history: { delayMs: 60_000, policy: { maxPerAsset: 1 } } },
  );
});

test('the background compactor applies the cap a moment after the writes, a step at a time', async () => {
  await withCore(
    async (core) => {
      const asset = await core.assets.writes.create({ asset: { format: { fragment: { string: { raw: 'start' } } } } }, { author: TEST_AUTHOR });
      for (let i = 0; i < 12; i++) core.assets.writes.edit(asset.id, { content: { text: `edit ${i}` } }, TEST_WRITE);
      assert.equal(core.history.list(asset.id).revisions.length, 13);
      await waitFor(() => core.history.list(asset.id).revisions.length === 3, 5000);
      assert.deepEqual(core.history.list(asset.id).revisions.map((r) => core.history.get(asset.id, r.id).content.text), ['edit 11', 'edit 10', 'edit 9']);
    },
    { history: { delayMs: 20, policy: { maxPerAsset: 3 } } },
  );
});

test('the daily pass compacts assets no write has queued', async () => {
  await withCore(
    async (core) => {
      const ids: string[] = [];
      for (let n = 0; n < 3; n++) {
        const asset = await core.assets.writes.create({ asset: { format: { fragment: { string: { raw: `asset ${n}` } } } } }, { author: TEST_AUTHOR });
        for (let i = 0; i < 4; i++) core.assets.writes.update({ id: asset.id, name: `asset ${n} name ${i}` }, TEST_WRITE);
        ids.push(asset.id);
      }
      // Revisions from 100 days ago, all on one day: only each asset's newest stays.
      for (const id of ids) backdate(core, id, [100 * DAY, 100 * DAY + 1, 100 * DAY + 2, 100 * DAY + 3, 100 * DAY + 4]);
      assert.equal(await core.history.compactor.compactAll(NOW), 12);
      for (const id of ids) assert.equal(core.history.list(id).revisions.length, 1);
    },
    { history: { delayMs: 60_000 } },
  );
});
