/**
 * The data host's memory through one import, read inside the host (issue 34): the built host
 * (`dist/cli.cjs`) on a copy of a filled library, started as a window starts it (its V8 flags and
 * allocator settings) with memorySampler.cjs preloaded, left 20 s to settle, then the bench's 10k
 * import (two VS Code snippet files, one request) through the client, then 12 s more. Prints the
 * import's time and, a line each half second from 1 s before it, the host's RSS, heap, array buffers
 * and WAL file, marking when a worker thread starts or ends (docs/performance.md, "The import,
 * sampled inside the data host"). With --wal it also reads the WAL's frames as they are written and
 * names, second by second from the import's end, the tables and indexes they belong to (walFrames.ts).
 *
 *   npm run build -- --production && ./node_modules/.bin/node --experimental-strip-types \
 *     --disable-warning=ExperimentalWarning test/bench/hostImportSample.ts --library=out/bench-day/library-100000 [--node=NODE] [--wal]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { SatchelClient } from '../../src/client/satchelClient.ts';
import { generateCorpus } from './corpus.ts';
import { snippetFiles } from './figures/importFigure.ts';
import { repoRoot, startChild } from './processes.ts';
import { DATA_HOST_ALLOCATOR_ENV } from '../../src/hosting/hostCommand.ts';
import { DATA_HOST_NODE_FLAGS } from '../../src/core/hostNodeFlags.ts';
import { WalTail, ownersReport, pageOwners } from './walFrames.ts';

const { values } = parseArgs({ options: { library: { type: 'string' }, node: { type: 'string' }, wal: { type: 'boolean' } } });
if (values.library === undefined) throw new Error('usage: hostImportSample.ts --library=<filled data dir> [--node=NODE]');
const scratch = mkdtempSync(join(tmpdir(), 'host-import-sample-'));
const dataDir = join(scratch, 'data');
const samples = join(scratch, 'samples.txt');
execFileSync('cp', ['-r', resolve(values.library), dataDir]);
for (const stale of ['port.json', 'satchel.lock']) rmSync(join(dataDir, stale), { force: true });
const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

const host = await startChild(join(repoRoot, 'dist/cli.cjs'), ['--data-dir', dataDir, '--port', '0'], {
  timeoutMs: 300_000,
  env: { ...DATA_HOST_ALLOCATOR_ENV, SATCHEL_MEMORY_SAMPLES: samples, SATCHEL_MEMORY_DATA_DIR: dataDir },
  nodeArgs: ['--require', join(repoRoot, 'test/bench/memorySampler.cjs'), ...DATA_HOST_NODE_FLAGS],
  ...(values.node !== undefined ? { execPath: values.node } : {}),
});
try {
  const client = new SatchelClient(host.url, { timeoutMs: 3_600_000 });
  const files = snippetFiles(generateCorpus(10_000, 7));
  await sleep(20_000);
  const tail = new WalTail(join(dataDir, 'satchel.db-wal'));
  tail.read();
  const frames: Array<{ at: number; pages: number[] }> = [];
  const tailing = values.wal ? setInterval(() => frames.push({ at: Date.now(), pages: tail.read() }), 100) : undefined;
  const began = Date.now();
  const summary = await client.imports.importFiles(files);
  const ended = Date.now();
  console.log(`imported ${summary.imported}, duplicates ${summary.duplicates} in ${((ended - began) / 1000).toFixed(1)} s`);
  await sleep(12_000);
  clearInterval(tailing);
  if (values.wal) walReport(frames, ended);
  let workers = 0;
  let shownAt = -Infinity;
  for (const line of readFileSync(samples, 'utf8').split('\n')) {
    const [at, kind, rest] = line.split(' ');
    const seconds = (Number(at) - began) / 1000;
    if (seconds < -1) continue;
    if (kind === 'threads') {
      const now = (rest ?? '').split(',').filter((name) => name === 'WorkerThread').length;
      if (now !== workers) console.log(`${seconds.toFixed(2)} s: worker threads ${workers} → ${now}`);
      workers = now;
    } else if (kind !== undefined && seconds - shownAt >= 0.5) {
      console.log(`${seconds.toFixed(2)} s: ${line.slice(line.indexOf(' ') + 1)}`);
      shownAt = seconds;
    }
  }
} finally {
  host.process.kill('SIGTERM');
  await sleep(1000);
  rmSync(scratch, { recursive: true, force: true });
}

/** Frames written during the import, then in each second after it, by owner (read while the host still runs). */
function walReport(frames: ReadonlyArray<{ at: number; pages: number[] }>, ended: number): void {
  const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
  const db = new DatabaseSync(join(dataDir, 'satchel.db'), { readOnly: true });
  const owners = pageOwners(db);
  db.close();
  const windows = new Map<number, number[]>();
  for (const { at, pages } of frames) {
    const window = at <= ended ? -1 : Math.floor((at - ended) / 1000);
    const frames = windows.get(window) ?? [];
    for (const page of pages) frames.push(page);
    windows.set(window, frames);
  }
  for (const [window, pages] of [...windows].sort((a, b) => a[0] - b[0])) {
    if (pages.length === 0) continue;
    console.log(`${window < 0 ? 'during the import' : `${window}-${window + 1} s after`}: ${pages.length} frames (${((pages.length * 4096) / 1048576).toFixed(1)} MB): ${ownersReport(pages, owners)}`);
  }
}
