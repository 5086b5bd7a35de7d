/** Health answered while something else runs: the slowest answer is how long the host was blocked. */
import assert from 'node:assert/strict';
import { percentile, raw, sleep, type HostProcess } from './support.ts';

export interface HealthFigures {
  /** The slowest answer, round trip, in ms: on a busy machine it also counts the probe's and the host's waits for a CPU. */
  readonly slowest: number;
  readonly median: number;
  readonly probes: number;
  readonly failures: number;
  /**
   * With a host process: the longest its event loop was held meanwhile, less the time its main
   * thread waited for a CPU (loopWatch.cjs), in ms: what health waited for the host itself. The
   * bound a test asserts; `slowest` is the figure it prints.
   */
  readonly held?: number;
}

/**
 * Polls health every 100 ms on fresh connections; `stop()` resolves with the slowest and the median
 * answer in ms and, given the host process, how long its event loop was held meanwhile.
 */
export function probeHealth(port: number, host?: HostProcess): { stop(): Promise<HealthFigures> } {
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
      await sleep(100);
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
 * the bound tests assert: how long the host's event loop was held (less its waits for a CPU) when
 * the host process is given, else the round trip. Fails if health failed.
 */
export async function withHealth<T>(
  target: { readonly port: number; readonly host?: HostProcess },
  work: () => Promise<T>,
): Promise<{ result: T; slowest: number; waited: number }> {
  const probe = probeHealth(target.port, target.host);
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

/** What a test bounds: the host's own hold of its event loop where it was measured, else the round trip. */
export function waitedOf(figures: HealthFigures): number {
  return figures.held ?? figures.slowest;
}

/**
 * The longest hold of `host`'s event loop (less its waits for a CPU) since `from` (epoch ms); a gap
 * that began before counts only its part since (the host's start-up work just before a probe).
 */
function heldSince(host: HostProcess, from: number): number {
  return host.loopHolds.filter((hold) => hold.at >= from).reduce((longest, hold) => Math.max(longest, Math.min(hold.held, hold.at - from)), 0);
}
