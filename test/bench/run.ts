/**
 * `npm run bench [-- --quick]`: measures Satchel against its baselines in one run, prints a table
 * and writes the same figures to bench/results.json. Full: 1k, 10k and 100k assets; quick: 1k and
 * 10k with fewer repetitions. Every figure with a baseline is measured in the same run as it.
 * Options: --quick, --sizes 1k,10k (any list), --patient (no load-time budget), --only-import (per size
 * only the import figure, plus the create throughput it is compared with), --only-completion (per size
 * only the completion provider's figure), --only-sync (per size only the git sync figures),
 * --only-quality (per size only the search-by-meaning figures, with the built-in sentence encoder or the
 * GGUF file SATCHEL_BENCH_EMBEDDING_MODEL names).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem, platform, arch } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { BenchClient, forEachConcurrent } from './client.ts';
import { generateCorpus, latencyQueries, type Corpus } from './corpus.ts';
import { buildAll, memoryOf, removeDir, repoRoot, startChild, tempDataDir, type Built } from './processes.ts';
import { connect, createAsset, fallbackApplication, seedOf, type Application } from './satchelApi.ts';
import { attempt, type Outcome } from './figures/attempt.ts';
import { measureSearch, type SearchFigure } from './figures/search.ts';
import { measureSuggest, type SuggestFigure } from './figures/suggest.ts';
import { measureFanout, type FanoutFigure } from './figures/fanout.ts';
import { measureStart, measureThroughput, type StartTimes, type Throughput } from './figures/processFigures.ts';
import { measureDownload, type DownloadFigure } from './figures/download.ts';
import { measureSemanticLatency, type SemanticLatencyFigure } from './figures/semantic.ts';
import { measureMeaningQuality, type MeaningQualityFigure } from './figures/meaningQuality.ts';
import { meaningQualityReport } from './figures/meaningQualityReport.ts';
import { printReport } from './report.ts';
import { measureImport, type ImportFigure } from './figures/importFigure.ts';
import { measureCompletion, type CompletionFigure } from './figures/completion.ts';
import { measureHistory, type HistoryFigure } from './figures/history.ts';
import { measureSync, type SyncFigure } from './figures/sync.ts';

export interface Plan {
  readonly quick: boolean;
  readonly sizes: readonly number[];
  readonly runs: number;
  readonly startRuns: number;
  readonly loadConcurrency: number;
  /** A size whose load is projected to take longer is abandoned (its figures unavailable). */
  readonly loadBudgetMs: number;
  readonly latencyQueries: number;
  readonly satchelBudgetMs: number;
  readonly linearBudgetMs: number;
  readonly fuseNameTagsBudgetMs: number;
  readonly fuseFullBudgetMs: number;
  readonly suggestPerKind: number;
  readonly subscribers: number;
  readonly updates: number;
  readonly createRequests: number;
  readonly downloadBytes: number;
  /** Updates timed per kind and run, with revisions and without (in this process, on 1,000 assets). */
  readonly historyUpdates: number;
  /** Updates whose store growth is reported (of one asset, and over 1,000). */
  readonly historyGrowthUpdates: number;
  /** How long loading an embedding model may take (its back-fill, or loading stored vectors). */
  readonly semanticBudgetMs: number;
  /** Only the import figure per size (and the create throughput baseline). */
  readonly onlyImport?: boolean;
  /** Only the completion figure per size. */
  readonly onlyCompletion?: boolean;
  /** Only the sync figures per size. */
  readonly onlySync?: boolean;
  /** Assets whose words the completion figure types, a character at a time. */
  readonly completionSessions: number;
}

const fullPlan: Plan = {
  quick: false,
  sizes: [1_000, 10_000, 100_000],
  runs: 3,
  startRuns: 5,
  loadConcurrency: 8,
  loadBudgetMs: 8 * 60_000,
  latencyQueries: 30,
  satchelBudgetMs: 60_000,
  linearBudgetMs: 20_000,
  fuseNameTagsBudgetMs: 20_000,
  fuseFullBudgetMs: 30_000,
  suggestPerKind: 20,
  subscribers: 100,
  updates: 20,
  createRequests: 2_000,
  downloadBytes: 256 * 1024 * 1024,
  semanticBudgetMs: 10 * 60_000,
  completionSessions: 80,
  historyUpdates: 2_000,
  historyGrowthUpdates: 10_000,
};

const quickPlan: Plan = {
  ...fullPlan,
  quick: true,
  sizes: [1_000, 10_000],
  runs: 2,
  loadBudgetMs: 60_000,
  startRuns: 3,
  latencyQueries: 20,
  satchelBudgetMs: 15_000,
  linearBudgetMs: 5_000,
  fuseNameTagsBudgetMs: 5_000,
  fuseFullBudgetMs: 8_000,
  suggestPerKind: 10,
  updates: 10,
  createRequests: 600,
  downloadBytes: 64 * 1024 * 1024,
  historyUpdates: 300,
  historyGrowthUpdates: 10_000,
};

export interface LoadFigure {
  readonly ms: number;
  readonly perSecond: number;
  readonly concurrency: number;
}

export interface MemoryFigure {
  readonly rssBytes: number;
  readonly peakBytes: number;
  readonly corpusJsonBytes: number;
}

export interface SizeResult {
  readonly size: number;
  readonly corpusJsonBytes: number;
  readonly load: Outcome<LoadFigure>;
  readonly import: Outcome<ImportFigure>;
  readonly completion: Outcome<CompletionFigure>;
  readonly sync: Outcome<SyncFigure>;
  readonly search: Outcome<SearchFigure>;
  readonly suggest: Outcome<SuggestFigure>;
  readonly fanout: Outcome<FanoutFigure>;
  readonly memory: Outcome<MemoryFigure>;
  readonly coldStart: Outcome<StartTimes>;
  readonly bareStart: Outcome<StartTimes>;
  readonly semantic: Outcome<SemanticLatencyFigure>;
  /** Measured at the smallest size only (a real model's back-fill of the larger ones takes minutes); --only-quality measures every size. */
  readonly quality?: Outcome<MeaningQualityFigure>;
}

export interface Results {
  readonly command: string;
  readonly date: string;
  readonly durationMs: number;
  readonly plan: Plan;
  readonly machine: {
    readonly cpus: number;
    readonly cpuModel: string;
    readonly memoryBytes: number;
    readonly node: string;
    readonly platform: string;
    readonly loadAverageBefore: readonly number[];
    readonly loadAverageAfter: readonly number[];
  };
  readonly sizes: readonly SizeResult[];
  readonly create: Outcome<{ readonly satchel: Throughput; readonly bareKoa: Throughput }>;
  readonly download: Outcome<DownloadFigure>;
  readonly history: Outcome<HistoryFigure>;
}

const hostArgs = (dataDir: string): string[] => ['--data-dir', dataDir, '--port', '0'];

async function measureSize(size: number, plan: Plan, built: Built): Promise<SizeResult> {
  console.log(`\n== ${size.toLocaleString('en')} assets`);
  const corpus = generateCorpus(size);
  const notMeasured = (flag: string) => ({ ok: false, reason: `not measured (${flag})` }) as const;
  const only = plan.onlyImport ? '--only-import' : plan.onlyCompletion ? '--only-completion' : plan.onlySync ? '--only-sync' : undefined;
  const imported = only !== undefined && only !== '--only-import'
    ? notMeasured(only)
    : await attempt(`import ${size} snippets through POST /satchel/import, then again (all duplicates)`, () => measureImport(built, corpus, hostArgs));
  const completion = only !== undefined && only !== '--only-completion'
    ? notMeasured(only)
    : await attempt(`completion provider over ${size} imported VS Code snippets`, () => measureCompletion(built, corpus, hostArgs, { runs: plan.runs, sessions: plan.completionSessions }));
  const sync = only !== undefined && only !== '--only-sync'
    ? notMeasured(only)
    : await attempt(`sync of ${size} snippets through git (first sync, joining machine, one change)`, () => measureSync(built, corpus, hostArgs, { runs: plan.runs }));
  if (only !== undefined) {
    const skipped = notMeasured(only);
    return { size, corpusJsonBytes: corpus.jsonBytes, load: skipped, import: imported, completion, sync, search: skipped, suggest: skipped, fanout: skipped, memory: skipped, coldStart: skipped, bareStart: skipped, semantic: skipped };
  }
  const dataDir = tempDataDir();
  const host = await startChild(built.host, hostArgs(dataDir));
  const client = new BenchClient(host.url, Math.max(plan.loadConcurrency, 4));
  const idOf = new Map<string, string>();
  try {
    const application = (await connect(client)) ?? fallbackApplication;
    const load = await attempt(`load ${size} assets through POST /assets/create`, () => loadCorpus(client, corpus, application, plan, idOf));
    const loaded = load.ok;
    const notLoaded = { ok: false, reason: 'the corpus could not be loaded' } as const;
    const queries = [...corpus.queries.map((q) => q.query), ...latencyQueries(plan.latencyQueries)];
    const searchFigure = loaded
      ? await attempt('search (Satchel over HTTP, linear scan, Fuse.js)', () => measureSearch(client, corpus, idOf, queries, plan))
      : notLoaded;
    const suggestFigure = !loaded
      ? notLoaded
      : application === fallbackApplication
        ? { ok: false as const, reason: 'POST /connect is not available (connector area not landed)' }
        : await attempt('suggest', () => measureSuggest(client, application.id, corpus, idOf, { perKind: plan.suggestPerKind, runs: plan.runs, budgetMs: plan.satchelBudgetMs }));
    const fanout = loaded
      ? await attempt(`fan-out to ${plan.subscribers} subscribers`, () => measureFanout(client, [...idOf.values()], { subscribers: plan.subscribers, updates: plan.updates }))
      : notLoaded;
    const memory: Outcome<MemoryFigure> = loaded
      ? { ok: true, value: { ...toMemoryFigure(memoryOf(host.pid)), corpusJsonBytes: corpus.jsonBytes } }
      : notLoaded;
    const semanticPlan = { runs: plan.runs, backfillBudgetMs: plan.semanticBudgetMs };
    const quality = loaded && size === Math.min(...plan.sizes)
      ? await attempt(`search by meaning with a real model (${size} snippets and planted targets in a host of its own)`, () => measureMeaningQuality(built, size, hostArgs, { backfillBudgetMs: plan.semanticBudgetMs, loadConcurrency: plan.loadConcurrency }))
      : undefined;
    const semantic = loaded
      ? await attempt('semantic recall latency (384-d test model, synthetic vectors)', () => measureSemanticLatency(client, host.pid, dataDir, queries, semanticPlan))
      : notLoaded;
    await client.close();
    await host.stop();
    const coldStart = loaded
      ? await attempt(`cold start with ${size} assets ×${plan.startRuns}`, () => measureStart(built.host, () => hostArgs(dataDir), plan.startRuns, `/assets/search?query=${encodeURIComponent(corpus.queries[0]!.query)}&transferables=false`))
      : notLoaded;
    const bareStart = await attempt(`bare Koa start ×${plan.startRuns}`, () => measureStart(built.bareKoa, () => [], plan.startRuns));
    return { size, corpusJsonBytes: corpus.jsonBytes, load, import: imported, completion, sync, search: searchFigure, suggest: suggestFigure, fanout, memory, coldStart, bareStart, semantic, ...(quality ? { quality } : {}) };
  } finally {
    await client.close().catch(() => {});
    await host.stop();
    removeDir(dataDir);
  }
}

function toMemoryFigure(memory: { rss: number; peak: number }): Omit<MemoryFigure, 'corpusJsonBytes'> {
  return { rssBytes: memory.rss, peakBytes: memory.peak };
}

async function loadCorpus(client: BenchClient, corpus: Corpus, application: Application, plan: Plan, idOf: Map<string, string>): Promise<LoadFigure> {
  const started = performance.now();
  let done = 0;
  const progress = setInterval(() => process.stdout.write(`${done} `), 15_000);
  try {
    await forEachConcurrent(corpus.assets, plan.loadConcurrency, async (asset) => {
      idOf.set(asset.key, await createAsset(client, seedOf(asset, application)));
      done++;
      // Past 5% of the corpus, a load that would overrun its budget stops, and says at what rate.
      const elapsed = performance.now() - started;
      const projected = (elapsed / done) * corpus.assets.length;
      if (done >= corpus.assets.length / 20 && projected > plan.loadBudgetMs) {
        throw new Error(`stopped after ${done} assets: at ${(done / (elapsed / 1000)).toFixed(0)} creates/s the load would take ${(projected / 60_000).toFixed(1)} min, over its ${(plan.loadBudgetMs / 60_000).toFixed(1)} min budget (--patient lifts it)`);
      }
    });
  } finally {
    clearInterval(progress);
  }
  const ms = performance.now() - started;
  return { ms, perSecond: corpus.assets.length / (ms / 1000), concurrency: plan.loadConcurrency };
}

async function measureCreate(plan: Plan, built: Built): Promise<{ satchel: Throughput; bareKoa: Throughput }> {
  // The same seeds (a slice of a corpus with its own seed) go to both servers.
  const bodies = generateCorpus(plan.createRequests, 1234).assets.map((a) => seedOf(a, fallbackApplication));
  const options = { runs: plan.runs, concurrency: plan.loadConcurrency, warmup: Math.round(plan.createRequests / 10) };
  const satchel = await measureThroughput(built.host, hostArgs, '/assets/create?transferables=false', bodies, options);
  const bareKoa = await measureThroughput(built.bareKoa, () => [], '/json', bodies, options);
  return { satchel, bareKoa };
}

/** --only-quality: the search-by-meaning figures at every size, printed and written to bench/quality.json. */
async function measureQualityOnly(plan: Plan, built: Built, began: number): Promise<void> {
  const figures: Array<{ size: number; outcome: Outcome<MeaningQualityFigure> }> = [];
  for (const size of plan.sizes) {
    console.log(`\n== ${size.toLocaleString('en')} assets`);
    const outcome = await attempt(`search by meaning (${size} snippets, built-in encoder or ${'$'}SATCHEL_BENCH_EMBEDDING_MODEL)`, () =>
      measureMeaningQuality(built, size, hostArgs, { backfillBudgetMs: plan.semanticBudgetMs * (size / 1000), loadConcurrency: plan.loadConcurrency }),
    );
    figures.push({ size, outcome });
  }
  const table = meaningQualityReport(figures);
  console.log(`\n${table}`);
  const outDir = join(repoRoot, 'bench');
  mkdirSync(outDir, { recursive: true });
  const command = `npm run bench -- ${process.argv.slice(2).join(' ')}`;
  writeFileSync(join(outDir, 'quality.json'), JSON.stringify({ command, date: new Date().toISOString(), loadAverage: loadavg(), figures, table }, null, 2) + '\n');
  console.log(`\nWrote bench/quality.json (${((performance.now() - began) / 1000).toFixed(0)} s in all).`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      sizes: { type: 'string' },
      patient: { type: 'boolean', default: false },
      'only-import': { type: 'boolean', default: false },
      'only-completion': { type: 'boolean', default: false },
      'only-sync': { type: 'boolean', default: false },
      'only-quality': { type: 'boolean', default: false },
    },
  });
  let plan = values.quick ? quickPlan : fullPlan;
  if (values.patient) plan = { ...plan, loadBudgetMs: Number.POSITIVE_INFINITY };
  if (values['only-import']) plan = { ...plan, onlyImport: true };
  if (values['only-completion']) plan = { ...plan, onlyCompletion: true };
  if (values['only-sync']) plan = { ...plan, onlySync: true };
  if (values.sizes) plan = { ...plan, sizes: values.sizes.split(',').map((s) => Number(s.replace(/k$/i, '000'))) };
  const began = performance.now();
  const loadAverageBefore = loadavg();
  console.log(`Satchel benchmark (${plan.quick ? 'quick' : 'full'}): sizes ${plan.sizes.join(', ')}; ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}`);
  console.log('Building dist/cli.cjs (npm run build) and the bare Koa baseline…');
  const built = await buildAll();
  if (values['only-quality']) return measureQualityOnly(plan, built, began);

  const sizes: SizeResult[] = [];
  for (const size of plan.sizes) sizes.push(await measureSize(size, plan, built));
  console.log('\n== process figures');
  const create: Results['create'] = plan.onlyCompletion || plan.onlySync
    ? { ok: false, reason: `not measured (${plan.onlySync ? '--only-sync' : '--only-completion'})` }
    : await attempt(`create throughput (${plan.createRequests} requests ×${plan.runs}, Satchel and bare Koa)`, () => measureCreate(plan, built));
  const history: Outcome<HistoryFigure> = plan.onlyImport || plan.onlyCompletion || plan.onlySync
    ? { ok: false, reason: 'not measured (--only-import, --only-completion or --only-sync)' }
    : await attempt(`revisions: ${plan.historyUpdates} updates with and without them ×${plan.runs}, store growth over ${plan.historyGrowthUpdates} updates`, () =>
        measureHistory({ assets: 1_000, updates: plan.historyUpdates, growthUpdates: plan.historyGrowthUpdates, runs: plan.runs }),
      );
  const download: Outcome<DownloadFigure> = plan.onlyImport || plan.onlyCompletion || plan.onlySync ? { ok: false, reason: 'not measured (--only-import, --only-completion or --only-sync)' } : await attempt(`model download of ${plan.downloadBytes / 2 ** 20} MiB (Satchel and plain undici)`, () => measureDownload(built, plan.downloadBytes, plan.runs));

  const cpu = cpus();
  const results: Results = {
    command: `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
    date: new Date().toISOString(),
    durationMs: performance.now() - began,
    plan,
    machine: {
      cpus: cpu.length,
      cpuModel: cpu[0]?.model ?? 'unknown',
      memoryBytes: totalmem(),
      node: process.version,
      platform: `${platform()} ${arch()}`,
      loadAverageBefore,
      loadAverageAfter: loadavg(),
    },
    sizes,
    create,
    download,
    history,
  };
  const outDir = join(repoRoot, 'bench');
  mkdirSync(outDir, { recursive: true });
  const report = printReport(results);
  writeFileSync(join(outDir, 'results.json'), JSON.stringify({ ...results, table: report }, null, 2) + '\n');
  console.log(`\nWrote bench/results.json (${((performance.now() - began) / 1000).toFixed(0)} s in all).`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
