/** A record one machine cannot apply never becomes a silent divergence, nor a sync that fails every time: it stays pending and named; the others sync. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { library, withMachines } from './syncSupport.ts';
import { recordsOf, seed } from './vaultSupport.ts';
import { assetDir } from '../../../src/core/sync/vaultFormat.ts';
import { TEST_WRITE } from '../../support/authors.ts';

const SLOW = { timeout: 120_000 };

/** Edits one file of the remote's branch as a person would on the git host, and pushes it. */
function handEdit(root: string, remote: string, path: string, edit: (text: string) => string): void {
  const work = join(root, `hand-${Date.now()}-${Math.random().toString(16).slice(2)}`);
  execFileSync('git', ['clone', '--quiet', remote, work]);
  const file = join(work, path);
  writeFileSync(file, edit(readFileSync(file, 'utf8')));
  execFileSync('git', ['-C', work, '-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false', 'commit', '--quiet', '-am', 'hand edit']);
  execFileSync('git', ['-C', work, 'push', '--quiet', 'origin', 'HEAD']);
}

test('a snippet emptied on one machine (the edit path takes it) is emptied on the other, not refused', SLOW, async () => {
  await withMachines(async ({ a, b }) => {
    const asset = await a.assets.writes.create(seed('soon gone\n', { name: 'Emptied' }), TEST_WRITE);
    await a.sync.sync();
    await b.sync.sync();
    a.assets.writes.edit(asset.id, { content: { text: '' } }, TEST_WRITE);
    await a.sync.sync();
    const onB = await b.sync.sync();
    assert.deepEqual(onB.skipped, []);
    assert.equal(recordsOf(b).read(asset.id)?.content, '');
    assert.equal(b.sync.status().changed, 0);
    assert.deepEqual(library(a), library(b));
  });
});

test('a hand edit the rules refuse (a blank tag) is skipped and named, stays pending and is retried, and every other record syncs', SLOW, async () => {
  await withMachines(async ({ a, b, remote, root }) => {
    const bad = await a.assets.writes.create(seed('one\n', { name: 'Hand edited', tags: ['a'] }), TEST_WRITE);
    const other = await a.assets.writes.create(seed('two\n', { name: 'Other' }), TEST_WRITE);
    await a.sync.sync();
    await b.sync.sync();
    handEdit(root, remote, `${assetDir(bad.id)}/snippet.md`, (text) => text.replace('tags:\n  - "a"\n', 'tags: ["a", " "]\n').replace('name: "Hand edited"', 'name: "Hand edited on the host"'));
    a.assets.writes.edit(other.id, { content: { text: 'two, from A\n' } }, TEST_WRITE);
    await a.sync.sync();
    const local = await b.assets.writes.create(seed('new on B\n', { name: 'New on B' }), TEST_WRITE);
    const onB = await b.sync.sync();
    assert.deepEqual(onB.skipped.map((s) => s.id), [bad.id]);
    assert.match(onB.skipped[0]!.reason, /tag/i);
    assert.equal(recordsOf(b).read(other.id)?.content, 'two, from A\n', 'the other records are applied');
    assert.equal(recordsOf(b).read(bad.id)?.name, 'Hand edited', 'the refused version is not applied');
    // Not marked synced: the next sync tries again (and does not send B's older version back).
    const again = await b.sync.sync();
    assert.deepEqual(again.skipped.map((s) => s.id), [bad.id]);
    assert.equal(again.sent, 0);
    await a.sync.sync();
    assert.ok(a.assets.exists(local.id), 'B\'s new snippet left');
    // Fixed on the host: the pending record arrives.
    handEdit(root, remote, `${assetDir(bad.id)}/snippet.md`, (text) => text.replace('tags: ["a", " "]', 'tags: ["a", "b"]'));
    const fixed = await b.sync.sync();
    assert.deepEqual(fixed.skipped, []);
    assert.equal(recordsOf(b).read(bad.id)?.name, 'Hand edited on the host');
    assert.deepEqual(recordsOf(b).read(bad.id)?.tags, ['a', 'b']);
  });
});

test('text with a NUL edited on both machines (git merge-file cannot merge it) becomes a conflict copy, and later syncs go on', SLOW, async () => {
  await withMachines(async ({ a, b }) => {
    const asset = await a.assets.writes.create(seed('head\0\nmiddle\nend\n', { name: 'With NUL' }), TEST_WRITE);
    await a.sync.sync();
    await b.sync.sync();
    a.assets.writes.edit(asset.id, { content: { text: 'head (A)\0\nmiddle\nend\n' } }, TEST_WRITE);
    b.assets.writes.edit(asset.id, { content: { text: 'head\0\nmiddle\nend (B)\n' } }, TEST_WRITE);
    await a.sync.sync();
    const onB = await b.sync.sync();
    assert.deepEqual(onB.notices.map((n) => n.notice), ['conflict']);
    const later = await b.assets.writes.create(seed('later\n', { name: 'Later' }), TEST_WRITE);
    await b.sync.sync();
    await a.sync.sync();
    assert.ok(a.assets.exists(later.id));
    assert.equal(recordsOf(a).read(onB.notices[0]!.copy!)?.content, 'head\0\nmiddle\nend (B)\n');
    assert.deepEqual(library(a), library(b));
  });
});

test('a write that fails while applying (what no rule foresaw) rolls back only its batch: that record stays pending and named, the others are applied, and it arrives once the write works', SLOW, async () => {
  const { BulkWriter } = await import('../../../src/core/assets/bulkWriter.ts');
  await withMachines(async ({ a, b }) => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await a.assets.writes.create(seed(`${i}\n`, { name: `N ${i}` }), TEST_WRITE)).id);
    await a.sync.sync();
    const failing = ids[1]!;
    const write = BulkWriter.prototype.write;
    BulkWriter.prototype.write = function (this: InstanceType<typeof BulkWriter>, ...args: Parameters<typeof write>) {
      if (args[0].some((asset) => asset.record?.id === failing)) throw new Error('the disk said no');
      return write.apply(this, args);
    };
    try {
      const onB = await b.sync.sync();
      assert.deepEqual(onB.skipped, [{ id: failing, reason: 'it could not be written here: the disk said no' }]);
      assert.deepEqual([ids[0], ids[2]].map((id) => b.assets.exists(id!)), [true, true]);
      assert.equal(b.assets.exists(failing), false);
      assert.deepEqual(JSON.parse(JSON.stringify(b.sync.status().last?.skipped)), onB.skipped, 'kept in the status');
    } finally {
      BulkWriter.prototype.write = write;
    }
    const retried = await b.sync.sync();
    assert.deepEqual(retried.skipped, []);
    assert.ok(b.assets.exists(failing));
    assert.deepEqual(library(a), library(b));
  });
});
