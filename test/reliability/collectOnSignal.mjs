// Preloaded into a host process by load.test.ts (with --expose-gc): on SIGUSR2 it collects garbage
// in full and then writes "collected" and what the heap holds to stderr, so the test reads the
// host's memory after a full collection rather than whenever V8 last chose to collect.
if (typeof globalThis.gc !== 'function') throw new Error('collectOnSignal.mjs needs node --expose-gc');
const collect = globalThis.gc;
process.on('SIGUSR2', () => {
  collect();
  collect();
  const { heapUsed, external, arrayBuffers } = process.memoryUsage();
  process.stderr.write(`collected ${JSON.stringify({ heapUsed, external, arrayBuffers })}\n`);
});
