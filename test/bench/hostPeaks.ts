/**
 * The data host's memory through the heavy phases of the scripted day (issue 34), without VS Code:
 * starts the built host (`dist/cli.cjs`, as a window starts it) on a copy of a filled library and
 * runs, through the client as the extension does, a first sync of the whole library to a new local
 * bare repository, an import of VS Code snippet files (10k by default, as bench:day writes them), a
 * back-fill with the built-in encoder for a bounded time, and 200 edits for the revision compactor.
 * The host's RSS and its children's (the import process, the encoder, git) are read from /proc
 * every 250 ms; after each phase the host rests (`--rest` seconds) and its RSS is read again.
 *
 *   npm run build && ./node_modules/.bin/node --experimental-strip-types --disable-warning=ExperimentalWarning \
 *     test/bench/hostPeaks.ts --library=out/bench-day/library-100000 [--phases=sync,import,backfill,compaction]
 *     [--import-size=10000] [--backfill-seconds=45] [--rest=15] [--scratch=DIR] [--out=FILE] [--host=OTHER/cli.cjs]
 *     [--bare] [--node-arg=--max-semi-space-size=2 …]
 *
 * The library is copied (`cp -r`) into the scratch directory first: the phases change it.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { SatchelClient } from '../../src/client/satchelClient.ts';
import { ENCODER_ID } from '../../src/core/models/catalog.ts';
import { generateCorpus } from './corpus.ts';
import { snippetFiles } from './figures/importFigure.ts';
import { repoRoot, startChild } from './processes.ts';
import { childrenOf, cpuSecondsOf, rssMbOf } from './day/sampler.ts';
import { DATA_HOST_ALLOCATOR_ENV, DATA_HOST_NODE_FLAGS } from '../../src/hosting/hostCommand.ts';

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
}

const figures: PhaseFigure[] = [];
// As a window starts it (hosting/hostCommand.ts), glibc's allocator settings and V8's flags included.
const allocator = values.bare ? {} : DATA_HOST_ALLOCATOR_ENV;
const nodeArgs = [...(values.bare ? [] : DATA_HOST_NODE_FLAGS), ...values['node-arg']];
const host = await startChild(resolve(values.host ?? join(repoRoot, 'dist/cli.cjs')), ['--data-dir', dataDir, '--port', '0'], { timeoutMs: 300_000, env: allocator, nodeArgs });
const client = new SatchelClient(host.url, { timeoutMs: 3_600_000 });
const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));
const rss = (): number => rssMbOf(host.pid) ?? 0;

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
  await sleep(Number(values.rest) * 1000);
  const figure = { phase: name, seconds, hostStartMb, hostPeakMb, hostEndMb, hostRestedMb: rss(), childrenPeakMb, hostCpuS, note };
  figures.push(figure);
  say(`${name}: ${seconds} s, host peak ${hostPeakMb} MB, at the end ${hostEndMb} MB, rested ${figure.hostRestedMb} MB; children ${childrenPeakMb} MB; host CPU ${hostCpuS} s; ${note}`);
}

try {
  await sleep(Number(values.rest) * 1000);
  say(`host ${host.pid} on ${host.url}, ${rss()} MB at rest`);
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
  client.dispose();
  await host.stop();
}

const lines = ['| phase | time | host RSS at start / peak / end / rested | children peak | host CPU | note |', '|---|---:|---|---:|---:|---|'];
for (const f of figures) lines.push(`| ${f.phase} | ${f.seconds} s | ${f.hostStartMb} / **${f.hostPeakMb}** / ${f.hostEndMb} / ${f.hostRestedMb} MB | ${f.childrenPeakMb} MB | ${f.hostCpuS} s | ${f.note} |`);
console.log(lines.join('\n'));
if (values.out !== undefined) {
  mkdirSync(join(values.out, '..'), { recursive: true });
  writeFileSync(values.out, JSON.stringify({ library: values.library, figures }, null, 1));
}
if (values.scratch === undefined) rmSync(scratch, { recursive: true, force: true });
