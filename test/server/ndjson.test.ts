/** Progress as lines of a long operation's reply (ndjson.ts): at most one every 100 ms, never a phase's last one or the work's last one lost. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { progressLines } from '../../src/server/ndjson.ts';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

test('a burst of counts is one line at once and the last at the end', () => {
  const written: number[] = [];
  const lines = progressLines<{ done: number }>((progress) => written.push(progress.done));
  for (let done = 1; done <= 100_000; done++) lines.report({ done });
  lines.end();
  assert.deepEqual(written, [1, 100_000]);
  lines.report({ done: 100_001 });
  assert.deepEqual(written, [1, 100_000], 'nothing after the closing line');
});

test('the last count of each phase is written before the next phase\'s', () => {
  const written: string[] = [];
  const lines = progressLines<{ phase: string; done?: number }>((progress) => written.push(`${progress.phase}${progress.done ?? ''}`));
  for (const [phase, done] of [['reading', 1], ['reading', 2], ['reading', 3], ['scanning', 1], ['scanning', 2], ['merging', undefined]] as const) {
    lines.report(done === undefined ? { phase } : { phase, done });
  }
  lines.end();
  assert.deepEqual(written, ['reading1', 'reading3', 'scanning2', 'merging']);
});

test('a held count is written when its time is up, and a count after the gap at once', async () => {
  const written: number[] = [];
  const lines = progressLines<{ done: number }>((progress) => written.push(progress.done));
  lines.report({ done: 1 });
  lines.report({ done: 2 });
  await sleep(150);
  assert.deepEqual(written, [1, 2]);
  await sleep(120);
  lines.report({ done: 3 });
  assert.deepEqual(written, [1, 2, 3]);
  lines.end();
  assert.deepEqual(written, [1, 2, 3]);
});
