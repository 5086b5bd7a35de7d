/**
 * A conflict copy reaches every machine; each names its sides by who wrote the copy: on the machine
 * whose edit lost the copy is "yours", on the machine whose edit won the original is. Keep Mine and
 * Keep Theirs apply every field of the version kept (or the fields chosen), as the user's write.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Satchel } from '../../../src/core/satchel.ts';
import { library, withMachines } from './syncSupport.ts';
import { recordsOf, seed } from './vaultSupport.ts';
import { TEST_WRITE } from '../../support/authors.ts';

const SLOW = { timeout: 120_000 };

/**
 * Snippets edited on both machines: A (whose version wins: it syncs first) renames each, tags it,
 * describes it and changes its code; B changes only the code. Each pair of machines ends with a
 * conflict copy of B's version on both.
 */
async function conflicts(a: Satchel, b: Satchel, count: number): Promise<Array<{ id: string; copy: string }>> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push((await a.assets.writes.create(seed(`const retries = ${i};\n`, { name: `Retries ${i}` }), TEST_WRITE)).id);
  await a.sync.sync();
  await b.sync.sync();
  for (const id of ids) {
    a.assets.writes.edit(id, { content: { text: 'const retries = 5; // A\n' }, name: 'Retries, renamed on A', tags: ['from-a'], description: 'why A' }, TEST_WRITE);
    b.assets.writes.edit(id, { content: { text: 'const retries = 10; // B\n' } }, TEST_WRITE);
  }
  await a.sync.sync();
  const made = await b.sync.sync();
  await a.sync.sync();
  assert.equal(made.notices.length, count);
  return made.notices.map((notice) => ({ id: notice.id, copy: notice.copy! }));
}

test('each machine names its own side: the copy is yours where it was made, the original where its version won; the compare lists every field that differs', SLOW, async () => {
  await withMachines(async ({ a, b }) => {
    const [{ id, copy }] = (await conflicts(a, b, 1)) as [{ id: string; copy: string }];
    assert.deepEqual(b.sync.conflicts().map((c) => [c.copy, c.original, c.yours]), [[copy, id, 'copy']]);
    assert.deepEqual(a.sync.conflicts().map((c) => [c.copy, c.original, c.yours]), [[copy, id, 'original']]);

    const onA = a.sync.conflict(copy);
    assert.equal(onA.mine.code, 'const retries = 5; // A\n');
    assert.equal(onA.theirs?.code, 'const retries = 10; // B\n');
    assert.deepEqual(onA.differs, ['name', 'tags', 'description', 'code']);
    assert.deepEqual([onA.mine.name, onA.theirs?.name], ['Retries, renamed on A', 'Retries 0']);
    const onB = b.sync.conflict(copy);
    assert.deepEqual([onB.mine.code, onB.theirs?.code], ['const retries = 10; // B\n', 'const retries = 5; // A\n']);
    assert.deepEqual([onB.mine.tags, onB.theirs?.tags, onB.theirs?.description], [[], ['from-a'], 'why A']);
  });
});

test('Keep Mine on the machine whose version won keeps its own version (it used to take the other machine\'s text); the other machine follows', SLOW, async () => {
  await withMachines(async ({ a, b }) => {
    const [{ id, copy }] = (await conflicts(a, b, 1)) as [{ id: string; copy: string }];
    a.sync.resolve(copy, 'mine', TEST_WRITE);
    await a.sync.sync();
    await b.sync.sync();
    for (const core of [a, b]) {
      const record = recordsOf(core).read(id)!;
      assert.deepEqual([record.content, record.name, record.tags, record.description], ['const retries = 5; // A\n', 'Retries, renamed on A', ['from-a'], 'why A']);
      assert.equal(recordsOf(core).read(copy), undefined);
      assert.deepEqual(core.sync.conflicts(), []);
    }
    assert.deepEqual(library(a), library(b));
  });
});

test('Keep Theirs applies every field of the other version (name, tags, description, code) as the user\'s revision; chosen fields take only those', SLOW, async () => {
  await withMachines(async ({ a, b }) => {
    const [whole, some] = (await conflicts(a, b, 2)) as [{ id: string; copy: string }, { id: string; copy: string }];
    a.sync.resolve(whole.copy, 'theirs', TEST_WRITE);
    a.sync.resolve(some.copy, 'theirs', TEST_WRITE, ['code']);
    const records = recordsOf(a);
    const taken = records.read(whole.id)!;
    assert.deepEqual([taken.content, taken.tags, taken.description], ['const retries = 10; // B\n', [], undefined]);
    assert.match(taken.name, /^Retries [01]$/);
    const revisions = a.history.list(whole.id).revisions;
    assert.equal(revisions[0]!.author.kind, TEST_WRITE.author.kind);
    assert.ok(revisions.length >= 3, 'the history keeps the version replaced');
    const mixed = records.read(some.id)!;
    assert.deepEqual([mixed.content, mixed.name, mixed.tags, mixed.description], ['const retries = 10; // B\n', 'Retries, renamed on A', ['from-a'], 'why A']);
    await a.sync.sync();
    await b.sync.sync();
    assert.deepEqual(library(a), library(b));
    assert.deepEqual([a.sync.conflicts(), b.sync.conflicts()], [[], []]);
  });
});
