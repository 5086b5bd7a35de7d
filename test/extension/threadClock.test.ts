/** The extension host thread's clocks read around activation (src/extension/threadClock.ts). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { plus, readThreadClock, since } from '../../src/extension/threadClock.ts';

const sleep = (ms: number): void => void Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

test("time on a core is this thread's: it sleeps 40 ms while another thread of the process spins, and ran for almost none of it", async () => {
  const spinner = new Worker('require("node:worker_threads").parentPort.postMessage(0); const end = Date.now() + 400; while (Date.now() < end);', { eval: true });
  await once(spinner, 'message');
  const start = readThreadClock();
  sleep(40);
  const span = since(start);
  await spinner.terminate();
  assert.ok(span.wallMs >= 39, `wall ${span.wallMs}`);
  assert.equal(typeof span.cpuMs, 'number');
  assert.ok(span.cpuMs! < 10, `on a core ${span.cpuMs} ms while sleeping`);
});

test('a busy thread is on a core or waiting for one for all of its wall time, and never on a core longer than the wall time', () => {
  /** 30 ms of spinning, checked for what must hold every time: never on a core, nor on a core and waiting, longer than the wall time. */
  const busy = (): ReturnType<typeof since> => {
    const start = readThreadClock();
    let spin = 0;
    while (performance.now() - start.wallMs < 30) spin++;
    const span = since(start);
    assert.ok(spin > 0);
    assert.ok(span.cpuMs! > 0 && span.cpuMs! <= span.wallMs + 1, JSON.stringify(span));
    if (process.platform === 'linux') {
      assert.equal(typeof span.waitedMs, 'number');
      assert.ok(span.cpuMs! + span.waitedMs! <= span.wallMs + 6, JSON.stringify(span));
    }
    return span;
  };
  const spans = [busy()];
  if (process.platform !== 'linux') return;
  // Linux: what the loop did not run it waited (for a core, on a loaded machine), and the three parts agree.
  // A thread the kernel puts to sleep meanwhile (a page fault served from disk, memory reclaimed on a
  // loaded machine) is neither on a core nor waiting for one: once in a CI run the unit suite saw 30 ms
  // of wall time as 8.6 on a core and 13.3 waiting. Clocks read wrongly (units, the wrong thread) would
  // disagree every time; three tries in a row must not all.
  const agree = (span: ReturnType<typeof since>): boolean => span.cpuMs! + span.waitedMs! >= span.wallMs - 6;
  while (!agree(spans.at(-1)!) && spans.length < 3) spans.push(busy());
  assert.ok(spans.some(agree), JSON.stringify(spans));
});

test('two spans add part by part; a part one of them lacks is unknown in the sum', () => {
  assert.deepEqual(plus({ wallMs: 10.04, cpuMs: 4, waitedMs: 5 }, { wallMs: 2.5, cpuMs: 1.25, waitedMs: 1 }), { wallMs: 12.5, cpuMs: 5.3, waitedMs: 6 });
  assert.deepEqual(plus({ wallMs: 1, cpuMs: 1 }, { wallMs: 2, cpuMs: 2, waitedMs: 0.5 }), { wallMs: 3, cpuMs: 3, waitedMs: undefined });
});
