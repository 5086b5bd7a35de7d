/**
 * The JSON worker ends when idle (issue 34): its heap grew to parse an import's large bodies and V8
 * kept what it grew to, in the data host, for as long as the host ran. The next large body starts
 * another worker.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { JsonWorker, type ParseOutcome } from '../../src/server/jsonWorker.ts';

const LIMITS = { maxDepth: 64, maxNodes: 1000 };
const valueOf = async (outcome: Promise<ParseOutcome>): Promise<unknown> => {
  const reply = await outcome;
  return reply.ok ? reply.value : reply;
};

test('an idle JSON worker ends; a call while it runs keeps it, and a call after starts another', async () => {
  const worker = new JsonWorker(200);
  try {
    assert.equal(worker.running, false, 'started only by the first body');
    assert.deepEqual(await valueOf(worker.parse(Buffer.from('{"a":[1,2]}'), LIMITS)), { a: [1, 2] });
    assert.equal(worker.running, true);
    await sleep(100);
    // A second body within the idle time: the same worker, its idle time counted again from this reply.
    assert.deepEqual(await valueOf(worker.parse(Buffer.from('"b"'), LIMITS)), 'b');
    await sleep(120);
    assert.equal(worker.running, true, 'not ended 120 ms after its last reply');
    await sleep(400);
    assert.equal(worker.running, false, 'ended once idle');
    assert.deepEqual(await valueOf(worker.parse(Buffer.from('[3]'), LIMITS)), [3]);
    assert.equal(worker.running, true, 'the next body started another');
  } finally {
    worker.dispose();
  }
});
