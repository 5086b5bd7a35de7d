import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BulkWork } from '../../src/core/bulkWork.ts';
import { Emitter } from '../../src/core/events.ts';
import { withCore } from '../support/helpers.ts';

test('the end fires once the last piece of bulk work ends, once each time', () => {
  const work = new BulkWork();
  let ended = 0;
  work.onDidEnd(() => ended++);
  const sync = work.begin();
  const importing = work.begin();
  sync.dispose();
  sync.dispose();
  assert.equal(ended, 0, 'an import still runs (a second dispose counts nothing)');
  assert.ok(work.active);
  importing.dispose();
  assert.equal(ended, 1);
  assert.ok(!work.active);
  work.begin().dispose();
  assert.equal(ended, 2);
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
