/** Sync between two machines through a local bare repository: creates, edits, merges, conflicts, deletes and renames. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { library, remoteFiles, withMachines } from './syncSupport.ts';
import { recordsOf, seed, variedLibrary } from './vaultSupport.ts';
import { TEST_WRITE } from '../../support/authors.ts';

const SLOW = { timeout: 120_000 };

test('create on A appears on B, every field of it; the second sync of each has nothing to do', SLOW, async () => {
  await withMachines(async ({ a, b, remote }) => {
    const ids = await variedLibrary(a);
    const first = await a.sync.sync();
    assert.equal(first.sent, 6);
    assert.ok(remoteFiles(remote).includes('satchel.json'));
    const joined = await b.sync.sync();
    assert.equal(joined.received, 6);
    assert.deepEqual(library(b), library(a));
    assert.equal(recordsOf(b).read(ids[0]!)?.name, 'Plain');
    // The revisions B made are the sync's.
    assert.equal(b.history.list(ids[0]!).revisions[0]?.author.kind, 'sync');
    const again = [await a.sync.sync(), await b.sync.sync()];
    assert.deepEqual(again.map((s) => [s.sent, s.received]), [[0, 0], [0, 0]]);
    assert.equal(a.sync.status().changed, 0);
    assert.equal(b.sync.status().changed, 0);
  });
});

test('concurrent edits of different lines merge line by line; tags edited on both sides are unioned', SLOW, async () => {
  await withMachines(async ({ a, b }) => {
    const text = 'line 1\nline 2\nline 3\nline 4\nline 5\n';
    const asset = await a.assets.create(seed(text, { name: 'Lines', tags: ['shared', 'drop-me'] }), TEST_WRITE);
    await a.sync.sync();
    await b.sync.sync();
    a.assets.edit(asset.id, { content: { text: 'line 1 (A)\nline 2\nline 3\nline 4\nline 5\n' }, tags: ['shared', 'drop-me', 'from-a'] }, TEST_WRITE);
    b.assets.edit(asset.id, { content: { text: 'line 1\nline 2\nline 3\nline 4\nline 5 (B)\n' }, tags: ['shared', 'from-b'] }, TEST_WRITE);
    await a.sync.sync();
    const merged = await b.sync.sync();
    assert.deepEqual(merged.notices, []);
    await a.sync.sync();
    const expected = 'line 1 (A)\nline 2\nline 3\nline 4\nline 5 (B)\n';
    for (const core of [a, b]) {
      const record = recordsOf(core).read(asset.id)!;
      assert.equal(record.content, expected);
      assert.deepEqual(record.tags, ['from-a', 'from-b', 'shared']);
    }
    assert.deepEqual(library(a), library(b));
  });
});

test('the same line edited on both sides: the remote version stays, the local one becomes a linked conflict copy, no markers', SLOW, async () => {
  await withMachines(async ({ a, b }) => {
    const asset = await a.assets.create(seed('const retries = 3;\n', { name: 'Retries' }), TEST_WRITE);
    await a.sync.sync();
    await b.sync.sync();
    a.assets.edit(asset.id, { content: { text: 'const retries = 5;\n' } }, TEST_WRITE);
    b.assets.edit(asset.id, { content: { text: 'const retries = 10;\n' } }, TEST_WRITE);
    await a.sync.sync();
    const second = await b.sync.sync();
    assert.equal(second.notices.length, 1);
    assert.equal(second.notices[0]!.notice, 'conflict');
    const copy = second.notices[0]!.copy!;
    await a.sync.sync();
    for (const core of [a, b]) {
      const records = recordsOf(core);
      assert.equal(records.read(asset.id)!.content, 'const retries = 5;\n');
      const kept = records.read(copy)!;
      assert.equal(kept.content, 'const retries = 10;\n');
      assert.equal(kept.conflictOf, asset.id);
      assert.match(kept.name, /conflict copy/);
      assert.deepEqual(core.sync.conflicts(), [{ copy, original: asset.id }]);
    }
    for (const record of library(a).values()) assert.doesNotMatch(String(record.content), /<<<<<<<|>>>>>>>/);
    assert.deepEqual(library(a), library(b));
  });
});
