/**
 * A lone surrogate in a snippet's text: every door stores the text well-formed (U+FFFD for it), so
 * what this machine holds is what the vault carries and the other machine receives, and a sync
 * leaves both with the same text and nothing to send.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BulkWriter } from '../../../src/core/assets/bulkWriter.ts';
import { bulkAssetOf } from '../../../src/core/sync/libraryRecords.ts';
import { library, withMachines } from './syncSupport.ts';
import { recordsOf, seed } from './vaultSupport.ts';
import { TEST_WRITE } from '../../support/authors.ts';

const LONE = 'x \uD800 y \uDC00\n';
const FIXED = 'x \uFFFD y \uFFFD\n';

test('a lone surrogate is stored as U+FFFD at every door (create, edit, update, bulk), and after a sync both stores hold the same text and nothing is dirty', { timeout: 120_000 }, async () => {
  await withMachines(async ({ a, b }) => {
    const created = await a.assets.writes.create(seed(LONE, { name: 'Lone \uD800', tags: ['t\uDBFF'] }), TEST_WRITE);
    const edited = await a.assets.writes.create(seed('plain\n', { name: 'Edited' }), TEST_WRITE);
    a.assets.writes.edit(edited.id, { content: { text: LONE }, name: 'E\uDC00', description: 'd \uD800', tags: ['u\uD801'] }, TEST_WRITE);
    const updated = await a.assets.writes.create(seed('plain\n', { name: 'Updated' }), TEST_WRITE);
    a.assets.writes.update({ id: updated.id, name: 'U\uD800' }, TEST_WRITE);
    const records = recordsOf(a);
    const bulk = { ...records.read(created.id)!, id: '0198c7d2-4a1e-7b3c-9d2e-5f6a7b8c9d0e', name: 'Bulk \uD800', content: LONE, tags: ['b\uDC00'] };
    new BulkWriter(a.context, a.assets.bulkTargets()).write([bulkAssetOf(bulk, false)], TEST_WRITE.author);

    const stored = [created.id, edited.id, updated.id, bulk.id].map((id) => records.read(id)!);
    assert.deepEqual(stored.map((record) => record.name), ['Lone \uFFFD', 'E\uFFFD', 'U\uFFFD', 'Bulk \uFFFD']);
    assert.deepEqual([stored[0]!.content, stored[1]!.content, stored[3]!.content], [FIXED, FIXED, FIXED]);
    assert.deepEqual(stored.map((record) => record.tags), [['t\uFFFD'], ['u\uFFFD'], [], ['b\uFFFD']]);
    assert.equal(stored[1]!.description, 'd \uFFFD');

    await a.sync.sync();
    await b.sync.sync();
    assert.equal(recordsOf(b).read(created.id)!.content, FIXED);
    assert.deepEqual(library(b), library(a));
    assert.deepEqual([a.sync.status().changed, b.sync.status().changed], [0, 0]);
    const again = [await a.sync.sync(), await b.sync.sync()];
    assert.deepEqual(again.map((summary) => [summary.sent, summary.received]), [[0, 0], [0, 0]]);
  });
});
