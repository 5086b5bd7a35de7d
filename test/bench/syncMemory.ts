/**
 * Memory of a first sync of a whole library (issue 34): opens the store of a data directory (a
 * copy: the sync writes to it), syncs it to a new local bare repository and prints the process's
 * RSS, JS heap and external memory before, at each phase and after (after a GC).
 *
 *   cp -r <library> /tmp/lib && ./node_modules/.bin/node --expose-gc --experimental-strip-types \
 *     --disable-warning=ExperimentalWarning test/bench/syncMemory.ts /tmp/lib
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import { Satchel } from '../../src/core/satchel.ts';
import { ownMemoryLine } from './processes.ts';

const dataDir = process.argv[2];
if (dataDir === undefined) throw new Error('usage: syncMemory.ts <data dir (a copy)>');

function sample(label: string): void {
  console.log(ownMemoryLine(label, 22));
}
const gc = (globalThis as { gc?: () => void }).gc;

const bare = join(mkdtempSync(join(tmpdir(), 'sync-memory-')), 'remote.git');
execFileSync('git', ['init', '--bare', '--quiet', bare]);
const satchel = Satchel.open({ dataDir, importWorker: false, keepBackups: 0 });
sample('opened');
satchel.sync.configure(bare);
let peak = 0;
let last = '';
const summary = await satchel.sync.sync({
  onProgress: ({ phase }) => {
    const rss = process.memoryUsage().rss;
    peak = Math.max(peak, rss);
    if (phase !== last) sample(`phase ${phase}`);
    last = phase;
  },
});
sample('synced');
gc?.();
sample('synced, after gc');
// What the process gives back once idle (V8 and the allocator return freed pages over time).
await new Promise((resolve) => setTimeout(resolve, 30_000));
gc?.();
sample('30 s after, after gc');
// SYNC_MEMORY_SNAPSHOT=file: a heap snapshot of what the sync left (open it in Chrome's DevTools).
if (process.env['SYNC_MEMORY_SNAPSHOT']) writeHeapSnapshot(process.env['SYNC_MEMORY_SNAPSHOT']);
console.log(`peak rss seen ${Math.round(peak / 2 ** 20)} MB; sent ${summary.sent} in ${summary.elapsedMs} ms`);
await satchel.close();
