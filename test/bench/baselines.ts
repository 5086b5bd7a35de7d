/**
 * In-process search baselines over the same corpus and fields as Satchel's search: a linear scan
 * (lower-cased substring per term, fields weighted name 3 > tags 2 > code 1, no typo tolerance)
 * and Fuse.js (same weights, ignoreLocation, threshold 0.4), both as in the storage-search study.
 * They run in the benchmark process without HTTP, which flatters them slightly.
 */
import Fuse from 'fuse.js';
import type { BenchAsset } from './corpus.ts';

export interface SearchEngine {
  readonly name: string;
  /** Keys of the best `k` assets, best first. */
  search(query: string, k: number): string[];
}

export function linearScan(assets: readonly BenchAsset[]): SearchEngine {
  const rows = assets.map((a) => ({ key: a.key, name: a.name.toLowerCase(), tags: a.tags.join(' ').toLowerCase(), code: a.code.toLowerCase() }));
  return {
    name: 'linear scan',
    search(query, k) {
      const terms = query.toLowerCase().split(/\s+/).filter(Boolean);
      const scored: Array<{ key: string; score: number }> = [];
      for (const row of rows) {
        let score = 0;
        for (const term of terms) {
          if (row.name.includes(term)) score += 3;
          if (row.tags.includes(term)) score += 2;
          if (row.code.includes(term)) score += 1;
        }
        if (score > 0) scored.push({ key: row.key, score });
      }
      scored.sort((a, b) => b.score - a.score);
      return scored.slice(0, k).map((s) => s.key);
    },
  };
}

export function fuse(assets: readonly BenchAsset[], fields: 'name+tags' | 'name+tags+code'): SearchEngine {
  const keys = [{ name: 'name', weight: 3 }, { name: 'tags', weight: 2 }];
  if (fields === 'name+tags+code') keys.push({ name: 'code', weight: 1 });
  const index = new Fuse([...assets], { keys, ignoreLocation: true, threshold: 0.4 });
  return {
    name: `Fuse.js (${fields})`,
    search: (query, k) => index.search(query, { limit: k }).map((r) => r.item.key),
  };
}

export interface EngineRun {
  readonly engine: string;
  /** One latency per query run, ms. */
  readonly latencies: number[];
  /** Rank (0-based) of each planted query's target, or -1 when not in the top 3; only for queries that ran. */
  readonly ranks: Map<string, number>;
  readonly queriesRun: number;
  readonly queriesPlanned: number;
  readonly budgetHit: boolean;
}

/**
 * Runs every query once (in order) and repeats the list while time is left, stopping early when
 * `budgetMs` is spent. Each latency is one query. Quality comes from the first pass.
 */
export function runEngine(
  engine: SearchEngine,
  queries: readonly string[],
  targets: ReadonlyMap<string, string>,
  budgetMs: number,
  passes: number,
): EngineRun {
  const latencies: number[] = [];
  const ranks = new Map<string, number>();
  const deadline = performance.now() + budgetMs;
  let queriesRun = 0;
  let budgetHit = false;
  outer: for (let pass = 0; pass < passes; pass++) {
    for (const query of queries) {
      if (performance.now() > deadline && latencies.length > 0) {
        budgetHit = pass === 0;
        break outer;
      }
      const started = performance.now();
      const keys = engine.search(query, 10);
      latencies.push(performance.now() - started);
      if (pass === 0) {
        queriesRun++;
        const target = targets.get(query);
        if (target !== undefined) ranks.set(query, topRank(keys, target));
      }
    }
  }
  return { engine: engine.name, latencies, ranks, queriesRun, queriesPlanned: queries.length, budgetHit };
}

export function topRank(keys: readonly string[], target: string): number {
  const rank = keys.indexOf(target);
  return rank >= 0 && rank < 3 ? rank : -1;
}
