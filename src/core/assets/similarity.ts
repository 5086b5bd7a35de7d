/**
 * Content similarity over the ordinary assets, for related and recommended: an exact TF-IDF of
 * every asset in small stores; in large ones (weighing 10k assets took 4.8 s) the word index's
 * frequencies and postings pick candidates and only those are scored. Each asset's term counts
 * are kept until the asset is rewritten, and the exact TF-IDF until any asset is, so a request
 * costs its own text, not a re-tokenisation of the store (50 × 1 MB assets took 17 s a request).
 * It is told of rewrites as an asset indexer (content, name, flags, tags, deletion), not by every
 * change event: score bumps, activities and linked conversations say nothing of content.
 */
import type { StoreContext } from '../context.ts';
import type { Disposable } from '../events.ts';
import type { AssetIndexer } from './assetIndexers.ts';
import type { SearchIndex } from '../search/searchIndex.ts';
import { TfIdf, similarByIndex, termCounts, type RelatedDocument, type Similar, type SimilarOptions, type TermCounts, type TermIndex } from '../search/related.ts';

/** Up to this many ordinary assets, similarity is an exact TF-IDF over all of them. */
export const EXACT_SIMILARITY_MAX = 2000;
/** Term counts remembered (an exact corpus, plus candidates of the index path). */
const REMEMBERED_COUNTS = 2 * EXACT_SIMILARITY_MAX;

export interface Similarity {
  /** Whether every ordinary asset is weighed (a small store). */
  readonly exact: boolean;
  /** Assets most similar to `query`, a text (its opening counted) or term counts made from one or more. */
  similar(query: string | TermCounts, options?: SimilarOptions): Similar[];
}

export interface SimilaritySource {
  /** Ids of every ordinary asset. */
  ordinaryIds(): string[];
  /** Texts of the ordinary assets among `keys` (by id or rowid), in that order. */
  texts(column: 'id' | 'rowid', keys: readonly (string | number)[]): RelatedDocument[];
}

export class AssetSimilarity implements AssetIndexer, Disposable {
  private readonly context: StoreContext;
  private readonly index: SearchIndex;
  private readonly source: SimilaritySource;
  private readonly counts = new Map<string, ReadonlyMap<string, number>>();
  private exactCorpus: TfIdf | undefined;

  constructor(context: StoreContext, index: SearchIndex, source: SimilaritySource) {
    this.context = context;
    this.index = index;
    this.source = source;
  }

  /**
   * Inside the write's transaction. What is forgotten here is rebuilt from the store on the next
   * request, so a write rolled back afterwards leaves nothing stale (writes are synchronous: no
   * request reads between this and the commit or rollback).
   */
  upsert(assetId: string): void {
    this.forget(assetId);
  }

  remove(assetId: string): void {
    this.forget(assetId);
  }

  written(assetIds: readonly string[]): void {
    for (const id of assetIds) this.forget(id);
  }

  private forget(assetId: string): void {
    this.counts.delete(assetId);
    // A rewrite may also move the asset in or out of the ordinary ones (pseudo).
    this.exactCorpus = undefined;
  }

  /** The similarity of the store as it is now (built on first use, not here). */
  current(): Similarity {
    const size = this.context.database.prepare('SELECT COUNT(*) AS n FROM assets WHERE suggested = 0 AND pseudo = 0').get() as { n: number };
    if (size.n <= EXACT_SIMILARITY_MAX) {
      return { exact: true, similar: (query, options) => this.exact().similar(query, options) };
    }
    const index: TermIndex = {
      size: size.n,
      frequencies: (terms) => this.index.termFrequencies(terms),
      holders: (term, limit) => this.index.termHolders(term, limit),
      holdersOfAll: (terms, limit) => this.index.termHoldersOfAll(terms, limit),
      texts: (rowids) => this.source.texts('rowid', rowids),
      counts: (document) => this.countsOf(document),
    };
    return { exact: false, similar: (query, options) => similarByIndex(query, index, options) };
  }

  dispose(): void {
    this.counts.clear();
    this.exactCorpus = undefined;
  }

  private exact(): TfIdf {
    if (this.exactCorpus) return this.exactCorpus;
    const ids = this.source.ordinaryIds();
    const missing = ids.filter((id) => !this.counts.has(id));
    for (const document of this.source.texts('id', missing)) this.countsOf(document);
    const corpus = new Map<string, ReadonlyMap<string, number>>();
    for (const id of ids) {
      const counts = this.counts.get(id);
      if (counts) corpus.set(id, counts);
    }
    this.exactCorpus = new TfIdf(corpus);
    return this.exactCorpus;
  }

  private countsOf(document: RelatedDocument): ReadonlyMap<string, number> {
    let counts = this.counts.get(document.id);
    if (counts === undefined) {
      if (this.counts.size >= REMEMBERED_COUNTS) this.counts.delete(this.counts.keys().next().value as string);
      counts = termCounts(document.text);
      this.counts.set(document.id, counts);
    }
    return counts;
  }
}
