// Preloaded into a host process by load.test.ts (with --expose-gc): on SIGUSR2 it collects garbage
// in full and then writes "collected" to stderr, so the test reads the host's memory after a full
// collection rather than whenever V8 last chose to collect.
process.on('SIGUSR2', () => {
  globalThis.gc?.();
  globalThis.gc?.();
  process.stderr.write('collected\n');
});
