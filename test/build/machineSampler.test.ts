/** The day bench's reading of how busy the machine was around an activation (test/bench/day/machineSampler.ts). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describeBusy, MachineSampler } from '../bench/day/machineSampler.ts';
import { cpuTicksOf, statFieldsOf } from '../bench/day/sampler.ts';

test('a process spinning through a sampled span shows as about one busy core, and as the runner', { skip: process.platform !== 'linux' }, async () => {
  const sampler = new MachineSampler(50);
  await sleep(120);
  const from = Date.now();
  while (Date.now() - from < 400);
  const to = Date.now();
  await sleep(120);
  sampler.stop();
  const busy = sampler.busyDuring(from, to);
  assert.ok(busy, 'sampled');
  assert.ok(busy.fromMs <= from && busy.toMs >= to, JSON.stringify(busy));
  assert.ok(busy.cores >= 0.6, `a spinning process read as ${busy.cores} cores`);
  const mine = busy.top.reduce((sum, [, cores]) => sum + cores, 0);
  assert.ok(mine >= 0.6, JSON.stringify(busy.top));
  assert.match(describeBusy(busy, 2), /^[\d.]+ of 2 cores busy over the \d+ ms around it \(.+\)$/);
  assert.equal(sampler.busyDuring(to + 60_000, to + 61_000), undefined, 'a span after the last sample is not read');
});

test("a stat line is read after the command's last ')': a name holding ') ' does not shift the fields", () => {
  const line = '4242 (a) b (c) S 1 4242 4242 0 -1 4194560 100 0 0 0 37 5 0 0 20 0 1 0 99 1000 50';
  const fields = statFieldsOf(line);
  assert.equal(fields[0], 'S');
  assert.equal(cpuTicksOf(fields), 42);
});
