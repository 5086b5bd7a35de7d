/**
 * Fuzzy search over HTTP (GET /assets/search) against in-process baselines on the same corpus:
 * a linear scan and Fuse.js. Latency is over planted + latency queries; quality is the top-3 hit
 * rate of the planted queries.
 */
import type { BenchClient } from '../client.ts';
import type { Corpus } from '../corpus.ts';
import { fuse, linearScan, runEngine, topRank, type EngineRun } from '../baselines.ts';
import { search } from '../satchelApi.ts';
import { latency, medianOfRuns, type Latency } from '../stats.ts';

export interface EngineFigure extends Latency {
  readonly engine: string;
  readonly hits: number;
  readonly planted: number;
  readonly queriesRun: number;
  readonly queriesPlanned: number;
  readonly note?: string;
}

export interface SearchFigure {
  readonly satchel: EngineFigure;
  readonly misses: readonly string[];
  /** The slowest queries of the first run, for explaining a p95. */
  readonly slowest: readonly { readonly query: string; readonly ms: number }[];
  readonly baselines: readonly EngineFigure[];
}

export interface SearchPlan {
  readonly runs: number;
  /** Time after which no further run of Satchel's queries starts, ms. */
  readonly satchelBudgetMs: number;
  /** Per-baseline time budgets, ms. */
  readonly linearBudgetMs: number;
  readonly fuseNameTagsBudgetMs: number;
  readonly fuseFullBudgetMs: number;
}

export async function measureSearch(
  client: BenchClient,
  corpus: Corpus,
  idOf: ReadonlyMap<string, string>,
  queries: readonly string[],
  plan: SearchPlan,
): Promise<SearchFigure> {
  const planted = corpus.queries;
  // Warm-up: the first queries pay for statement preparation and page-cache misses.
  for (const q of queries.slice(0, 5)) await search(client, q);

  const runs: number[][] = [];
  const misses: string[] = [];
  let hits = 0;
  let plantedRun = 0;
  // The budget bounds the whole measurement, so a slow build cannot make the benchmark endless:
  // the first run stops early only when over twice the budget (planted queries come first, so the
  // hit rate is over those that ran); later runs start only while the budget lasts.
  const started = performance.now();
  for (let run = 0; run < plan.runs && (run === 0 || performance.now() - started < plan.satchelBudgetMs); run++) {
    const times: number[] = [];
    for (const query of queries) {
      if (run === 0 && times.length > 0 && performance.now() - started > 2 * plan.satchelBudgetMs) break;
      const reply = await search(client, query);
      times.push(reply.ms);
      const target = run === 0 ? planted.find((p) => p.query === query) : undefined;
      if (target) {
        plantedRun++;
        if (topRank(reply.ids, idOf.get(target.target) ?? '') >= 0) hits++;
        else misses.push(query);
      }
    }
    runs.push(times);
  }
  const firstRun = runs[0]!;
  const slowest = firstRun.map((ms, i) => ({ query: queries[i]!, ms })).sort((a, b) => b.ms - a.ms).slice(0, 3);
  const budgetNotes = [
    firstRun.length < queries.length ? `time budget: ran ${firstRun.length} of ${queries.length} queries` : '',
    runs.length < plan.runs ? `time budget: ${runs.length} of ${plan.runs} runs` : '',
  ].filter(Boolean);
  const satchel: EngineFigure = {
    engine: 'Satchel (HTTP)',
    ...medianOfRuns(runs),
    hits,
    planted: plantedRun,
    queriesRun: firstRun.length,
    queriesPlanned: queries.length,
    ...(budgetNotes.length ? { note: budgetNotes.join('; ') } : {}),
  };

  const targets = new Map(planted.map((p) => [p.query, p.target]));
  const baselines: EngineFigure[] = [];
  const figure = (run: EngineRun, note?: string): EngineFigure => {
    const ran = [...run.ranks.values()];
    return {
      engine: run.engine,
      ...latency(run.latencies),
      hits: ran.filter((r) => r >= 0).length,
      planted: ran.length,
      queriesRun: run.queriesRun,
      queriesPlanned: run.queriesPlanned,
      ...(note || run.budgetHit ? { note: [note, run.budgetHit ? `time budget: ran ${run.queriesRun} of ${run.queriesPlanned} queries` : ''].filter(Boolean).join('; ') } : {}),
    };
  };
  baselines.push(figure(runEngine(linearScan(corpus.assets), queries, targets, plan.linearBudgetMs, plan.runs)));
  baselines.push(figure(runEngine(fuse(corpus.assets, 'name+tags'), queries, targets, plan.fuseNameTagsBudgetMs, plan.runs)));
  // Fuse over code bodies costs seconds per query at 10k+; only the planted queries, within a budget.
  const plantedQueries = planted.map((p) => p.query);
  baselines.push(figure(runEngine(fuse(corpus.assets, 'name+tags+code'), plantedQueries, targets, plan.fuseFullBudgetMs, 1), 'planted queries only'));
  return { satchel, misses, slowest, baselines };
}
