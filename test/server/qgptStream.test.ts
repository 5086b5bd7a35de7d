/**
 * `/qgpt/stream` reads what clients send as the HTTP routes read bodies (issue 26): frames get the
 * same depth and encoding limits, large ones are parsed off the event loop, and one socket holds at
 * most MAX_QUESTIONS_IN_FLIGHT questions; one more is answered FAILED 429 under its request id.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { WebSocket } from 'ws';
import { startTestServer, type TestServer } from '../support/helpers.ts';
import { MAX_QUESTIONS_IN_FLIGHT } from '../../src/server/routes/qgpt.ts';
import { NO_MODEL_NOTICE } from '../../src/core/conversations/copilot.ts';

let t: TestServer;

before(async () => {
  t = await startTestServer();
});
after(async () => {
  await t.close();
});

interface Frame {
  readonly request?: string;
  readonly status: string;
  readonly statusCode?: number;
  readonly errorMessage?: string;
  readonly question?: { answers?: { iterable?: Array<{ text?: string }> } };
}

/** A socket on /qgpt/stream and the frames it received. */
async function open(): Promise<{ socket: WebSocket; frames: Frame[]; next(count: number): Promise<Frame[]> }> {
  const socket = new WebSocket(`${t.url.replace('http', 'ws')}/qgpt/stream`);
  const frames: Frame[] = [];
  const waiters = new Set<() => void>();
  socket.on('message', (data) => {
    frames.push(JSON.parse(String(data)) as Frame);
    for (const waiter of [...waiters]) waiter();
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const next = (count: number): Promise<Frame[]> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${frames.length} of ${count} frames: ${JSON.stringify(frames)}`)), 15_000);
      const check = (): void => {
        if (frames.length < count) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve(frames.slice(0, count));
      };
      waiters.add(check);
      check();
    });
  return { socket, frames, next };
}

test(`one socket holds ${MAX_QUESTIONS_IN_FLIGHT} questions in flight; the next is refused 429 under its request id`, async () => {
  const { socket, frames, next } = await open();
  try {
    // New conversations are answered after a settle time, so all of these are in flight at once.
    const count = MAX_QUESTIONS_IN_FLIGHT + 3;
    for (let i = 0; i < count; i++) socket.send(JSON.stringify({ question: { query: `question ${i}` }, request: `r${i}` }));
    // Each answered question sends IN-PROGRESS then COMPLETED; each refused one FAILED.
    await next(MAX_QUESTIONS_IN_FLIGHT * 2 + 3);
    const ends = frames.filter((frame) => frame.status !== 'IN-PROGRESS');
    const refused = ends.filter((frame) => frame.status === 'FAILED');
    assert.deepEqual(
      refused.map((frame) => [frame.request, frame.statusCode]),
      [MAX_QUESTIONS_IN_FLIGHT, MAX_QUESTIONS_IN_FLIGHT + 1, MAX_QUESTIONS_IN_FLIGHT + 2].map((i) => [`r${i}`, 429]),
    );
    assert.match(refused[0]!.errorMessage ?? '', new RegExp(`At most ${MAX_QUESTIONS_IN_FLIGHT} questions may be in flight on one socket`));
    const completed = ends.filter((frame) => frame.status === 'COMPLETED').map((frame) => frame.request);
    assert.deepEqual(completed.sort(), Array.from({ length: MAX_QUESTIONS_IN_FLIGHT }, (_, i) => `r${i}`).sort());

    // Once answered, the socket takes questions again.
    socket.send(JSON.stringify({ question: { query: 'one more' }, request: 'again' }));
    const again = await next(frames.length + 2);
    assert.deepEqual(again.slice(-2).map((frame) => [frame.request, frame.status]), [
      ['again', 'IN-PROGRESS'],
      ['again', 'COMPLETED'],
    ]);
    assert.equal(again.at(-2)!.question?.answers?.iterable?.[0]?.text, NO_MODEL_NOTICE);
  } finally {
    socket.close();
  }
});

test('frames get the limits bodies get: too deep, not UTF-8 and not JSON are FAILED 400 with the reason', async () => {
  const { socket, next } = await open();
  try {
    socket.send('['.repeat(300) + ']'.repeat(300));
    socket.send(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), { binary: true });
    socket.send('{"question": ');
    const frames = await next(3);
    assert.deepEqual(frames.map((frame) => [frame.status, frame.statusCode]), [
      ['FAILED', 400],
      ['FAILED', 400],
      ['FAILED', 400],
    ]);
    assert.match(frames[0]!.errorMessage ?? '', /The frame nests deeper than 256 levels/);
    assert.match(frames[1]!.errorMessage ?? '', /The frame is not valid UTF-8/);
    assert.match(frames[2]!.errorMessage ?? '', /The frame is not valid JSON/);
  } finally {
    socket.close();
  }
});

test('a large frame (parsed off the event loop) is read in its turn: a question sent after it is answered after it', async () => {
  const { socket, next } = await open();
  try {
    const query = `Explain this: ${'const value = compute(alpha, beta); '.repeat(6_000)}`;
    socket.send(JSON.stringify({ question: { query }, request: 'large' }));
    socket.send(JSON.stringify({ question: { query: 'small' }, request: 'small' }));
    const frames = await next(4);
    const ends = frames.filter((frame) => frame.status === 'COMPLETED').map((frame) => frame.request);
    assert.deepEqual(ends.sort(), ['large', 'small']);
    assert.equal(frames[0]!.request, 'large', 'the large question was read first');
  } finally {
    socket.close();
  }
});

test('stop is read in order and stops what is being answered', async () => {
  const { socket, next } = await open();
  try {
    socket.send(JSON.stringify({ question: { query: 'a question' }, request: 'q' }));
    socket.send(JSON.stringify({ stop: true, request: 's' }));
    const frames = await next(1);
    assert.deepEqual([frames[0]!.request, frames[0]!.status], ['s', 'STOPPED']);
  } finally {
    socket.close();
  }
});
