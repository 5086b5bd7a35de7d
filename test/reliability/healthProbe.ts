/** Health answered while something else runs: the slowest answer is how long the host was blocked. */
import { raw, sleep } from './support.ts';

/** Polls health every 100 ms on fresh connections; `stop()` resolves with the slowest answer in ms. */
export function probeHealth(port: number): { stop(): Promise<{ slowest: number; probes: number; failures: number }> } {
  let running = true;
  let slowest = 0;
  let probes = 0;
  let failures = 0;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      try {
        const reply = await raw(port, { path: '/.well-known/health', timeoutMs: 20_000 });
        if (reply.status !== 200) failures++;
      } catch {
        failures++;
      }
      slowest = Math.max(slowest, performance.now() - started);
      probes++;
      await sleep(100);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { slowest: Math.round(slowest), probes, failures };
    },
  };
}

