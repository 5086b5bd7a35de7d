/**
 * One tag spelled two ways ("React", "react") or one website named two ways on two machines: each
 * store holds one spelling for every snippet, so a sync must bring both to the same one
 * (labelSpelling.ts), whatever order the syncs run in, and then have nothing left to send.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Satchel } from '../../../src/core/satchel.ts';
import { library, withMachines } from './syncSupport.ts';
import { recordsOf, seed } from './vaultSupport.ts';
import { TEST_WRITE } from '../../support/authors.ts';
import { preferredSiteName, preferredTag } from '../../../src/core/sync/labelSpelling.ts';

const SLOW = { timeout: 120_000 };

/** Syncs A then B until a round sends and receives nothing; the rounds it took (at most `rounds`). */
async function syncUntilQuiet(a: Satchel, b: Satchel, rounds = 5): Promise<number> {
  for (let round = 1; round <= rounds; round++) {
    const summaries = [await a.sync.sync(), await b.sync.sync()];
    if (summaries.every((summary) => summary.sent === 0 && summary.received === 0)) return round;
  }
  return Infinity;
}

test('the preferred spelling is a fixed order: a tag first in code-unit order, a website named rather than by its URL', () => {
  assert.equal(preferredTag('react', 'React'), 'React');
  assert.equal(preferredTag('React', 'react'), 'React');
  assert.equal(preferredSiteName('https://x.dev', 'https://x.dev', 'X docs'), 'X docs');
  assert.equal(preferredSiteName('https://x.dev', 'Zed', 'Alpha'), 'Alpha');
});

test('a tag spelled "React" on one machine and "react" on the other, and a website named two ways, converge on both machines', SLOW, async () => {
  await withMachines(async ({ a, b }) => {
    const url = 'https://developer.mozilla.org/fetch';
    const x = await a.assets.writes.create(seed('fetch(a)\n', { name: 'X', tags: ['React'] }), TEST_WRITE);
    a.assets.writes.createWebsite({ url, name: 'Mozilla docs', asset: x.id }, TEST_WRITE);
    const y = await b.assets.writes.create(seed('fetch(b)\n', { name: 'Y', tags: ['react'] }), TEST_WRITE);
    b.assets.writes.createWebsite({ url, name: 'MDN', asset: y.id }, TEST_WRITE);

    const rounds = await syncUntilQuiet(a, b);
    assert.ok(rounds <= 4, `quiet after ${rounds} rounds`);
    assert.deepEqual(library(a), library(b));
    for (const core of [a, b]) {
      for (const id of [x.id, y.id]) {
        const record = recordsOf(core).read(id)!;
        assert.deepEqual([record.tags, record.websites], [['React'], [{ url, name: 'MDN' }]]);
      }
      assert.equal(core.sync.status().changed, 0);
    }
  });
});

test('one snippet given the same tag and website on both machines at once, spelled and named differently: the merge and both stores agree', SLOW, async () => {
  await withMachines(async ({ a, b }) => {
    const url = 'https://vuejs.org/guide';
    const x = await a.assets.writes.create(seed('const app = createApp()\n', { name: 'App', tags: ['shared'] }), TEST_WRITE);
    await a.sync.sync();
    await b.sync.sync();
    a.assets.writes.edit(x.id, { tags: ['shared', 'vue'] }, TEST_WRITE);
    a.assets.writes.createWebsite({ url, name: 'Vue guide', asset: x.id }, TEST_WRITE);
    b.assets.writes.edit(x.id, { tags: ['shared', 'Vue'] }, TEST_WRITE);
    b.assets.writes.createWebsite({ url, name: 'Guide', asset: x.id }, TEST_WRITE);

    const rounds = await syncUntilQuiet(a, b);
    assert.ok(rounds <= 4, `quiet after ${rounds} rounds`);
    assert.deepEqual(library(a), library(b));
    const record = recordsOf(a).read(x.id)!;
    assert.deepEqual([record.tags, record.websites], [['shared', 'Vue'], [{ url, name: 'Guide' }]]);
  });
});
