/**
 * Content similarity over the ordinary assets, for related and recommended: an exact TF-IDF of
 * every asset in small stores; in large ones (weighing 10k assets took 4.8 s) the word index's
 * frequencies and postings pick candidates and only those are scored. Each asset's term counts
 * are kept until the asset changes, and the exact TF-IDF until any asset does, so a request costs
 * its own text, not a re-tokenisation of the store (50 × 1 MB assets took 17 s a request).
 */
import type { StoreContext } from '../context.ts';
import type { Disposable } from '../events.ts';
import type { SearchIndex } from '../search/searchIndex.ts';
import { TfIdf, similarByIndex, termCounts, type RelatedDocument, type Similar, type TermIndex } from '../search/related.ts';

/** Up to this many ordinary assets, similarity is an exact TF-IDF over all of them. */
export const EXACT_SIMILARITY_MAX = 2000;
/** Term counts remembered (an exact corpus, plus candidates of the index path). */
const REMEMBERED_COUNTS = 2 * EXACT_SIMILARITY_MAX;

export interface Similarity {
  /** Whether every ordinary asset is weighed (a small store). */
  readonly exact: boolean;
  similar(text: string, options?: { exclude?: ReadonlySet<string>; limit?: number }): Similar[];
}

export interface SimilaritySource {
  /** Ids of every ordinary asset. */
  ordinaryIds(): string[];
  /** Texts of the ordinary assets among `keys` (by id or rowid), in that order. */
  texts(column: 'id' | 'rowid', keys: readonly (string | number)[]): RelatedDocument[];
}

export class AssetSimilarity implements Disposable {
  private readonly context: StoreContext;
  private readonly index: SearchIndex;
  private readonly source: SimilaritySource;
  private readonly counts = new Map<string, ReadonlyMap<string, number>>();
  private exactCorpus: TfIdf | undefined;
  private readonly subscription: Disposable;

  constructor(context: StoreContext, index: SearchIndex, source: SimilaritySource) {
    this.context = context;
    this.index = index;
    this.source = source;
    // Change events come after the commit, for every write to an asset (content, flags, deletion).
    this.subscription = context.onDidChange((change) => {
      if (change.kind !== 'asset') return;
      this.counts.delete(change.id);
      this.exactCorpus = undefined;
    });
  }

  /** The similarity of the store as it is now (built on first use, not here). */
  current(): Similarity {
    const size = this.context.database.prepare('SELECT COUNT(*) AS n FROM assets WHERE suggested = 0 AND pseudo = 0').get() as { n: number };
    if (size.n <= EXACT_SIMILARITY_MAX) {
      return { exact: true, similar: (text, options) => this.exact().similar(text, options) };
    }
    const index: TermIndex = {
      size: size.n,
      frequencies: (terms) => this.index.termFrequencies(terms),
      holders: (term, limit) => this.index.termHolders(term, limit),
      texts: (rowids) => this.source.texts('rowid', rowids),
      counts: (document) => this.countsOf(document),
    };
    return { exact: false, similar: (text, options) => similarByIndex(text, index, options) };
  }

  dispose(): void {
    this.subscription.dispose();
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
