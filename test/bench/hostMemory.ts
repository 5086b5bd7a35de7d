/**
 * The data host's resident memory through the first phases of the VS Code day (docs/performance.md,
 * "A day with 100k snippets"), without VS Code: the built host (`dist/cli.cjs`) on a copy of a
 * library, driven over HTTP through the extension's own client (src/client) as the window drives it:
 *
 * 1. start: the window connects (the connector's `connect`), opens its four identifier streams and
 *    reads the Assets view's group counts;
 * 2. first search (`retry backoff`);
 * 3. completion on every keystroke of the day's 70-character Python line, asked as the provider asks
 *    (completionSource.ts's `typedQuery`: the word before the cursor, two characters or more);
 * 4. 50 copies, each a connector `suggest` as the copy connector sends it;
 * 5. 20 saves (`createFromText`, as *Save Selection as Asset*);
 * 6. 10 s with nothing asked.
 *
 * After each phase it reads the host's /proc: VmRSS, its anonymous and file-backed parts
 * (smaps_rollup), and the highest RSS sampled every 100 ms during the phase.
 *
 *   node --experimental-strip-types test/bench/hostMemory.ts --library DIR [--host dist/cli.cjs]… [--runs N]
 *        [--bare] [--env NAME=VALUE]… [--node-arg ARG]… [--snapshot DIR] [--latency] [--keep]
 *
 * `--library` is copied (cp -r) into a scratch folder for each host's day (several `--host` bundles
 * compare builds in one run, alternating; a day's copies and saves change the library). Each host
 * is given the allocator settings a window starts it with (DATA_HOST_ALLOCATOR_ENV), unless
 * `--bare`; `--env` and `--node-arg` go to every host (MALLOC_ARENA_MAX=4, --max-semi-space-size=1); `--snapshot DIR` writes a heap
 * snapshot of each host into DIR at the end of its day. Prints one table a run and a JSON line
 * (`[[host-memory:…]]`) with every figure. `--latency` then times, on the same host, the bench's
 * search queries, the bench's suggest copies (seed 42, the day's library: timing and decisions, not
 * hit rates, which need the corpus's ids) and the day's completions, 3 runs each (medians of p50/p95).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { SatchelClient } from '../../src/client/satchelClient.ts';
import { DAY_LINE, EverydayWindow, NO_PACE } from './everydayPhases.ts';
import { cpuMsOf, memoryOf, repoRoot, removeDir, startChild, type Child } from './processes.ts';
import { DATA_HOST_ALLOCATOR_ENV } from '../../src/hosting/hostCommand.ts';
import { BenchClient } from './client.ts';
import { generateCorpus, latencyQueries, type Corpus } from './corpus.ts';
import { search } from './satchelApi.ts';
import { measureSuggest } from './figures/suggest.ts';
import { medianOfRuns, type Latency } from './stats.ts';

const LINE = DAY_LINE;
const SETTLE_MS = 10_000;
const SAMPLE_MS = 100;

interface Reading {
  readonly rssMb: number;
  readonly anonMb: number;
  readonly fileMb: number;
}

interface PhaseFigures extends Reading {
  readonly phase: string;
  readonly ms: number;
  readonly peakMb: number;
  readonly note?: string;
}

function read(pid: number): Reading {
  const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(rollup)?.[1] ?? NaN) / 1024;
  const rss = kb('Rss');
  const anon = kb('Anonymous');
  return { rssMb: Math.round(rss), anonMb: Math.round(anon), fileMb: Math.round(rss - anon) };
}

function vmRssMb(pid: number): number {
  return memoryOf(pid).rss / 2 ** 20;
}

async function phase(pid: number, name: string, figures: PhaseFigures[], work: () => Promise<string | void>): Promise<void> {
  let peak = vmRssMb(pid);
  const sampler = setInterval(() => (peak = Math.max(peak, vmRssMb(pid))), SAMPLE_MS);
  const started = performance.now();
  try {
    const note = await work();
    const reading = read(pid);
    peak = Math.max(peak, reading.rssMb);
    figures.push({ phase: name, ms: Math.round(performance.now() - started), peakMb: Math.round(peak), ...reading, ...(note ? { note } : {}) });
  } finally {
    clearInterval(sampler);
  }
}

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

async function day(host: Child): Promise<PhaseFigures[]> {
  const figures: PhaseFigures[] = [];
  const client = new SatchelClient(host.url, { timeoutMs: 120_000 });
  // As fast as the host answers (this bench's figures were taken so; bench:host-peaks paces them as the day does).
  const window = new EverydayWindow(client, NO_PACE);
  try {
    for (const step of window.phases) await phase(host.pid, step.name, figures, step.run);
    await phase(host.pid, 'settle 10 s', figures, () => sleep(SETTLE_MS));
    return figures;
  } finally {
    window.dispose();
    client.dispose();
  }
}

/** Asks the host for a heap snapshot (--heapsnapshot-signal) and waits until it is written whole. */
async function snapshot(host: Child, dir: string): Promise<string> {
  const before = new Set(readdirSync(dir));
  host.process.kill('SIGUSR2');
  for (let waited = 0, last = -1; waited < 300_000; waited += 500) {
    await sleep(500);
    const file = readdirSync(dir).find((name) => name.endsWith('.heapsnapshot') && !before.has(name));
    if (file === undefined) continue;
    const size = statSync(join(dir, file)).size;
    if (size > 0 && size === last) return join(dir, file);
    last = size;
  }
  throw new Error('The host wrote no heap snapshot within 5 minutes');
}

const RUNS = 3;

type Timed = Latency & { readonly cpuMsPerRequest: number; readonly note?: string };

/**
 * Search, suggest and completion latencies over HTTP on a host that has had its day, with the
 * host's CPU time a request (user + system, /proc): unlike a latency, not stretched by waiting for
 * a core on a loaded machine.
 */
async function latencies(host: Child, corpus: Corpus): Promise<Record<string, Timed>> {
  const bench = new BenchClient(host.url, 4);
  const client = new SatchelClient(host.url, { timeoutMs: 120_000 });
  const timed = async <T extends Latency>(work: () => Promise<T>): Promise<T & { cpuMsPerRequest: number }> => {
    const cpu = cpuMsOf(host.pid);
    const figure = await work();
    return { ...figure, cpuMsPerRequest: (cpuMsOf(host.pid) - cpu) / figure.count };
  };
  const runs = async (once: () => Promise<number[]>): Promise<Latency> => {
    const all: number[][] = [];
    for (let run = 0; run < RUNS; run++) all.push(await once());
    return medianOfRuns(all);
  };
  try {
    const queries = [...corpus.queries.map((q) => q.query), ...latencyQueries(30)];
    const searched = await timed(() =>
      runs(async () => {
        const times: number[] = [];
        for (const query of queries) times.push((await search(bench, query)).ms);
        return times;
      }),
    );
    const application = (await client.connector.connect({ name: 'VS_CODE', version: '1.139.1', platform: 'LINUX' })).application.id;
    const suggested = await timed(() => measureSuggest(bench, application, corpus, new Map(), { perKind: 20, runs: RUNS, budgetMs: 120_000 }));
    const completed = await timed(() =>
      runs(async () => {
        const times: number[] = [];
        for (let end = 2; end <= LINE.length; end++) {
          const word = /[\p{L}\p{N}_]*$/u.exec(LINE.slice(0, end))?.[0] ?? '';
          if (word.length < 2) continue;
          const started = performance.now();
          await client.snippets.completions(word, { language: 'python', limit: 30 });
          times.push(performance.now() - started);
        }
        return times;
      }),
    );
    const decisions = Object.entries(suggested.decisions).map(([kind, n]) => `${kind} ${n}`).join(', ');
    return { search: searched, suggest: { ...suggested, note: decisions }, completion: completed };
  } finally {
    client.dispose();
    await bench.close();
  }
}

function table(label: string, figures: readonly PhaseFigures[]): string {
  const rows = figures.map((f) => `| ${f.phase} | ${(f.ms / 1000).toFixed(1)} s | ${f.rssMb} | ${f.peakMb} | ${f.anonMb} / ${f.fileMb} | ${f.note ?? ''} |`);
  return [`${label}`, '| phase | time | RSS MB | peak MB | anon / file MB | note |', '|---|---|---|---|---|---|', ...rows].join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      library: { type: 'string' },
      host: { type: 'string', multiple: true },
      runs: { type: 'string', default: '1' },
      env: { type: 'string', multiple: true },
      'node-arg': { type: 'string', multiple: true },
      snapshot: { type: 'string' },
      bare: { type: 'boolean', default: false },
      latency: { type: 'boolean', default: false },
      keep: { type: 'boolean', default: false },
    },
  });
  if (!values.library) throw new Error('--library DIR (a data directory, e.g. out/bench-day/library-100000) is required');
  const hosts = (values.host ?? [join(repoRoot, 'dist', 'cli.cjs')]).map((host) => resolve(host));
  const env = {
    ...(values.bare ? {} : DATA_HOST_ALLOCATOR_ENV),
    ...Object.fromEntries((values.env ?? []).map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)])),
  };
  const scratch = mkdtempSync(join(tmpdir(), 'satchel-host-memory-'));
  const dataDir = join(scratch, 'library');
  let corpus: Corpus | undefined;
  try {
    for (let run = 0; run < Number(values.runs); run++) {
      for (const script of hosts) {
        removeDir(dataDir);
        execFileSync('cp', ['-r', resolve(values.library), dataDir]);
        const snapshots = values.snapshot === undefined ? [] : ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${resolve(values.snapshot)}`];
        const host = await startChild(script, ['--data-dir', dataDir, '--port', '0'], { env, nodeArgs: [...(values['node-arg'] ?? []), ...snapshots] });
        try {
          const figures = await day(host);
          if (values.snapshot !== undefined) console.log(`heap snapshot: ${await snapshot(host, resolve(values.snapshot))}`);
          console.log(table(`${script} (run ${run + 1}, pid ${host.pid})`, figures));
          const times = values.latency ? await latencies(host, (corpus ??= generateCorpus(100_000, 42))) : undefined;
          for (const [name, figure] of Object.entries(times ?? {})) console.log(`${name}: p50 ${figure.p50.toFixed(2)} ms, p95 ${figure.p95.toFixed(2)} ms, host CPU ${figure.cpuMsPerRequest.toFixed(2)} ms a request (${figure.count} requests)${figure.note ? `; ${figure.note}` : ''}`);
          console.log(`[[host-memory:${JSON.stringify({ host: script, run: run + 1, env, nodeArgs: values['node-arg'] ?? [], figures, latencies: times })}]]`);
        } finally {
          await host.stop();
        }
      }
    }
  } finally {
    if (values.keep) console.log(`kept ${dataDir}`);
    else removeDir(scratch);
  }
}

await main();
