/** Health answered while something else runs: the slowest answer is how long the host was blocked. */
import assert from 'node:assert/strict';
import { heldSince, percentile, raw, sleep, type HostProcess } from './support.ts';

export interface HealthFigures {
  /** The slowest answer, round trip, in ms: on a busy machine it also counts the probe's and the host's waits for a CPU. */
  readonly slowest: number;
  readonly median: number;
  readonly probes: number;
  readonly failures: number;
  /**
   * With a host process: the longest its event loop was held meanwhile, less the time its main
   * thread waited for a CPU (loopWatch.cjs), in ms. Tests bound waitedOf(figures).
   */
  readonly held?: number;
}

/**
 * Polls health every `everyMs` (100 ms unless told) on fresh connections; `stop()` resolves with the
 * slowest and the median answer in ms and, given the host process, how long its event loop was held meanwhile.
 */
export function probeHealth(port: number, host?: HostProcess, everyMs = 100): { stop(): Promise<HealthFigures> } {
  const from = Date.now();
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
      await sleep(everyMs);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      const figures = { slowest: Math.round(slowest), median: Math.round(percentile(times, 50)), probes, failures };
      return host ? { ...figures, held: heldSince(host, from) } : figures;
    },
  };
}

/**
 * Runs `work` while health is probed; returns its result, health's slowest round trip and `waited`,
 * the bound tests assert (waitedOf). Fails if health failed.
 */
export async function withHealth<T>(
  target: { readonly port: number; readonly host?: HostProcess; readonly everyMs?: number },
  work: () => Promise<T>,
): Promise<{ result: T; slowest: number; waited: number }> {
  const probe = probeHealth(target.port, target.host, target.everyMs);
  try {
    const result = await work();
    const health = await probe.stop();
    assert.equal(health.failures, 0, 'health failed while the request ran');
    return { result, slowest: health.slowest, waited: waitedOf(health) };
  } catch (error) {
    await probe.stop();
    throw error;
  }
}

/**
 * What a test bounds: how long health waited for the host. The slowest round trip is an upper bound
 * that also counts the machine's load (the probe's and the host's waits for a CPU); the host's
 * longest hold of its event loop (loopWatch.cjs) is another, which leaves the load out but counts
 * a turn no probe met and the main thread's waits for its own GC helpers, which on a busy machine
 * wait for a CPU too (a 53 MB body: held 1,422 ms, slowest round trip 934 ms). Both bound the same
 * wait, so the smaller is taken; without the host process, the round trip.
 */
export function waitedOf(figures: HealthFigures): number {
  return figures.held === undefined ? figures.slowest : Math.min(figures.held, figures.slowest);
}
