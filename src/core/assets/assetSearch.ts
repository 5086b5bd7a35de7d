/**
 * Asset search: by query (word, phrase and fuzzy stages of the search index), by tags, by code
 * similarity, and with the search space and filters of POST /assets/search; results a page at a time.
 */
import type { SearchWithFiltersInput } from './inputs.ts';
import type { AssetsSearchWithFiltersOutput, SearchedAsset, SearchedAssets } from '../wire.ts';
import { InvalidInputError, SearchUnspecifiedError } from '../errors.ts';
import type { SearchIndex, SearchHit } from '../search/searchIndex.ts';
import { parseQuery } from '../search/query.ts';
import type { SemanticQuery } from '../search/hybridSearch.ts';
import { SIMILARITY_CHARS } from '../search/related.ts';
import { indexedPrefix } from '../search/tokens.ts';
import { checkFilters, matchesFilters, type FilterSubject } from './filters.ts';
import { CONTENT_FREE_DATA, mapPages, PAGE_BYTES, textOf, type AssetStore } from './assetStore.ts';
import type { AssetRenderer } from './assetRendering.ts';
import type { AssetSimilarity } from './similarity.ts';
import type { Labels } from './labels.ts';
import type { StoredAsset } from './render.ts';

/** Search results a page at a time, and their counts (complete once every page was read). */
export interface SearchedPages {
  readonly pages: Iterable<SearchedAsset[]>;
  counts(): { suggested: number; exact: number };
}

export interface SearchOptions {
  readonly transferables: boolean;
  readonly pseudo: boolean;
  /** Present while an embedding model is loaded: a query's search is then hybrid (semanticRecall.ts). */
  readonly semantic?: SemanticQuery | undefined;
}

export const SEARCH_LIMIT = 100;

interface Hit {
  readonly doc: StoredAsset;
  readonly score: number;
  readonly match: SearchedAsset['match'];
  readonly exact: boolean;
}

export class AssetSearch {
  private readonly store: AssetStore;
  private readonly index: SearchIndex;
  private readonly similarity: AssetSimilarity;
  private readonly labels: Labels;
  private readonly renderer: AssetRenderer;

  constructor(store: AssetStore, index: SearchIndex, similarity: AssetSimilarity, labels: Labels, renderer: AssetRenderer) {
    this.store = store;
    this.index = index;
    this.similarity = similarity;
    this.labels = labels;
    this.renderer = renderer;
  }

  /** GET /assets/search: fuzzy on `query`, tag search on `tags`; both given → AND. */
  search(input: { query?: string; tags?: readonly string[] }, options: SearchOptions): SearchedAssets {
    return collected(this.searchPages(input, options));
  }

  /** GET /assets/search with its results a page at a time (see `searchPagesWithFilters`). */
  searchPages(input: { query?: string; tags?: readonly string[] }, options: SearchOptions): SearchedPages {
    const query = input.query?.trim() ?? '';
    const tags = (input.tags ?? []).map((t) => t.trim()).filter(Boolean);
    if (query === '' && tags.length === 0) {
      throw new SearchUnspecifiedError('Give a query or searchable_tags to search assets');
    }
    const hitPages: Iterable<Hit[]> = query
      ? this.queryPages(query, options.pseudo, false, options.transferables ? 'data' : CONTENT_FREE_DATA, options.semantic)
      : [this.tagged(tags, options.pseudo)];
    const wanted = tags.map((t) => t.toLowerCase());
    const kept = (hit: Hit): boolean => {
      if (wanted.length === 0) return true;
      const own = new Set(this.labels.tagsOfAsset(hit.doc.id).map((t) => t.text.toLowerCase()));
      return wanted.every((t) => own.has(t));
    };
    return this.searchedResults(hitPages, kept, options.transferables);
  }

  /** GET /search/full_text: the word and phrase stages of search only; no fuzzy (typo-tolerant) matches. */
  fullTextSearch(query: string, options: SearchOptions): SearchedAssets {
    const trimmed = query.trim();
    if (trimmed === '') throw new InvalidInputError('Give a query to search the full text of assets');
    const hits = [...this.queryPages(trimmed, options.pseudo, false, 'data')].flat();
    return this.searched(
      hits.filter((hit) => hit.match !== 'FUZZY'),
      options.transferables,
    );
  }

  /**
   * GET /search/neural_code: assets whose code is closest to the query, ranked by the content
   * similarity `related` uses (TF-IDF over identifier sub-tokens, so `parseJson` meets "parse json").
   * With an embedding model loaded it is fused with vector similarity, as hybrid search is.
   */
  codeSearch(query: string, options: SearchOptions): SearchedAssets {
    if (query.trim() === '') throw new InvalidInputError('Give a query to search code');
    let similar = this.similarity.current().similar(indexedPrefix(query, SIMILARITY_CHARS), { limit: SEARCH_LIMIT });
    if (options.semantic) similar = options.semantic.fuseIds(similar.map((hit) => hit.id), SEARCH_LIMIT);
    const scores = new Map(similar.map((hit) => [hit.id, hit.score]));
    const hits: Hit[] = this.store.ordinaryDocs('id', similar.map((hit) => hit.id)).map((doc) => ({
      doc,
      score: scores.get(doc.id) ?? 0,
      match: 'CONTENT',
      exact: false,
    }));
    return this.searched(hits, options.transferables);
  }

  /** POST /assets/search: query, search space and filters, combined with AND. */
  searchWithFilters(input: SearchWithFiltersInput, options: SearchOptions): AssetsSearchWithFiltersOutput {
    return { results: collected(this.searchPagesWithFilters(input, options)) };
  }

  /**
   * POST /assets/search with its results produced a page at a time (see `AssetService.pages`):
   * without a query every asset is a result, so the reply may hold the whole store. The input is
   * checked and a query run before this returns; `counts` is complete once every page was read.
   */
  searchPagesWithFilters(input: SearchWithFiltersInput, options: SearchOptions): SearchedPages {
    checkFilters(input.filters);
    const query = input.query?.trim() ?? '';
    const casing = input.casing === true;
    const spaceIds = spaceOf(input);
    const filters = input.filters && input.filters.iterable.length > 0 ? input.filters : undefined;
    const kept = (hit: Hit): boolean =>
      (!spaceIds || spaceIds.has(hit.doc.id)) && (!filters || matchesFilters(this.subject(hit.doc), filters, casing));
    // A query's hits (at most SEARCH_LIMIT), or without one every asset, are read a page at a
    // time, and without their content when neither the reply nor a filter needs it.
    const column = options.transferables || filters ? 'data' : CONTENT_FREE_DATA;
    const hitPages: Iterable<Hit[]> = query
      ? this.queryPages(query, options.pseudo, casing, column, options.semantic)
      : mapPages(this.store.storedPages(this.store.listed({ pseudo: options.pseudo }), column), (doc) => ({
          doc,
          score: 1,
          match: 'UNKNOWN' as const,
          exact: false,
        }));
    return this.searchedResults(hitPages, kept, options.transferables);
  }

  /** The kept hits of each page as search results, counted as they are produced. */
  private searchedResults(hitPages: Iterable<Hit[]>, kept: (hit: Hit) => boolean, transferables: boolean): SearchedPages {
    const counts = { suggested: 0, exact: 0 };
    return { pages: this.searchedPages(hitPages, kept, transferables, counts), counts: () => ({ ...counts }) };
  }

  /** The kept hits of each page as search results, counted into `counts`; empty pages are skipped. */
  private *searchedPages(
    hitPages: Iterable<Hit[]>,
    kept: (hit: Hit) => boolean,
    transferables: boolean,
    counts: { suggested: number; exact: number },
  ): Generator<SearchedAsset[]> {
    for (const hits of hitPages) {
      const page = this.searchedEntries(hits.filter(kept), transferables);
      for (const entry of page) counts[entry.exact ? 'exact' : 'suggested']++;
      if (page.length > 0) yield page;
    }
  }

  private searched(hits: Hit[], transferables: boolean): SearchedAssets {
    return collected(this.searchedResults([hits], () => true, transferables));
  }

  private searchedEntries(hits: readonly Hit[], transferables: boolean): SearchedAsset[] {
    const assets = this.renderer.renderAll(hits.map((hit) => hit.doc), transferables);
    return hits.map((hit, i) => {
      const entry: SearchedAsset = {
        exact: hit.exact,
        score: Math.round(hit.score * 1000) / 1000,
        match: hit.match,
        identifier: hit.doc.id,
        asset: assets[i]!,
      };
      if (hit.doc.pseudo) entry.pseudo = true;
      return entry;
    });
  }

  /** Assets carrying every tag, newest first: from the tags' links, not a scan of every asset. */
  private tagged(tags: readonly string[], includePseudo: boolean): Hit[] {
    let ids: string[] | undefined;
    for (const tag of tags) {
      const carrying = new Set(this.labels.assetsTagged(tag));
      ids = ids ? ids.filter((id) => carrying.has(id)) : [...carrying];
      if (ids.length === 0) return [];
    }
    return this.store.docsAmong(ids ?? [], includePseudo).map((doc) => ({ doc, score: 1, match: 'TAGS', exact: true }));
  }

  /**
   * A query's hits in index order a page at a time, their documents read as `storedPages` reads
   * them (`column` may leave the content out): a query matching several very large assets reads
   * one of them per page instead of all at once, so whoever sends the pages can let health in.
   */
  private queryPages(query: string, includePseudo: boolean, caseSensitive: boolean, column: string, semantic?: SemanticQuery): Iterable<Hit[]> {
    const { phrases, terms } = parseQuery(query);
    const scope = { limit: SEARCH_LIMIT, includePseudo };
    let hits: SearchHit[] = terms.length > 0 ? this.index.search(terms, scope) : [];
    if (phrases.length > 0) {
      let candidates: number[] | undefined;
      for (const phrase of phrases) {
        const found = new Set(this.index.phraseCandidates(phrase, { limit: 10 * SEARCH_LIMIT, includePseudo }));
        candidates = candidates ? candidates.filter((rowid) => found.has(rowid)) : [...found];
      }
      const docs = this.store.docsByRowid(candidates ?? []);
      const verified = new Set(
        [...docs].filter(([, doc]) => this.containsAll(doc, phrases, caseSensitive)).map(([rowid]) => rowid),
      );
      hits =
        terms.length > 0
          ? hits.filter((hit) => verified.has(hit.rowid))
          : [...verified].slice(0, SEARCH_LIMIT).map((rowid) => ({ rowid, stage: 'phrase' as const, score: 1 }));
    }
    // Phrases are exact constraints a vector cannot check: only plain terms are searched by meaning too.
    if (semantic && phrases.length === 0 && terms.length > 0) hits = semantic.fuse(hits, scope);
    // A hit deleted meanwhile has no row.
    const rows = this.store.sizes(hits.map((hit) => hit.rowid));
    // The query ran above, before any reply is started; only reading the documents is deferred.
    const byRowid = new Map(hits.map((hit) => [hit.rowid, hit]));
    return mapPages(this.store.storedPages(rows, column, 64, PAGE_BYTES, true), ({ rowid, doc }) => {
      const hit = byRowid.get(rowid)!;
      return { doc, score: hit.score, match: matchOf(hit, doc, terms, phrases), exact: hit.stage !== 'fuzzy' && hit.stage !== 'semantic' };
    });
  }

  /** Whether every phrase occurs in the asset's name, text or tags (each lower-cased once, not once per phrase). */
  private containsAll(doc: StoredAsset, phrases: readonly string[], caseSensitive: boolean): boolean {
    const fold = (text: string): string => (caseSensitive ? text : text.toLowerCase());
    const places = [doc.name ?? '', textOf(doc), ...this.labels.tagsOfAsset(doc.id).map((t) => t.text)].map(fold);
    return phrases.every((phrase) => {
      const wanted = fold(phrase);
      return places.some((place) => place.includes(wanted));
    });
  }

  private subject(doc: StoredAsset): FilterSubject {
    const tags = this.labels.tagsOfAsset(doc.id);
    const websites = this.labels.websitesOfAsset(doc.id);
    return {
      name: doc.name ?? '',
      text: textOf(doc),
      languages: doc.formats.iterable.map((f) => f.classification.specific),
      tags: tags.flatMap((t) => [t.id, t.text]),
      websites: websites.flatMap((w) => [w.id, w.url, w.name]),
      annotations: [],
      created: doc.created.value,
      updated: doc.updated.value,
    };
  }
}

function spaceOf(input: SearchWithFiltersInput): Set<string> | undefined {
  const space = input.space;
  const list = space?.identifers?.iterable ?? space?.identifiers?.iterable;
  return list ? new Set(list.map((ref) => ref.id)) : undefined;
}

function matchOf(hit: SearchHit, doc: StoredAsset, terms: readonly string[], phrases: readonly string[]): SearchedAsset['match'] {
  const name = (doc.name ?? '').toLowerCase();
  if (hit.stage === 'fuzzy') return 'FUZZY';
  if (hit.stage === 'word' || hit.stage === 'semantic') return 'CONTENT';
  if (hit.stage === 'phrase') return phrases.every((p) => name.includes(p.toLowerCase())) ? 'TITLE' : 'CONTENT';
  return terms.every((t) => name.includes(t)) ? 'TITLE' : 'MULTIPLE';
}

/** Search results read whole: every page, then the counts. */
function collected(results: SearchedPages): SearchedAssets {
  const iterable = [...results.pages].flat();
  return { iterable, ...results.counts() };
}
