/**
 * Asset search: by query (word, phrase and fuzzy stages of the search index), by tags, and with
 * the search space and filters of POST /assets/search; results a page at a time.
 */
import type { SearchWithFiltersInput } from './inputs.ts';
import type { AssetsSearchWithFiltersOutput, SearchedAsset, SearchedAssets } from '../piecesTypes.ts';
import { InvalidInputError, SearchUnspecifiedError } from '../errors.ts';
import type { SearchIndex, SearchHit } from '../search/searchIndex.ts';
import { parseQuery } from '../search/query.ts';
import type { SemanticQuery } from '../search/hybridSearch.ts';
import { checkFilters, filterTagValues, filtersReadText, matchesFilters, type FilterSubject } from './filters.ts';
import { CONTENT_FREE_DATA, mapPages, PAGE_BYTES, textOf, type AssetStore } from './assetStore.ts';
import { HEAD_CHARS, type TextHead } from './assetHeads.ts';
import { INDEXED_TAGS_CHARS } from '../search/indexedDocument.ts';
import type { AssetRenderer } from './assetRendering.ts';
import type { Labels } from './labels.ts';
import type { StoredAsset } from './storedAsset.ts';

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

/** How a query's hits are found and read (see `queryPages`). */
interface QueryHow {
  readonly includePseudo: boolean;
  readonly caseSensitive: boolean;
  /** The column read for each hit's document: 'data', or CONTENT_FREE_DATA when the reply needs no content. */
  readonly column: string;
  readonly semantic?: SemanticQuery | undefined;
  /** Word and phrase hits only, no typo-tolerant ones. */
  readonly lexical?: boolean;
}

interface Hit {
  readonly doc: StoredAsset;
  readonly score: number;
  readonly match: SearchedAsset['match'];
  readonly exact: boolean;
}

export class AssetSearch {
  private readonly store: AssetStore;
  private readonly index: SearchIndex;
  private readonly labels: Labels;
  private readonly renderer: AssetRenderer;

  constructor(store: AssetStore, index: SearchIndex, labels: Labels, renderer: AssetRenderer) {
    this.store = store;
    this.index = index;
    this.labels = labels;
    this.renderer = renderer;
  }

  /** GET /assets/search: fuzzy on `query`, tag search on `tags`; both given → AND. */
  search(input: { query?: string; tags?: readonly string[] }, options: SearchOptions): SearchedAssets {
    return collected(this.searchPages(input, options));
  }

  /**
   * GET /assets/search with its results a page at a time (see `searchPagesWithFilters`): tags
   * alone list every asset carrying them, read a page at a time like a listing.
   */
  searchPages(input: { query?: string; tags?: readonly string[] }, options: SearchOptions): SearchedPages {
    const query = input.query?.trim() ?? '';
    const tags = (input.tags ?? []).map((t) => t.trim()).filter(Boolean);
    if (query === '' && tags.length === 0) {
      throw new SearchUnspecifiedError('Give a query or searchable_tags to search assets');
    }
    const column = options.transferables ? 'data' : CONTENT_FREE_DATA;
    // A tag no asset carries (no tag has its text) leaves nothing to find.
    const tagIds = this.labels.tagIds(tags) ?? [];
    if (tagIds.length < tags.length) return this.searchedResults([], () => true, options.transferables);
    if (query === '') {
      const rows = this.store.listing.carrying(tagIds, options.pseudo);
      const pages = mapPages(this.store.storedPages(rows, column), (doc): Hit => ({ doc, score: 1, match: 'TAGS', exact: true }));
      return this.searchedResults(pages, () => true, options.transferables);
    }
    const hitPages = this.queryPages(query, { includePseudo: options.pseudo, caseSensitive: false, column, semantic: options.semantic });
    return this.searchedResults(hitPages, (hit) => this.labels.carries(hit.doc.id, tagIds), options.transferables);
  }

  /** Ids of the ordinary assets carrying every tag of `tags` (in `language`, its original format's, when given), newest first, at most `limit`: no document is read. */
  taggedIds(tags: readonly string[], limit: number, language?: string): string[] {
    const tagIds = this.labels.tagIds(tags.map((t) => t.trim()).filter(Boolean));
    if (!tagIds || tagIds.length === 0) return [];
    const ids: string[] = [];
    if (limit <= 0) return ids;
    // Chunks of the listing about the size wanted: most assets of a common tag carry it.
    for (const row of this.store.listing.carrying(tagIds, false, language, Math.min(1024, Math.max(16, 2 * limit)))) {
      ids.push(row.id);
      if (ids.length >= limit) break;
    }
    return ids;
  }

  /** GET /search/full_text: the word and phrase stages of search only; no fuzzy (typo-tolerant) matches. */
  fullTextSearch(query: string, options: SearchOptions): SearchedAssets {
    return collected(this.fullTextSearchPages(query, options));
  }

  /** GET /search/full_text a page at a time, like GET /assets/search (its documents without content when transferables=false). */
  fullTextSearchPages(query: string, options: SearchOptions): SearchedPages {
    const trimmed = query.trim();
    if (trimmed === '') throw new InvalidInputError('Give a query to search the full text of assets');
    const column = options.transferables ? 'data' : CONTENT_FREE_DATA;
    const hitPages = this.queryPages(trimmed, { includePseudo: options.pseudo, caseSensitive: false, column, lexical: true });
    return this.searchedResults(hitPages, () => true, options.transferables);
  }

  /**
   * GET /search/neural_code: the search GET /assets/search makes with a query, as docs/search.md
   * promises: lexical without an embedding model (words, identifier parts, so "retry backoff"
   * finds `retryWithBackoffProbe`, short keywords such as `const`, typo-tolerant stages), hybrid
   * with one. It ranked by the TF-IDF of related assets before, which drops keywords and missed
   * what the lexical search ranks first.
   */
  codeSearch(query: string, options: SearchOptions): SearchedAssets {
    return collected(this.codeSearchPages(query, options));
  }

  /** GET /search/neural_code a page at a time, like GET /assets/search. */
  codeSearchPages(query: string, options: SearchOptions): SearchedPages {
    if (query.trim() === '') throw new InvalidInputError('Give a query to search code');
    return this.searchPages({ query }, options);
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
    // Filters see an asset's tags only among those they name (an asset may carry 200k).
    const tagIds = this.labels.tagsNamed(filterTagValues(filters));
    const kept = (hit: Hit): boolean =>
      (!spaceIds || spaceIds.has(hit.doc.id)) && (!filters || matchesFilters(this.subject(hit.doc, tagIds), filters, casing));
    // A query's hits (at most SEARCH_LIMIT), or without one every asset, are read a page at a
    // time, and without their content when neither the reply nor a phrase filter needs it.
    const column = options.transferables || filtersReadText(filters) ? 'data' : CONTENT_FREE_DATA;
    const hitPages: Iterable<Hit[]> = query
      ? this.queryPages(query, { includePseudo: options.pseudo, caseSensitive: casing, column, semantic: options.semantic })
      : mapPages(this.store.storedPages(this.store.listing.listed({ pseudo: options.pseudo }), column), (doc) => ({
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

  /** The kept hits of each page as search results, counted into `counts`; an empty page stays, a turn for whoever sends them (`AssetStore.storedPages`). */
  private *searchedPages(
    hitPages: Iterable<Hit[]>,
    kept: (hit: Hit) => boolean,
    transferables: boolean,
    counts: { suggested: number; exact: number },
  ): Generator<SearchedAsset[]> {
    for (const hits of hitPages) {
      const page = this.searchedEntries(hits.filter(kept), transferables);
      for (const entry of page) counts[entry.exact ? 'exact' : 'suggested']++;
      yield page;
    }
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

  /**
   * A query's hits in index order a page at a time, their documents read as `storedPages` reads
   * them (`column` may leave the content out): a query matching several very large assets reads
   * one of them per page instead of all at once, so whoever sends the pages can let health in.
   * `lexical` leaves the typo-tolerant (fuzzy) hits out before any document is read.
   */
  private queryPages(query: string, how: QueryHow): Iterable<Hit[]> {
    const { hits, terms, phrases } = this.queryHits(query, how);
    // A hit deleted meanwhile has no row.
    const rows = this.store.sizes(hits.map((hit) => hit.rowid));
    // The query ran above, before any reply is started; only reading the documents is deferred.
    const byRowid = new Map(hits.map((hit) => [hit.rowid, hit]));
    return mapPages(this.store.storedPages(rows, how.column, 64, PAGE_BYTES, true), ({ rowid, doc }) => {
      const hit = byRowid.get(rowid)!;
      return { doc, score: hit.score, match: matchOf(hit, doc, terms, phrases), exact: hit.stage !== 'fuzzy' && hit.stage !== 'semantic' };
    });
  }

  /** A query's hits, best first (at most SEARCH_LIMIT), found without reading any document. */
  private queryHits(query: string, how: Omit<QueryHow, 'column'>): { hits: SearchHit[]; terms: string[]; phrases: string[] } {
    const { includePseudo, caseSensitive, semantic } = how;
    const { phrases, terms } = parseQuery(query);
    const scope = { limit: SEARCH_LIMIT, includePseudo };
    let hits: SearchHit[] = terms.length > 0 ? this.index.search(terms, scope) : [];
    if (phrases.length > 0) {
      let candidates: number[] | undefined;
      for (const phrase of phrases) {
        const found = new Set(this.index.phraseCandidates(phrase, { limit: 10 * SEARCH_LIMIT, includePseudo }));
        candidates = candidates ? candidates.filter((rowid) => found.has(rowid)) : [...found];
      }
      // Checked on the opening of each text (a large one's head); a whole document only when needed.
      const heads = this.store.heads.of('rowid', candidates ?? [], HEAD_CHARS, includePseudo);
      const verified = new Set(heads.filter((head) => this.containsAll(head, phrases, caseSensitive)).map((head) => head.rowid));
      hits =
        terms.length > 0
          ? hits.filter((hit) => verified.has(hit.rowid))
          : [...verified].slice(0, SEARCH_LIMIT).map((rowid) => ({ rowid, stage: 'phrase' as const, score: 1 }));
    }
    // Phrases are exact constraints a vector cannot check: only plain terms are searched by meaning too.
    if (semantic && phrases.length === 0 && terms.length > 0) hits = semantic.fuse(hits, scope);
    if (how.lexical) hits = hits.filter((hit) => hit.stage !== 'fuzzy');
    return { hits, terms: [...terms], phrases: [...phrases] };
  }

  /**
   * Ids of the best ordinary assets for `query` carrying every tag of `tags`, in `language` (its
   * original format's) when given, at most `limit`: the hits of GET /assets/search, filtered by
   * their links and row, with no document read (what an agent's search needs).
   */
  queryIds(query: string, filter: { tags: readonly string[]; language?: string | undefined; limit: number; semantic?: SemanticQuery | undefined }): string[] {
    const tagIds = this.labels.tagIds(filter.tags);
    if (!tagIds) return [];
    const { hits } = this.queryHits(query, { includePseudo: false, caseSensitive: false, semantic: filter.semantic });
    const ids: string[] = [];
    for (const hit of hits) {
      if (ids.length >= filter.limit) break;
      const row = this.store.facts(hit.rowid);
      if (!row?.ordinary || (filter.language !== undefined && row.language !== filter.language)) continue;
      if (this.labels.carries(row.id, tagIds)) ids.push(row.id);
    }
    return ids;
  }

  /**
   * The best ordinary assets for `query` with their scores, best first, at most `limit`, those
   * `kept` refuses left out: what a ranked recall (ask_pieces_ltm) shows. `exact`: found by its
   * words, not by typo tolerance or meaning alone.
   */
  scoredIds(query: string, filter: { limit: number; semantic?: SemanticQuery | undefined; kept?: (id: string) => boolean }): Array<{ id: string; score: number; exact: boolean }> {
    const { hits } = this.queryHits(query, { includePseudo: false, caseSensitive: false, semantic: filter.semantic });
    const out: Array<{ id: string; score: number; exact: boolean }> = [];
    for (const hit of hits) {
      if (out.length >= filter.limit) break;
      const row = this.store.facts(hit.rowid);
      if (!row?.ordinary || (filter.kept && !filter.kept(row.id))) continue;
      out.push({ id: row.id, score: hit.score, exact: hit.stage !== 'fuzzy' && hit.stage !== 'semantic' });
    }
    return out;
  }

  /**
   * Whether every phrase occurs in the asset's name, text or tags (each lower-cased once, not once
   * per phrase; the tags the index holds). The opening of the text is looked in first; the whole
   * text is read only when a phrase is not found there and the text goes on.
   */
  private containsAll(head: TextHead, phrases: readonly string[], caseSensitive: boolean): boolean {
    const fold = (text: string): string => (caseSensitive ? text : text.toLowerCase());
    const places = [head.name, head.text, ...this.labels.tagTexts(head.id, INDEXED_TAGS_CHARS)].map(fold);
    const missing = phrases.filter((phrase) => !places.some((place) => place.includes(fold(phrase))));
    if (missing.length === 0) return true;
    if (head.chars <= head.text.length) return false;
    const text = fold(this.store.text(head.id) ?? '');
    return missing.every((phrase) => text.includes(fold(phrase)));
  }

  /** What filters see of an asset: of its tags, those among `tagIds` (the ones they name). */
  private subject(doc: StoredAsset, tagIds: readonly string[]): FilterSubject {
    const tags = this.labels.carriedAmong(doc.id, tagIds);
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
