import { test } from 'node:test';
import assert from 'node:assert/strict';
import { collectWhenIdle, fullCollection, type IdleCollector } from '../../src/hosting/idleCollection.ts';

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

/** How the test moves the soft limit's inputs before V8's next collection: the heap grows, the clock goes on, resident memory is set. */
interface Move {
  readonly grow?: number;
  readonly clock?: number;
  readonly resident?: number;
}

/**
 * A collector over the soft limit's inputs that the test moves by hand: the heap, resident memory
 * and the clock as `state` holds them, `collect` as given. `step` moves them, tells of one of V8's
 * collections and checks how many full collections the collector has made in all.
 */
function overLimitCollector(
  t: { after(fn: () => void): void },
  state: { heap: number; resident: number; clock: number },
  collect: () => void,
): { step(move: Move, collections: number, message?: string): void; collector: IdleCollector } {
  let afterGc: (() => void) | undefined;
  let collections = 0;
  const collector = collectWhenIdle({
    // The idle check never fires here (an hour, and always busy): only the soft limit does.
    checkMs: 3_600_000,
    busyShare: () => 1,
    heapBytes: () => state.heap,
    now: () => state.clock,
    softLimitBytes: 140 * MB,
    residentBytes: () => state.resident,
    afterEachGc: (listener) => {
      afterGc = listener;
      return { dispose: () => (afterGc = undefined) };
    },
    collect: () => {
      collections++;
      collect();
    },
  });
  assert.ok(collector && afterGc);
  t.after(() => collector.dispose());
  return {
    collector,
    step: (move, expected, message) => {
      state.heap += move.grow ?? 0;
      state.clock += move.clock ?? 0;
      if (move.resident !== undefined) state.resident = move.resident;
      afterGc?.();
      assert.equal(collections, expected, message);
    },
  };
}

test('over the soft limit, a collection follows V8\'s own once the heap grew, at most once a gap, the gap doubling while collections give little back', (t) => {
  const state = { heap: 100 * MB, resident: 120 * MB, clock: 0 };
  let freed = 10 * MB;
  const { step } = overLimitCollector(t, state, () => {
    state.heap -= freed;
    state.resident -= freed;
  });
  step({ grow: 20 * MB }, 0, 'under the limit: V8\'s collections are left alone, whatever the heap grew');
  step({ resident: 150 * MB }, 1, 'over it and grown: one collection');
  step({ grow: 8 * MB, resident: state.resident + 8 * MB, clock: 1_000 }, 1, 'grown again at once: not before the gap (2 s)');
  step({ clock: 1_000 }, 2);
  step({ clock: 5_000, resident: 150 * MB }, 2, 'over the limit but not grown since the last collection: nothing');
  // A collection that gives little back doubles the gap: 4 s, then 8 s.
  freed = MB;
  step({ grow: 8 * MB, resident: 150 * MB }, 3);
  step({ grow: 8 * MB, clock: 2_000 }, 3, 'the gap is 4 s now');
  step({ clock: 2_000 }, 4);
  step({ grow: 8 * MB, clock: 4_000 }, 4, 'the gap is 8 s now');
  // One that gives back again sets the gap back to 2 s.
  freed = 10 * MB;
  step({ clock: 4_000 }, 5);
  step({ grow: 8 * MB, resident: 150 * MB, clock: 2_000 }, 6);
});

test('the soft limit hears V8\'s own collections in a real process', async (t) => {
  let collections = 0;
  const collector = collectWhenIdle({
    checkMs: 3_600_000,
    busyShare: () => 1,
    // Always over the limit and always grown: every collection V8 reports (after the gap) is followed by one.
    softLimitBytes: 1,
    heapBytes: (() => {
      let fake = 0;
      return () => (fake += 8 * MB);
    })(),
    collect: () => void collections++,
  });
  assert.ok(collector);
  t.after(() => collector.dispose());
  const started = Date.now();
  while (collections === 0 && Date.now() - started < 10_000) {
    // Garbage enough for the young generation to be collected.
    let kept = 0;
    for (let i = 0; i < 20_000; i++) kept += new Array(64).fill(i).length;
    assert.ok(kept > 0);
    await sleep(5);
  }
  assert.equal(collections, 1);
});

test('over the soft limit, a collection that takes long spaces the next by twenty times its length', (t) => {
  const state = { heap: 100 * MB, resident: 150 * MB, clock: 0 };
  const { step } = overLimitCollector(t, state, () => {
    // A large heap: half a second, and most of what grew given back.
    state.clock += 500;
    state.heap -= 8 * MB;
  });
  step({ grow: 10 * MB }, 1);
  step({ grow: 10 * MB, clock: 9_000 }, 1, 'not within 10 s of the last');
  step({ clock: 1_000 }, 2);
});

test('over the soft limit, a collection made for another reason (after bulk work) does not hold back the limit\'s next one', (t) => {
  const state = { heap: 100 * MB, resident: 150 * MB, clock: 10_000 };
  const { step, collector } = overLimitCollector(t, state, () => {
    state.heap -= 10 * MB;
    state.resident -= 10 * MB;
  });
  collector.collectNow();
  step({ clock: 100 }, 1, 'not grown since: nothing');
  // The burst right after an import (its secrets scan): grown by more than the limit's step half a second later.
  step({ grow: 8 * MB, resident: 150 * MB, clock: 400 }, 2, 'collected at once, not 2 s after the other collection');
  step({ grow: 8 * MB, resident: 150 * MB, clock: 500 }, 2, 'but the limit\'s own collections keep their gap');
});

test('about to take a large body, a collection runs first when the body would take the host past the soft limit and the heap grew', (t) => {
  const state = { heap: 100 * MB, resident: 132 * MB, clock: 10_000 };
  const { step, collector } = overLimitCollector(t, state, () => {
    state.heap -= 6 * MB;
    state.resident -= 6 * MB;
  });
  state.heap += 6 * MB;
  collector.beforeAllocating(4 * MB);
  step({}, 0, '132 + 4 MB stays under 140: nothing');
  collector.beforeAllocating(10 * MB);
  step({}, 1, '132 + 10 MB would pass it, and the heap grew 6 MB: collected before the body is read');
  state.heap += 6 * MB;
  state.resident = 132 * MB;
  state.clock += 500;
  collector.beforeAllocating(10 * MB);
  step({}, 1, 'not again within the limit\'s gap');
  state.clock += 2_000;
  collector.beforeAllocating(10 * MB);
  step({}, 2, 'past the gap: collected again');
});
