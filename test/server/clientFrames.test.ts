/**
 * Client frames wait to be read one per turn, in order (clientFrames.ts): a socket with too many
 * waiting is paused and resumed once they are read; past a socket's byte bound, or the bound of all
 * sockets, a frame is refused unread; a closed socket's frames are dropped and their bytes given back.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ClientFrames, type ClientFrame } from '../../src/server/clientFrames.ts';

function frame(i: number, padding = 0): Buffer {
  return Buffer.from(JSON.stringify({ i, padding: 'p'.repeat(padding) }));
}

/** What was delivered: each frame's `i`, or the refusal's status and code. */
function seen(delivered: readonly ClientFrame[]): Array<number | string> {
  return delivered.map((read) => ('value' in read ? (read.value as { i: number }).i : `${read.error.status} ${read.error.code}`));
}

function until(check: () => boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const poll = (): void => {
      if (check()) resolve();
      else if (Date.now() - started > 10_000) reject(new Error('timed out'));
      else setTimeout(poll, 5);
    };
    poll();
  });
}

test('a socket with too many frames waiting is paused, resumed once they are read, and gets every frame in order', async () => {
  const frames = new ClientFrames({ pauseFrames: 4 });
  const delivered: ClientFrame[] = [];
  const flow: string[] = [];
  const queue = frames.queue((read) => void delivered.push(read), { pause: () => flow.push('pause'), resume: () => flow.push('resume') });
  try {
    for (let i = 0; i < 10; i++) queue.push(frame(i));
    assert.equal(delivered.length, 0, 'nothing is read in the turn the frames came');
    assert.deepEqual(flow, ['pause']);
    await until(() => delivered.length === 10);
    assert.deepEqual(seen(delivered), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    assert.deepEqual(flow, ['pause', 'resume']);
  } finally {
    frames.dispose();
  }
});

test('past the bytes a socket may hold waiting, a frame is refused unread (429); past those of all sockets, 503', async () => {
  const frames = new ClientFrames({ pauseBytes: 1024 * 1024, bytesPerSocket: 300_000, bytesInAll: 350_000 });
  const first: ClientFrame[] = [];
  const second: ClientFrame[] = [];
  const flow = { pause: () => undefined, resume: () => undefined };
  const one = frames.queue((read) => void first.push(read), flow);
  const two = frames.queue((read) => void second.push(read), flow);
  try {
    one.push(frame(0, 200_000));
    one.push(frame(1, 200_000));
    two.push(frame(2, 200_000));
    assert.deepEqual(seen(first), ['429 too_many_frames']);
    assert.deepEqual(seen(second), ['503 busy']);
    await until(() => first.length === 2);
    assert.deepEqual(seen(first), ['429 too_many_frames', 0]);

    // The bytes of a frame are given back once it is read: the other socket is taken again.
    two.push(frame(3, 200_000));
    await until(() => second.length === 2);
    assert.deepEqual(seen(second), ['503 busy', 3]);
  } finally {
    frames.dispose();
  }
});

test('a closed socket drops the frames it had waiting and gives their bytes back', async () => {
  const frames = new ClientFrames({ bytesInAll: 500_000, pauseBytes: 1024 * 1024, bytesPerSocket: 1024 * 1024 });
  const delivered: ClientFrame[] = [];
  const flow = { pause: () => undefined, resume: () => undefined };
  const closing = frames.queue((read) => void delivered.push(read), flow);
  try {
    closing.push(frame(0, 200_000));
    closing.push(frame(1, 200_000));
    closing.dispose();
    const other: ClientFrame[] = [];
    const open = frames.queue((read) => void other.push(read), flow);
    open.push(frame(2, 200_000));
    open.push(frame(3, 200_000));
    await until(() => other.length === 2);
    assert.ok(other.every((read) => 'value' in read), 'the budget the closed socket held was given back');
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(delivered.length, 0, 'nothing of a closed socket is delivered');
  } finally {
    frames.dispose();
  }
});

test('a frame whose work is under way keeps its bytes counted against all sockets until the work ends', async () => {
  const frames = new ClientFrames({ pauseBytes: 1024 * 1024, bytesPerSocket: 1024 * 1024, bytesInAll: 300_000 });
  let finish: () => void = () => undefined;
  const work = new Promise<void>((resolve) => (finish = resolve));
  const flow = { pause: () => undefined, resume: () => undefined };
  const answered: ClientFrame[] = [];
  const asking = frames.queue((read) => {
    answered.push(read);
    return work;
  }, flow);
  const other: ClientFrame[] = [];
  const waiting = frames.queue((read) => void other.push(read), flow);
  try {
    asking.push(frame(0, 200_000));
    await until(() => answered.length === 1);
    waiting.push(frame(1, 200_000));
    assert.deepEqual(seen(other), ['503 busy'], 'the frame being worked on still holds its bytes');
    finish();
    await work;
    waiting.push(frame(2, 200_000));
    await until(() => other.length === 2);
    assert.deepEqual(seen(other), ['503 busy', 2]);
  } finally {
    frames.dispose();
  }
});
