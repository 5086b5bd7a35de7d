/** What docs/sync.md says of code edited on two machines: changes with an unchanged line between merge; the same or adjacent lines are a conflict copy. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withMachines } from './syncSupport.ts';
import { recordsOf, seed } from './vaultSupport.ts';
import { TEST_WRITE } from '../../support/authors.ts';

test('one unchanged line between two machines\' edits: merged; adjacent lines: the remote version kept and a conflict copy of this one', { timeout: 120_000 }, async () => {
  await withMachines(async ({ a, b }) => {
    const base = 'line 1\nline 2\nline 3\nline 4\n';
    const apart = await a.assets.writes.create(seed(base, { name: 'Apart' }), TEST_WRITE);
    const adjacent = await a.assets.writes.create(seed(base, { name: 'Adjacent' }), TEST_WRITE);
    await a.sync.sync();
    await b.sync.sync();
    a.assets.writes.edit(apart.id, { content: { text: 'line 1 (A)\nline 2\nline 3\nline 4\n' } }, TEST_WRITE);
    b.assets.writes.edit(apart.id, { content: { text: 'line 1\nline 2\nline 3 (B)\nline 4\n' } }, TEST_WRITE);
    a.assets.writes.edit(adjacent.id, { content: { text: 'line 1\nline 2 (A)\nline 3\nline 4\n' } }, TEST_WRITE);
    b.assets.writes.edit(adjacent.id, { content: { text: 'line 1\nline 2\nline 3 (B)\nline 4\n' } }, TEST_WRITE);
    await a.sync.sync();
    const onB = await b.sync.sync();
    assert.equal(recordsOf(b).read(apart.id)?.content, 'line 1 (A)\nline 2\nline 3 (B)\nline 4\n');
    assert.deepEqual(onB.notices.map((n) => [n.id, n.notice]), [[adjacent.id, 'conflict']]);
    assert.equal(recordsOf(b).read(adjacent.id)?.content, 'line 1\nline 2 (A)\nline 3\nline 4\n');
    assert.equal(recordsOf(b).read(onB.notices[0]!.copy!)?.content, 'line 1\nline 2\nline 3 (B)\nline 4\n');
  });
});
