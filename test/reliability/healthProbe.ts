/** Health answered while something else runs: the slowest answer is how long the host was blocked. */
import assert from 'node:assert/strict';
import { percentile, raw, sleep } from './support.ts';

/** Polls health every 100 ms on fresh connections; `stop()` resolves with the slowest and the median answer in ms. */
export function probeHealth(port: number): { stop(): Promise<{ slowest: number; median: number; probes: number; failures: number }> } {
  let running = true;
  let slowest = 0;
  let probes = 0;
  let failures = 0;
  const times: number[] = [];
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      try {
        const reply = await raw(port, { path: '/.well-known/health', timeoutMs: 20_000 });
        if (reply.status !== 200) failures++;
      } catch {
        failures++;
      }
      const ms = performance.now() - started;
      slowest = Math.max(slowest, ms);
      times.push(ms);
      probes++;
      await sleep(100);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { slowest: Math.round(slowest), median: Math.round(percentile(times, 50)), probes, failures };
    },
  };
}

/** Runs `work` while health is probed; returns its result and health's slowest answer (failing if health failed). */
export async function withHealth<T>(port: number, work: () => Promise<T>): Promise<{ result: T; slowest: number }> {
  const probe = probeHealth(port);
  try {
    const result = await work();
    const health = await probe.stop();
    assert.equal(health.failures, 0, 'health failed while the request ran');
    return { result, slowest: health.slowest };
  } catch (error) {
    await probe.stop();
    throw error;
  }
}
