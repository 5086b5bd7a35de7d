import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BulkWork } from '../../src/core/bulkWork.ts';
import { Emitter } from '../../src/core/events.ts';
import { withCore, waitFor } from '../support/helpers.ts';
import { codeSeed } from '../support/assetFixtures.ts';
import { TEST_AUTHOR } from '../support/authors.ts';

test('the end fires as each piece of bulk work ends, also while another goes on, once each', () => {
  const work = new BulkWork();
  let ended = 0;
  work.onDidEnd(() => ended++);
  const sync = work.begin();
  const importing = work.begin();
  sync.dispose();
  sync.dispose();
  assert.equal(ended, 1, 'the sync ended (a second dispose counts nothing)');
  assert.ok(work.active, 'an import still runs');
  importing.dispose();
  assert.equal(ended, 2);
  assert.ok(!work.active);
  work.begin().dispose();
  assert.equal(ended, 3);
});

test('active changes only as the first piece begins and the last one ends', () => {
  const work = new BulkWork();
  const changes: boolean[] = [];
  work.onDidChangeActive((active) => changes.push(active));
  const sync = work.begin();
  const importing = work.begin();
  assert.deepEqual(changes, [true], 'a second piece under way changes nothing');
  sync.dispose();
  assert.deepEqual(changes, [true]);
  importing.dispose();
  importing.dispose();
  assert.deepEqual(changes, [true, false]);
  work.begin().dispose();
  assert.deepEqual(changes, [true, false, true, false]);
});

test('work a state tells of counts from its first busy value to its first idle one', () => {
  const work = new BulkWork();
  let ended = 0;
  work.onDidEnd(() => ended++);
  const states = new Emitter<string>();
  const backfill = work.whileBusy(states.event, (state) => state === 'indexing');
  states.fire('indexing');
  states.fire('indexing');
  assert.ok(work.active);
  states.fire('ready');
  assert.equal(ended, 1, 'ended once, however many busy values came before');
  states.fire('ready');
  assert.equal(ended, 1);
  states.fire('indexing');
  backfill.dispose();
  assert.equal(ended, 2, 'disposing ends what it counts');
  states.fire('indexing');
  assert.ok(!work.active, 'and stops listening');
});

test('the secrets scan of what an import wrote is bulk work of its own; the scan after a save is not', async () => {
  await withCore(async (core) => {
    const ends: boolean[] = [];
    core.onDidEndBulkWork(() => ends.push(core.context.bulkWork.active));
    core.assets.secrets.start();
    const body = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`S${i}`, { scope: 'python', prefix: `s${i}`, body: `def f${i}():\n    return ${i}` }]));
    const summary = await core.imports.import([{ name: 'a.code-snippets', text: () => JSON.stringify(body) }]);
    assert.equal(summary.imported, 300);
    await core.imports.merged();
    await waitFor(() => core.assets.secrets.progress().pending === 0 && !core.assets.secrets.progress().running);
    assert.equal(ends.length, 2, 'the session ended, then the scan of its 300 snippets');
    assert.equal(ends.at(-1), false, 'nothing left under way');
    await core.assets.writes.create(codeSeed('const saved = 1;', 'saved'), { author: TEST_AUTHOR });
    await waitFor(() => core.assets.secrets.progress().pending === 0 && !core.assets.secrets.progress().running);
    assert.equal(ends.length, 2, "a save's scan is not bulk work");
  });
});

test("an import session and the compactor's pass over every asset are bulk work", async () => {
  await withCore(async (core) => {
    let ended = 0;
    core.onDidEndBulkWork(() => ended++);
    const body = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`S${i}`, { scope: 'python', prefix: `s${i}`, body: `def f${i}():\n    return ${i}` }]));
    const summary = await core.imports.import([{ name: 'a.code-snippets', text: () => JSON.stringify(body) }]);
    assert.equal(summary.imported, 40);
    await core.imports.merged();
    assert.equal(ended, 1, 'the session ended');
    await core.history.compactor.compactAll();
    assert.equal(ended, 2, 'the pass ended');
  });
});
