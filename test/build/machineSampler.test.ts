/** The day bench's reading of how busy the machine was around an activation (test/bench/day/machineSampler.ts). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describeBusy, MachineSampler } from '../bench/day/machineSampler.ts';
import { cpuTicksOf, statFieldsOf } from '../bench/day/sampler.ts';

test('a process spinning through a sampled span shows as the CPU time it used, and as the runner', { skip: process.platform !== 'linux' }, async () => {
  const sampler = new MachineSampler(50);
  await sleep(120);
  // The process's own account of its CPU time is the reference: on a loaded machine a spinning
  // process gets less than a core (CI read 0.3 cores while other jobs ran), and the sampler must
  // read what it got, not a core.
  const cpuBefore = process.cpuUsage();
  const from = Date.now();
  while (Date.now() - from < 400);
  const to = Date.now();
  const spent = process.cpuUsage(cpuBefore);
  await sleep(120);
  sampler.stop();
  const busy = sampler.busyDuring(from, to);
  assert.ok(busy, 'sampled');
  assert.ok(busy.fromMs <= from && busy.toMs >= to, JSON.stringify(busy));
  const spentCores = (spent.user + spent.system) / 1000 / (busy.toMs - busy.fromMs);
  // Ticks are 10 ms: two of them over the span is the reading's own error.
  const tolerance = 20 / (busy.toMs - busy.fromMs);
  assert.ok(spentCores > 0.05, `the spin used ${spentCores} cores`);
  assert.ok(busy.cores >= spentCores - tolerance, `a process that used ${spentCores} cores read as ${busy.cores} for the machine`);
  const mine = busy.top.reduce((sum, [, cores]) => sum + cores, 0);
  assert.ok(mine >= spentCores - tolerance, `${spentCores} cores used, top roles ${JSON.stringify(busy.top)}`);
  assert.match(describeBusy(busy, 2), /^[\d.]+ of 2 cores busy over the \d+ ms around it \(.+\)$/);
  assert.equal(sampler.busyDuring(to + 60_000, to + 61_000), undefined, 'a span after the last sample is not read');
});

test("a stat line is read after the command's last ')': a name holding ') ' does not shift the fields", () => {
  const line = '4242 (a) b (c) S 1 4242 4242 0 -1 4194560 100 0 0 0 37 5 0 0 20 0 1 0 99 1000 50';
  const fields = statFieldsOf(line);
  assert.equal(fields[0], 'S');
  assert.equal(cpuTicksOf(fields), 42);
});
