/**
 * The data host's memory through the phases of the scripted day (issue 34), without VS Code: starts
 * the built host (`dist/cli.cjs`, as a window starts it) on a copy of a filled library and runs,
 * through the client as the extension does, the day's everyday phases (everydayPhases.ts: start,
 * first search, completion on each keystroke, 50 copies, 20 saves, paced as the day paces them) and
 * its bulk ones: a first sync of the whole library to a new local bare repository, an import of VS
 * Code snippet files (10k by default, as bench:day writes them), a back-fill with the built-in
 * encoder for a bounded time, and 200 edits for the revision compactor. Phases run in that order,
 * whichever `--phases` names. The host's RSS and its children's (the import process, the encoder,
 * git) are read from /proc every 250 ms; after each phase the host rests (`--rest` seconds) and its
 * RSS is read again. The host rests before the first phase too, unless that is `start` (the day
 * asks at once). `--rest=0` runs the phases back to back as the day does.
 *
 * `--heap` starts the host with its inspector on loopback and reads its `process.memoryUsage()` at
 * the end of each phase, then forces a full collection and reads it again (RSS and heap after GC:
 * what the phase left alive against what V8 had not collected yet). The collection changes what
 * later phases start from, so compare `--heap` runs with `--heap` runs. `--snapshot=DIR` (with
 * `--heap`) also writes a heap snapshot after each phase's collection.
 *
 *   npm run build && ./node_modules/.bin/node --experimental-strip-types --disable-warning=ExperimentalWarning \
 *     test/bench/hostPeaks.ts --library=out/bench-day/library-100000
 *     [--phases=start,search,complete,copies,saves,sync,import,backfill,compaction] (default: the bulk four)
 *     [--import-size=10000] [--backfill-seconds=45] [--rest=15] [--scratch=DIR] [--out=FILE] [--host=OTHER/cli.cjs]
 *     [--bare] [--node-arg=--max-semi-space-size=2 …] [--host-arg=--soft-memory-limit=0 …] [--pace=day|none] [--heap] [--snapshot=DIR] [--node=NODE]
 *
 * The library is copied (`cp -r`) into the scratch directory first: the phases change it.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { SatchelClient } from '../../src/client/satchelClient.ts';
import { ENCODER_ID } from '../../src/core/models/catalog.ts';
import { generateCorpus } from './corpus.ts';
import { snippetFiles } from './figures/importFigure.ts';
import { repoRoot, startChild } from './processes.ts';
import { childrenOf, cpuSecondsOf, rssMbOf } from './day/sampler.ts';
import { DATA_HOST_ALLOCATOR_ENV } from '../../src/hosting/hostCommand.ts';
import { DATA_HOST_NODE_FLAGS } from '../../src/core/hostNodeFlags.ts';
import { DAY_PACE, EverydayWindow, NO_PACE } from './everydayPhases.ts';
import { HostInspector, inspectorUrl, type HeapReading } from './hostInspector.ts';

const { values } = parseArgs({
  options: {
    library: { type: 'string' },
    phases: { type: 'string', default: 'sync,import,backfill,compaction' },
    'import-size': { type: 'string', default: '10000' },
    'backfill-seconds': { type: 'string', default: '45' },
    rest: { type: 'string', default: '15' },
    scratch: { type: 'string' },
    out: { type: 'string' },
    /** Another build's cli.cjs (a "before" figure); its folder must resolve the project's node_modules. */
    host: { type: 'string' },
    /** The host without the allocator settings and V8 flags a window starts it with (DATA_HOST_ALLOCATOR_ENV, DATA_HOST_NODE_FLAGS), as bench:host-memory's --bare. */
    bare: { type: 'boolean', default: false },
    /** A flag for the host's Node (repeatable), after the window's own (V8 takes the last), e.g. --node-arg=--max-semi-space-size=16. */
    'node-arg': { type: 'string', multiple: true, default: [] },
    /** An option for the host itself (repeatable), e.g. --host-arg=--soft-memory-limit=0 for the host without its soft limit. */
    'host-arg': { type: 'string', multiple: true, default: [] },
    /** The everyday phases paced as the day paces them (a keystroke every 50 ms …), or as fast as the host answers. */
    pace: { type: 'string', default: 'day' },
    heap: { type: 'boolean', default: false },
    /** Another Node for the host: a window runs it with the editor's own (code-server's Node 24 in bench:day). */
    node: { type: 'string' },
    /** Prints what the host wrote (its last 20,000 characters) at the end. */
    'host-output': { type: 'boolean', default: false },
    snapshot: { type: 'string' },
  },
});
if (values.library === undefined) throw new Error('usage: hostPeaks.ts --library=<filled data dir> [--phases=…]');
const phases = values.phases.split(',');
const SAMPLE_MS = 250;
const EDITS = 200;

const scratch = values.scratch ?? mkdtempSync(join(tmpdir(), 'host-peaks-'));
mkdirSync(scratch, { recursive: true });
const dataDir = join(scratch, 'data');
rmSync(dataDir, { recursive: true, force: true });
execFileSync('cp', ['-r', resolve(values.library), dataDir]);
for (const stale of ['port.json', 'satchel.lock']) rmSync(join(dataDir, stale), { force: true });
const remote = join(scratch, 'remote.git');
rmSync(remote, { recursive: true, force: true });
execFileSync('git', ['init', '--bare', '--quiet', '--initial-branch=main', remote]);
const say = (line: string): void => console.log(`[host-peaks ${new Date().toISOString().slice(11, 19)}] ${line}`);

/** Every process below `pid` (the import child, the encoder, git and what they start). */
function descendants(pid: number): number[] {
  const out: number[] = [];
  for (const child of childrenOf(pid)) out.push(child, ...descendants(child));
  return out;
}

interface PhaseFigure {
  readonly phase: string;
  readonly seconds: number;
  readonly hostStartMb: number;
  readonly hostPeakMb: number;
  readonly hostEndMb: number;
  readonly hostRestedMb: number;
  readonly childrenPeakMb: number;
  readonly hostCpuS: number;
  readonly note: string;
  /** With --heap: the host's own reading at the phase's end, and after a forced full collection. */
  readonly heap?: HeapReading;
  readonly afterGc?: HeapReading;
}

const figures: PhaseFigure[] = [];
// As a window starts it (hosting/hostCommand.ts), glibc's allocator settings and V8's flags included.
const allocator = values.bare ? {} : DATA_HOST_ALLOCATOR_ENV;
const looking = values.heap || values.snapshot !== undefined;
const nodeArgs = [...(values.bare ? [] : DATA_HOST_NODE_FLAGS), ...values['node-arg'], ...(looking ? ['--inspect=127.0.0.1:0'] : [])];
// The memory sampler (test/bench/memorySampler.cjs, preloaded with --node-arg) reads the WAL's size from the data directory.
const env = { ...allocator, SATCHEL_MEMORY_DATA_DIR: dataDir };
const host = await startChild(resolve(values.host ?? join(repoRoot, 'dist/cli.cjs')), ['--data-dir', dataDir, '--port', '0', ...values['host-arg']], { timeoutMs: 300_000, env, nodeArgs, ...(values.node !== undefined ? { execPath: values.node } : {}) });
const client = new SatchelClient(host.url, { timeoutMs: 3_600_000 });
const inspector = looking ? await HostInspector.connect(inspectorUrl(host.output())) : undefined;
if (values.snapshot !== undefined) mkdirSync(values.snapshot, { recursive: true });
const everyday = new EverydayWindow(client, values.pace === 'none' ? NO_PACE : DAY_PACE);
const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));
const rss = (): number => rssMbOf(host.pid) ?? 0;
/** The host's RSS split into anonymous memory (heaps, caches) and pages mapped from files (the Node binary, libraries). */
function anonymousMb(): string {
  const rollup = readFileSync(`/proc/${host.pid}/smaps_rollup`, 'utf8');
  const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(rollup)?.[1] ?? NaN);
  return `anonymous ${Math.round(kb('Anonymous') / 1024)} MB, from files ${Math.round((kb('Rss') - kb('Anonymous')) / 1024)} MB; threads ${threadNames()}`;
}

/** The host's threads by name (Node's own, libuv's pool, each worker's), counted: a worker is an isolate of its own. */
function threadNames(): string {
  const counts = new Map<string, number>();
  for (const task of readdirSync(`/proc/${host.pid}/task`)) {
    const name = readFileSync(`/proc/${host.pid}/task/${task}/comm`, 'utf8').trim();
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts].map(([name, n]) => (n > 1 ? `${name}×${n}` : name)).join(', ');
}

/** Runs one phase, sampling the host's and its children's RSS; then rests and reads the host again. */
async function phase(name: string, work: () => Promise<string>): Promise<void> {
  const hostStartMb = rss();
  const cpu0 = cpuSecondsOf(host.pid) ?? 0;
  let hostPeakMb = hostStartMb;
  let childrenPeakMb = 0;
  const timer = setInterval(() => {
    hostPeakMb = Math.max(hostPeakMb, rss());
    const children = descendants(host.pid).reduce((sum, pid) => sum + (rssMbOf(pid) ?? 0), 0);
    childrenPeakMb = Math.max(childrenPeakMb, children);
  }, SAMPLE_MS);
  const started = performance.now();
  say(`${name}: start, host ${hostStartMb} MB`);
  let note: string;
  try {
    note = await work();
  } finally {
    clearInterval(timer);
  }
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  const hostEndMb = rss();
  hostPeakMb = Math.max(hostPeakMb, hostEndMb);
  const hostCpuS = Math.round(((cpuSecondsOf(host.pid) ?? 0) - cpu0) * 10) / 10;
  const heap = await inspector?.memory();
  await inspector?.collectGarbage();
  const afterGc = await inspector?.memory();
  if (inspector) say(`${name}: workers ${(await inspector.workers()).join('; ') || 'none'}`);
  if (inspector && values.snapshot !== undefined) await inspector.snapshot(join(values.snapshot, `${figures.length + 1}-${name.replace(/[^\w]+/g, '-')}.heapsnapshot`));
  await sleep(Number(values.rest) * 1000);
  const figure = { phase: name, seconds, hostStartMb, hostPeakMb, hostEndMb, hostRestedMb: rss(), childrenPeakMb, hostCpuS, note, ...(heap && afterGc ? { heap, afterGc } : {}) };
  figures.push(figure);
  const looked = heap && afterGc ? `; heap ${heap.heapUsedMb} MB used, after GC RSS ${afterGc.rssMb} MB, heap ${afterGc.heapUsedMb} MB (total ${afterGc.heapTotalMb}), external ${afterGc.externalMb} MB (array buffers ${afterGc.arrayBuffersMb}); ${anonymousMb()}` : '';
  const walMb = Math.round((statSync(join(dataDir, 'satchel.db-wal'), { throwIfNoEntry: false })?.size ?? 0) / 2 ** 20 * 10) / 10;
  say(`${name}: ${seconds} s, host peak ${hostPeakMb} MB, at the end ${hostEndMb} MB, rested ${figure.hostRestedMb} MB; children ${childrenPeakMb} MB; host CPU ${hostCpuS} s; WAL file ${walMb} MB; ${note}${looked}`);
}

try {
  if (!phases.includes('start')) await sleep(Number(values.rest) * 1000);
  say(`host ${host.pid} on ${host.url}, ${rss()} MB${phases.includes('start') ? '' : ' at rest'}`);
  if (inspector && !phases.includes('start')) {
    const heap = await inspector.memory();
    await inspector.collectGarbage();
    const afterGc = await inspector.memory();
    say(`at rest: heap ${heap.heapUsedMb} MB used, after GC RSS ${afterGc.rssMb} MB, heap ${afterGc.heapUsedMb} MB (total ${afterGc.heapTotalMb}), external ${afterGc.externalMb} MB (array buffers ${afterGc.arrayBuffersMb}); ${anonymousMb()}`);
  }
  for (const day of everyday.phases) if (phases.includes(day.key)) await phase(day.name, day.run);
  if (phases.includes('sync')) {
    await phase('first sync', async () => {
      const summary = await client.sync.run({ remote });
      return `sent ${summary.sent}`;
    });
  }
  if (phases.includes('import')) {
    const files = snippetFiles(generateCorpus(Number(values['import-size']), 7));
    await phase(`${values['import-size']} import`, async () => {
      const summary = await client.imports.importFiles(files);
      return `imported ${summary.imported}, duplicates ${summary.duplicates}, failed ${summary.failed}`;
    });
  }
  if (phases.includes('backfill')) {
    await phase('back-fill (built-in encoder)', async () => {
      await client.models.load(ENCODER_ID);
      const deadline = performance.now() + Number(values['backfill-seconds']) * 1000;
      let status = await client.models.semanticStatus();
      while (status.state === 'indexing' && performance.now() < deadline) {
        await sleep(1000);
        status = await client.models.semanticStatus();
      }
      const stopped = status.state === 'indexing' ? (await client.models.cancelSemanticBackfill()).status : status;
      await client.models.unload(ENCODER_ID);
      return `${stopped.done} of ${stopped.total} embedded, state ${status.state}`;
    });
  }
  if (phases.includes('compaction')) {
    await phase('history compaction', async () => {
      const found = await client.assets.search('parse');
      const ids = found.iterable.map((hit) => hit.identifier).filter((id): id is string => typeof id === 'string');
      let edits = 0;
      for (let i = 0; i < EDITS && ids.length > 0; i++) {
        await client.history.edit(ids[i % ids.length]!, { content: `# edit ${i}\ndef parse_${i}(text):\n    return text.split(',')\n` });
        edits++;
      }
      await sleep(8_000);
      return `${edits} edits over ${Math.min(ids.length, EDITS)} snippets, then 8 s for the compactor`;
    });
  }
} finally {
  everyday.dispose();
  inspector?.close();
  client.dispose();
  await host.stop();
  if (values['host-output']) console.log(host.output());
}

const lines = ['| phase | time | host RSS at start / peak / end / rested | children peak | host CPU | note |', '|---|---:|---|---:|---:|---|'];
for (const f of figures) lines.push(`| ${f.phase} | ${f.seconds} s | ${f.hostStartMb} / **${f.hostPeakMb}** / ${f.hostEndMb} / ${f.hostRestedMb} MB | ${f.childrenPeakMb} MB | ${f.hostCpuS} s | ${f.note} |`);
console.log(lines.join('\n'));
if (figures.some((f) => f.afterGc)) {
  const heapLines = ['| phase | heap used at the end | after a full GC: RSS / heap used / external (array buffers) |', '|---|---:|---|'];
  for (const f of figures) if (f.heap && f.afterGc) heapLines.push(`| ${f.phase} | ${f.heap.heapUsedMb} MB | ${f.afterGc.rssMb} / ${f.afterGc.heapUsedMb} / ${f.afterGc.externalMb} (${f.afterGc.arrayBuffersMb}) MB |`);
  console.log(heapLines.join('\n'));
}
if (values.out !== undefined) {
  mkdirSync(join(values.out, '..'), { recursive: true });
  writeFileSync(values.out, JSON.stringify({ library: values.library, figures }, null, 1));
}
if (values.scratch === undefined) rmSync(scratch, { recursive: true, force: true });
