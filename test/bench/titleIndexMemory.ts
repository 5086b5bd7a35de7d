/**
 * The title index's build at the host's start (issue 34), in one process: opens the store of a
 * data directory (a copy: opening may migrate it), then builds the title index as the host's
 * warm-up does (`assets.warmUp()`, a slice at a time), and prints the build's wall and CPU time, the
 * peak RSS during it (VmHWM, reset before the build through /proc/self/clear_refs) and the V8 heap's
 * spaces at their largest (sampled every 5 ms), then the CPU a query over the title index costs:
 * completions (`snippets.completions`, each prefix of the day's words) and typo searches (queries
 * with a letter dropped, which only the title index answers).
 *
 *   cp -r LIB /tmp/lib && MALLOC_ARENA_MAX=2 MALLOC_TRIM_THRESHOLD_=131072 ./node_modules/.bin/node \
 *     --experimental-strip-types --disable-warning=ExperimentalWarning test/bench/titleIndexMemory.ts /tmp/lib
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { getHeapSpaceStatistics } from 'node:v8';
import { Satchel } from '../../src/core/satchel.ts';
import { latencyQueries } from './corpus.ts';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: titleIndexMemory.ts DATA_DIR (a copy of a library)');

const statusMb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? NaN) / 1024;
const mb = (bytes: number): number => Math.round(bytes / 2 ** 20);
const cpuMs = (since: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

const satchel = Satchel.open({ dataDir, importWorker: false, keepBackups: 0 });
try {
  await new Promise((resolve) => setTimeout(resolve, 500));
  const before = statusMb('VmRSS');
  writeFileSync('/proc/self/clear_refs', '5');
  const spaces = new Map<string, number>();
  const sampler = setInterval(() => {
    for (const space of getHeapSpaceStatistics()) spaces.set(space.space_name, Math.max(spaces.get(space.space_name) ?? 0, space.space_size));
  }, 5);
  const cpu = process.cpuUsage();
  const started = performance.now();
  await satchel.assets.warmUp();
  const wallMs = performance.now() - started;
  const buildCpuMs = cpuMs(cpu);
  clearInterval(sampler);
  const peak = statusMb('VmHWM');
  console.log(
    `title index built in ${Math.round(wallMs)} ms (CPU ${Math.round(buildCpuMs)} ms); RSS ${Math.round(before)} MB before, peak ${Math.round(peak)} MB during, ${Math.round(statusMb('VmRSS'))} MB after`,
  );
  console.log(`V8 spaces at their largest: ${['new_space', 'old_space', 'large_object_space', 'new_large_object_space'].map((name) => `${name} ${mb(spaces.get(name) ?? 0)} MB`).join(', ')}`);

  const words = ['response', 'fetch', 'retry', 'endpoint', 'attempts', 'backoff', 'seconds', 'parse', 'config', 'sorted'];
  const prefixes = words.flatMap((word) => Array.from({ length: word.length - 1 }, (_, i) => word.slice(0, i + 2)));
  const typos = latencyQueries(30).map((query) => (query.length > 5 ? query.slice(0, 2) + query.slice(3) : query));
  for (let run = 0; run < 3; run++) {
    const completing = process.cpuUsage();
    for (const prefix of prefixes) satchel.snippets.completions({ query: prefix, language: 'python', limit: 30 });
    const completionMs = cpuMs(completing) / prefixes.length;
    const searching = process.cpuUsage();
    for (const query of typos) satchel.assets.searches.search({ query }, { transferables: false, pseudo: false });
    const searchMs = cpuMs(searching) / typos.length;
    console.log(`run ${run + 1}: completion ${completionMs.toFixed(2)} ms of CPU a query (${prefixes.length}), typo search ${searchMs.toFixed(2)} ms (${typos.length})`);
  }
} finally {
  await satchel.close();
}
