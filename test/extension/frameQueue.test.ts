import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FrameQueue } from '../../src/extension/frameQueue.ts';

test('frames that arrive during an apply are merged into one, in order; a full frame replaces what was queued', async () => {
  const applied: Array<{ present: string[]; deleted: string[]; full: boolean }> = [];
  let release!: () => void;
  let first = true;
  const queue = new FrameQueue(async (present, deleted, full) => {
    applied.push({ present, deleted, full });
    if (first) {
      first = false;
      await new Promise<void>((resolve) => (release = resolve));
    }
  }, () => true);
  queue.push(['a'], [], true);
  // While the first apply waits: b comes and goes, c is deleted then comes back, d is deleted.
  queue.push(['b', 'c'], [], false);
  queue.push([], ['b', 'c', 'd'], false);
  queue.push(['c'], [], false);
  const settled = queue.settled();
  release();
  await settled;
  assert.deepEqual(applied, [
    { present: ['a'], deleted: [], full: true },
    { present: ['c'], deleted: ['b', 'd'], full: false },
  ]);

  first = true;
  queue.push(['x'], [], false);
  queue.push(['y'], [], false);
  queue.push(['z'], [], true);
  const again = queue.settled();
  release();
  await again;
  assert.deepEqual(applied.slice(2), [
    { present: ['x'], deleted: [], full: false },
    { present: ['z'], deleted: [], full: true },
  ]);
});

test('nothing is applied once frames are no longer wanted, and release lets a waiter go', async () => {
  let wanted = true;
  let release!: () => void;
  const applied: string[][] = [];
  const queue = new FrameQueue(async (present) => {
    applied.push(present);
    await new Promise<void>((resolve) => (release = resolve));
  }, () => wanted);
  queue.push(['a'], [], false);
  queue.push(['b'], [], false);
  const settled = queue.settled();
  wanted = false;
  queue.release();
  await settled;
  release();
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(applied, [['a']]);
});

test('a followed stream: the first frame after each (re)connect is full, entries without an id are skipped', async () => {
  const applied: Array<{ present: string[]; deleted: string[]; full: boolean }> = [];
  const queue = new FrameQueue(async (present, deleted, full) => void applied.push({ present, deleted, full }), () => true);
  let frame!: (frame: { iterable?: Array<{ id?: string; deleted?: boolean }> } | undefined) => void;
  let connected!: (connected: boolean) => void;
  queue.follow<{ id?: string; deleted?: boolean }>({ onFrame: (listener) => (frame = listener), onDidChangeConnected: (listener) => (connected = listener) }, (entry) => entry.id);
  frame({ iterable: [{ id: 'a' }, { id: 'b' }, {}] });
  await queue.settled();
  frame({ iterable: [{ id: 'b', deleted: true }] });
  await queue.settled();
  connected(true);
  frame({ iterable: [{ id: 'a' }] });
  await queue.settled();
  assert.deepEqual(applied, [
    { present: ['a', 'b'], deleted: [], full: true },
    { present: [], deleted: ['b'], full: false },
    { present: ['a'], deleted: [], full: true },
  ]);
});
