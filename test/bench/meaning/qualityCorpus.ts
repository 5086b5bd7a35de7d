/**
 * The corpus the search-by-meaning quality figures run on: the bench corpus of a size (its planted
 * lexical targets included) with the meaning targets written over filler assets at seeded,
 * spread-out positions, and every query with the key of the one asset that answers it.
 */
import { generateCorpus, rngFor, type BenchAsset, type Corpus } from '../corpus.ts';
import { paraphrases } from '../paraphrases.ts';
import { compiledTargets } from './compiled.ts';
import { scriptingTargets } from './scripting.ts';
import type { MeaningTarget } from './target.ts';

export const meaningTargets: readonly MeaningTarget[] = [...scriptingTargets, ...compiledTargets];

/** A query with its one right answer. */
export interface ScoredQuery {
  readonly query: string;
  readonly target: string;
}

export interface QualityCorpus {
  readonly corpus: Corpus;
  /** The hand-written paraphrases of planted targets (paraphrases.ts). */
  readonly paraphrases: readonly ScoredQuery[];
  /** The meaning targets' queries (scripting.ts, compiled.ts). */
  readonly meaning: readonly ScoredQuery[];
  /** The corpus's own planted queries (typos, partial names, exact names, intents): lexical search's set. */
  readonly lexical: readonly ScoredQuery[];
}

export function qualityCorpus(size: number, seed = 42): QualityCorpus {
  const base = generateCorpus(size, seed);
  if (size < 4 * (meaningTargets.length + base.queries.length)) throw new Error(`a quality corpus needs at least ${4 * (meaningTargets.length + base.queries.length)} assets`);
  const assets: BenchAsset[] = [...base.assets];
  const rng = rngFor(seed ^ 0x3ea1, size);
  const stride = size / meaningTargets.length;
  const meaning: ScoredQuery[] = [];
  meaningTargets.forEach((target, i) => {
    // The first filler asset at or after a seeded spot in this target's stretch of the corpus.
    let index = Math.floor((i + rng() * 0.5) * stride);
    while (index < size - 1 && !assets[index]!.key.startsWith('a')) index++;
    const key = `m${index}`;
    assets[index] = { key, name: target.name, tags: target.tags, language: target.language, code: target.code };
    meaning.push({ query: target.query, target: key });
  });
  const plantedTarget = (query: string): string => {
    const planted = base.queries.find((q) => q.query === query);
    if (!planted) throw new Error(`no planted query "${query}"`);
    return planted.target;
  };
  let jsonBytes = 0;
  for (const a of assets) jsonBytes += Buffer.byteLength(JSON.stringify(a));
  return {
    corpus: { assets, queries: base.queries, jsonBytes },
    paraphrases: paraphrases.map((p) => ({ query: p.query, target: plantedTarget(p.planted) })),
    meaning,
    lexical: base.queries.map((q) => ({ query: q.query, target: q.target })),
  };
}
