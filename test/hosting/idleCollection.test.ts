import { test } from 'node:test';
import assert from 'node:assert/strict';
import { collectWhenIdle, fullCollection } from '../../src/hosting/idleCollection.ts';

const MB = 2 ** 20;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
/** Waits for `done` (timers run late on a loaded machine). */
async function until(done: () => boolean): Promise<void> {
  for (let waited = 0; !done(); waited += 10) {
    if (waited > 10_000) throw new Error('waited 10 s');
    await sleep(10);
  }
}

test('a collection runs once the heap has grown and the event loop is idle, and not again until it grows again', async (t) => {
  let heap = 100 * MB;
  let busy = 0.5;
  let collections = 0;
  const collector = collectWhenIdle({
    checkMs: 20,
    growthBytes: 16 * MB,
    heapBytes: () => heap,
    busyShare: () => busy,
    collect: () => {
      collections++;
      heap = 90 * MB;
    },
  });
  assert.ok(collector);
  t.after(() => collector.dispose());
  // Grown, but busy: nothing.
  heap = 130 * MB;
  await sleep(100);
  assert.equal(collections, 0);
  // Idle: one collection, then nothing while the heap stays where the collection left it.
  busy = 0.001;
  await until(() => collections === 1);
  await sleep(100);
  assert.equal(collections, 1);
  // Growth under the threshold: nothing; past it: one more.
  heap = 100 * MB;
  await sleep(100);
  assert.equal(collections, 1);
  heap = 110 * MB;
  await until(() => collections === 2);
});

test('growth counts from where the heap went down to by itself', async (t) => {
  let heap = 100 * MB;
  let collections = 0;
  const collector = collectWhenIdle({ checkMs: 20, growthBytes: 16 * MB, heapBytes: () => heap, busyShare: () => 0, collect: () => void collections++ });
  t.after(() => collector?.dispose());
  heap = 60 * MB;
  await sleep(80);
  heap = 80 * MB;
  await until(() => collections === 1);
});

test('after bulk work, a collection runs on the next turn, busy or not, if the heap grew', async (t) => {
  let heap = 100 * MB;
  let collections = 0;
  const collector = collectWhenIdle({
    // The idle check never fires here (an hour, and always busy): only the one after the work does.
    checkMs: 3_600_000,
    growthBytes: 16 * MB,
    heapBytes: () => heap,
    busyShare: () => 1,
    collect: () => {
      collections++;
      heap = 100 * MB;
    },
  });
  assert.ok(collector);
  t.after(() => collector.dispose());
  heap = 150 * MB;
  collector.afterWork();
  collector.afterWork();
  assert.equal(collections, 0, 'not inside the work that ended');
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(collections, 1, 'once for both');
  // Not grown enough: none.
  heap = 106 * MB;
  collector.afterWork();
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(collections, 1);
  // Half the idle threshold is enough after work (what bulk work leaves is mostly garbage).
  heap = 110 * MB;
  collector.afterWork();
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(collections, 2);
});

test('the full collection gives back the memory of let-go array buffers and the young generation', () => {
  const collect = fullCollection();
  assert.ok(collect, 'this Node offers a full collection');
  collect();
  const before = process.memoryUsage().arrayBuffers;
  // 64 MB of buffers made and let go: no allocation after them asks V8 to collect.
  (() => {
    const held: Uint8Array[] = [];
    for (let i = 0; i < 64; i++) held.push(new Uint8Array(MB).fill(1));
    return held.length;
  })();
  assert.ok(process.memoryUsage().arrayBuffers - before >= 60 * MB);
  collect();
  assert.ok(process.memoryUsage().arrayBuffers - before < 4 * MB, `${((process.memoryUsage().arrayBuffers - before) / MB).toFixed(1)} MB left`);
});
