/**
 * "Related" by content without a neural model (models.md §4): TF-IDF over identifier sub-tokens
 * (camelCase and snake_case parts plus the whole identifier), log tf × idf, cosine similarity,
 * terms in more than a few percent of a large corpus dropped, and each query reduced to its 16
 * highest-weighted terms.
 */
import { identifiers, indexedPrefix, subTokens } from './tokens.ts';

export interface RelatedDocument {
  readonly id: string;
  readonly text: string;
}

export interface Similar {
  readonly id: string;
  /** Cosine similarity, 0..1. */
  readonly score: number;
}

const QUERY_TERMS = 16;
/**
 * How much of a text its terms are counted from, for a stored document and for what a request
 * compares against: the opening of a large text says what it is about, and counting a 64 MiB one
 * per request would cost seconds.
 */
export const SIMILARITY_CHARS = 64 * 1024;
/** Document-frequency cut-off: only applied on corpora large enough for it to mean "boilerplate". */
const MAX_DF_SHARE = 0.05;
const MIN_CORPUS_FOR_DF_CUT = 200;

/** Keywords of common languages: shared by all code, so they say nothing about relatedness. */
const KEYWORDS = new Set(
  (
    'function return const let var def fn func if else elif for while do switch case break continue class ' +
    'import from export default new this self true false null nil none undefined async await public private ' +
    'protected static void int string bool boolean float double char long try catch finally throw throws ' +
    'raise except with as in of is not and or pass lambda yield struct enum interface type impl pub mut use ' +
    'package go select where end then begin include namespace using extends implements'
  ).split(' '),
);

/** What a similarity is asked for. */
export interface SimilarOptions {
  readonly exclude?: ReadonlySet<string> | undefined;
  readonly limit?: number | undefined;
  /**
   * 'distinctive' (the default, for related assets, whose query is a whole text): a term held by
   * more than MAX_DF_SHARE of a large corpus is boilerplate and weighs nothing. 'all' (for a
   * person's search): every known term weighs by its rarity, so "retry backoff" still finds
   * `retryWithBackoff` in a store where both words are common (it found nothing).
   */
  readonly terms?: 'distinctive' | 'all' | undefined;
}

/** Term counts: what a text is compared by. */
export type TermCounts = ReadonlyMap<string, number>;

/** Term counts of the first SIMILARITY_CHARS of `text`. */
export function termCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  const bump = (term: string) => counts.set(term, (counts.get(term) ?? 0) + 1);
  for (const identifier of identifiers(indexedPrefix(text, SIMILARITY_CHARS))) {
    const parts = subTokens(identifier).filter((p) => p.length >= 2 && !/^\d+$/.test(p) && !KEYWORDS.has(p));
    for (const part of parts) bump(part);
    if (parts.length > 1) bump(identifier.toLowerCase());
  }
  return counts;
}

/**
 * The summed term counts of several texts, each cut to SIMILARITY_CHARS on its own (cutting their
 * concatenation would let a large first text hide the others), until `budget` characters are counted.
 */
export function combinedTermCounts(texts: Iterable<string>, budget: number): Map<string, number> {
  const counts = new Map<string, number>();
  let counted = 0;
  for (const text of texts) {
    if (counted >= budget) break;
    for (const [term, n] of termCounts(text)) counts.set(term, (counts.get(term) ?? 0) + n);
    counted += Math.min(text.length, SIMILARITY_CHARS);
  }
  return counts;
}

/** The counts of a query given as text or as counts already made. */
function countsOfQuery(query: string | TermCounts): TermCounts {
  return typeof query === 'string' ? termCounts(query) : query;
}

type Vector = Map<string, number>;

function countsOf(corpus: Iterable<RelatedDocument>): Map<string, Map<string, number>> {
  return new Map([...corpus].map((doc) => [doc.id, termCounts(doc.text)]));
}

/**
 * A term's weight across a corpus of `n` documents, `df` of which hold it; undefined for unknown
 * terms, and for boilerplate unless every term is wanted.
 */
function inverseFrequency(df: number, n: number, terms: SimilarOptions['terms'] = 'distinctive'): number | undefined {
  if (df === 0 || (terms === 'distinctive' && n >= MIN_CORPUS_FOR_DF_CUT && df / n > MAX_DF_SHARE)) return undefined;
  return Math.log(1 + n / df);
}

/** log tf × idf over the terms with a weight, the `limit` strongest if given, as a unit vector. */
function weigh(counts: ReadonlyMap<string, number>, idfOf: (term: string) => number | undefined, limit?: number): Vector {
  let entries: Array<[string, number]> = [];
  for (const [term, tf] of counts) {
    const idf = idfOf(term);
    if (idf !== undefined) entries.push([term, (1 + Math.log(tf)) * idf]);
  }
  if (limit !== undefined) entries = entries.sort((a, b) => b[1] - a[1]).slice(0, limit);
  const norm = Math.sqrt(entries.reduce((sum, [, w]) => sum + w * w, 0)) || 1;
  return new Map(entries.map(([term, w]) => [term, w / norm]));
}

function dot(a: Vector, b: Vector): number {
  let sum = 0;
  for (const [term, w] of a) sum += w * (b.get(term) ?? 0);
  return sum;
}

export class TfIdf {
  /** How many documents hold each term, and each document's term counts. */
  private readonly df = new Map<string, number>();
  private readonly counts: ReadonlyMap<string, ReadonlyMap<string, number>>;
  /** Document vectors by which terms weigh (see SimilarOptions.terms), made when first asked for. */
  private readonly vectors = new Map<'distinctive' | 'all', Map<string, Vector>>();
  private readonly size: number;

  /** A corpus of texts, or of their term counts keyed by document id (a cache of `termCounts`). */
  constructor(corpus: Iterable<RelatedDocument> | ReadonlyMap<string, ReadonlyMap<string, number>>) {
    this.counts = corpus instanceof Map ? (corpus as ReadonlyMap<string, ReadonlyMap<string, number>>) : countsOf(corpus as Iterable<RelatedDocument>);
    this.size = this.counts.size;
    for (const c of this.counts.values()) for (const term of c.keys()) this.df.set(term, (this.df.get(term) ?? 0) + 1);
  }

  private idf(term: string, terms: 'distinctive' | 'all'): number | undefined {
    return inverseFrequency(this.df.get(term) ?? 0, this.size, terms);
  }

  private vectorsOf(terms: 'distinctive' | 'all'): Map<string, Vector> {
    let vectors = this.vectors.get(terms);
    if (!vectors) {
      vectors = new Map();
      for (const [id, c] of this.counts) vectors.set(id, weigh(c, (term) => this.idf(term, terms)));
      this.vectors.set(terms, vectors);
    }
    return vectors;
  }

  /** Corpus documents most similar to `query` (a text or its term counts), best first, excluding `exclude` and zero scores. */
  similar(query: string | TermCounts, options: SimilarOptions = {}): Similar[] {
    const terms = options.terms ?? 'distinctive';
    const weighed = weigh(countsOfQuery(query), (term) => this.idf(term, terms), QUERY_TERMS);
    if (weighed.size === 0) return [];
    const out: Similar[] = [];
    for (const [id, vector] of this.vectorsOf(terms)) {
      if (options.exclude?.has(id)) continue;
      const score = dot(weighed, vector);
      if (score > 0) out.push({ id, score });
    }
    out.sort((a, b) => b.score - a.score);
    return options.limit === undefined ? out : out.slice(0, options.limit);
  }

  /** Similarity of two corpus documents (0 when either is unknown). */
  between(a: string, b: string): number {
    const vectors = this.vectorsOf('distinctive');
    const va = vectors.get(a);
    const vb = vectors.get(b);
    return va && vb ? dot(va, vb) : 0;
  }
}

/** What the store's word index can say about terms, for corpora too large to weigh in memory. */
export interface TermIndex {
  /** Documents in the corpus. */
  readonly size: number;
  /** How many documents hold each term (missing: none). */
  frequencies(terms: readonly string[]): Map<string, number>;
  /** Up to `limit` of the newest documents holding `term`. */
  holders(term: string, limit: number): number[];
  /** Up to `limit` of the newest documents holding every one of `terms`. */
  holdersOfAll?(terms: readonly string[], limit: number): number[];
  /** The texts of some documents (those not found, or not shown, are left out). */
  texts(documents: readonly number[]): RelatedDocument[];
  /** `termCounts(document.text)`, from a cache when the index keeps one. */
  counts?(document: RelatedDocument): TermCounts;
}

/** Query terms whose frequency is looked up; the strongest QUERY_TERMS of them are kept. */
const LOOKED_UP_TERMS = 256;
const HOLDERS_PER_TERM = 2000;
const SCORED_CANDIDATES = 500;

/**
 * Documents similar to `query` (a text or its term counts) without weighing the whole corpus:
 * candidates are the documents holding the query's strongest terms (ranked roughly by the weight of the terms they hold), and
 * the best SCORED_CANDIDATES of those are weighed exactly as TfIdf weighs, with the frequencies of
 * their terms looked up in the index.
 */
export function similarByIndex(query: string | TermCounts, index: TermIndex, options: SimilarOptions = {}): Similar[] {
  const n = index.size;
  const counts = new Map([...countsOfQuery(query)].sort((a, b) => b[1] - a[1]).slice(0, LOOKED_UP_TERMS));
  const frequencies = index.frequencies([...counts.keys()]);
  const idfOf = (term: string) => inverseFrequency(frequencies.get(term) ?? 0, n, options.terms);
  const weighed = weigh(counts, idfOf, QUERY_TERMS);
  if (weighed.size === 0) return [];
  const rough = new Map<number, number>();
  for (const [term, w] of weighed) for (const doc of index.holders(term, HOLDERS_PER_TERM)) rough.set(doc, (rough.get(doc) ?? 0) + w);
  // A person's common words have more holders than are looked at: those holding all of them are looked for too.
  if (options.terms === 'all' && weighed.size > 1 && index.holdersOfAll) {
    const all = [...weighed.values()].reduce((sum, w) => sum + w, 0);
    for (const doc of index.holdersOfAll([...weighed.keys()], HOLDERS_PER_TERM)) rough.set(doc, all);
  }
  const shortlisted = [...rough].sort((a, b) => b[1] - a[1]).slice(0, SCORED_CANDIDATES).map(([doc]) => doc);
  const docs = index.texts(shortlisted).filter((doc) => !options.exclude?.has(doc.id));
  const owns = docs.map((doc) => index.counts?.(doc) ?? termCounts(doc.text));
  const unknown = new Set<string>();
  for (const own of owns) for (const term of own.keys()) if (!frequencies.has(term)) unknown.add(term);
  for (const [term, df] of index.frequencies([...unknown])) frequencies.set(term, df);
  const out: Similar[] = [];
  docs.forEach((doc, i) => {
    const score = dot(weighed, weigh(owns[i]!, idfOf));
    if (score > 0) out.push({ id: doc.id, score });
  });
  out.sort((a, b) => b.score - a.score);
  return options.limit === undefined ? out : out.slice(0, options.limit);
}
