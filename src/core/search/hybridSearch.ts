/**
 * Hybrid search: the lexical ranking fused with vector similarity by reciprocal rank fusion
 * (Cormack, Clarke & Büttcher, SIGIR 2009): each asset scores Σ 1 / (K + rank) over the rankings
 * it appears in. RRF looks only at ranks, because the two scores are not on one scale: the
 * lexical score is banded by search stage, and cosine similarity is distributed differently by
 * every embedding model (unrelated texts score about 0.1 with some models and 0.7 with others),
 * so a weighted sum of scores would need calibrating per model. K = 60 is the published default;
 * it keeps one ranking's top result from outweighing an asset both rankings place well.
 *
 * One ranking is weighed less: the typo stage's guesses for a description. A query of three words
 * or more that no exact stage matched says what the code does ("wait until the user stops
 * typing"); the typo stage then offers snippets sharing fragments of its words, weaker evidence
 * than a vector neighbour, so they count half. A query of one or two words is a name or keywords,
 * and its typo guesses are what the user meant (`debonce` → `debounce`): they count in full.
 */
import type { SearchHit, SearchScope } from './searchIndex.ts';

/** An asset the vector ranking found, by rowid, best first. */
export interface SemanticHit {
  readonly rowid: number;
  readonly similarity: number;
}

/** A query ready for hybrid search: it carries the query's vector (made before the search ran). */
export interface SemanticQuery {
  /** The lexical hits fused with this query's nearest assets in `scope`, best first. */
  fuse(lexical: readonly SearchHit[], scope: SearchScope): SearchHit[];
  /** Ordinary assets ranked by another similarity (code search's), fused the same way, best first. */
  fuseIds(ranked: readonly string[], limit: number): Array<{ id: string; score: number }>;
}

const K = 60;
/** Words from which a query whose only lexical hits are typo guesses reads as a description. */
const DESCRIPTION_WORDS = 3;
/** The weight of a description's typo guesses (1: the other hits and the vector neighbours). */
const GUESS_WEIGHT = 0.5;

/** How much the lexical hits of `query` count in the fusion, by stage. */
export function lexicalWeight(query: string): (stage: SearchHit['stage']) => number {
  const words = query.trim().split(/\s+/).filter((word) => word !== '').length;
  return words >= DESCRIPTION_WORDS ? (stage) => (stage === 'fuzzy' ? GUESS_WEIGHT : 1) : () => 1;
}

/**
 * Fuses the two rankings; at most `limit` hits. Ties (equal fused scores) keep the lexical order,
 * then the vector order, so the result is the same for the same inputs. Scores are rescaled to
 * 0..1 in fused order (the wire's score says "higher is better", and clients sort by it).
 * `weight` says how much a lexical hit counts by its stage (`lexicalWeight`); 1 by default.
 */
export function fuseRankings(
  lexical: readonly SearchHit[],
  semantic: readonly SemanticHit[],
  limit: number,
  weight: (stage: SearchHit['stage']) => number = () => 1,
): SearchHit[] {
  const fused = new Map<number, { score: number; lexical: number; semantic: number; stage: SearchHit['stage'] }>();
  lexical.forEach((hit, rank) => {
    if (!fused.has(hit.rowid)) fused.set(hit.rowid, { score: weight(hit.stage) / (K + rank + 1), lexical: rank, semantic: Infinity, stage: hit.stage });
  });
  semantic.forEach((hit, rank) => {
    const entry = fused.get(hit.rowid);
    if (entry) {
      if (entry.semantic !== Infinity) return;
      entry.score += 1 / (K + rank + 1);
      entry.semantic = rank;
    } else fused.set(hit.rowid, { score: 1 / (K + rank + 1), lexical: Infinity, semantic: rank, stage: 'semantic' });
  });
  const best = 2 / (K + 1);
  return [...fused]
    .sort(([, a], [, b]) => b.score - a.score || a.lexical - b.lexical || a.semantic - b.semantic)
    .slice(0, limit)
    .map(([rowid, entry]) => ({ rowid, stage: entry.stage, score: entry.score / best }));
}

/** `fuseRankings` over asset ids: each distinct id stands in for a rowid while fusing. */
export function fuseIdRankings(ranked: readonly string[], semantic: readonly string[], limit: number): Array<{ id: string; score: number }> {
  const ids = [...new Set([...ranked, ...semantic])];
  const key = new Map(ids.map((id, i) => [id, i]));
  const fused = fuseRankings(
    ranked.map((id) => ({ rowid: key.get(id)!, stage: 'word' as const, score: 0 })),
    semantic.map((id) => ({ rowid: key.get(id)!, similarity: 0 })),
    limit,
  );
  return fused.map((hit) => ({ id: ids[hit.rowid]!, score: hit.score }));
}
