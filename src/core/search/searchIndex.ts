/**
 * The "fts5-lite" asset search index (storage-search.md, "Recommended design"): a trigram FTS5
 * table over name, tags and the content's distinct identifiers, a word FTS5 table over the
 * content, and an in-memory trigram index over name and tags (titleTrigrams.ts). Queries run in
 * stages, each only while the ones before found too little: substring-AND on name/tags, word-
 * prefix-AND on the content, substring-AND inside identifiers, then for typos trigram-OR on
 * name/tags (typo-free pieces of each term on identifiers if that finds nothing), re-ranked by the
 * share of the query's trigrams a candidate really contains. Within a stage the newest come first.
 * Writes happen inside the caller's transaction.
 */
import type { Database } from '../store/database.ts';
import { trigrams, wordIndexText } from './tokens.ts';
import { INDEXED_NAME_CHARS, INDEXED_TAGS_CHARS, type IndexedDocument } from './indexedDocument.ts';
import { TitleTrigrams } from './titleTrigrams.ts';
import { SegmentMerger } from './segmentMerger.ts';
import type { Disposable } from '../events.ts';

/** `semantic`: found by vector similarity alone (hybridSearch.ts), not by any lexical stage. */
export type SearchStage = 'substring' | 'word' | 'fuzzy' | 'phrase' | 'semantic';

export interface SearchHit {
  readonly rowid: number;
  readonly stage: SearchStage;
  /** 0..1, higher is better; comparable across stages. */
  readonly score: number;
}

export interface SearchScope {
  readonly limit: number;
  readonly includePseudo: boolean;
}

/** Fuzzy candidates sharing fewer of the query's trigrams than this are noise, not typos. */
const MIN_FUZZY_OVERLAP = 0.4;
/** The fuzzy stage runs only when the exact stages found fewer hits than this (i.e. none). */
const FUZZY_BELOW = 1;
/** Trigram-OR candidates re-ranked by their real overlap with the query. */
const FUZZY_CANDIDATES = 200;
const MAX_REMEMBERED_FREQUENCIES = 200_000;
/**
 * Titles read per query when the title index is built: a page parsed is alive while it is indexed,
 * and what survives V8's young collections grows its young generation (to 32 MB at 100k with pages
 * of 5,000; 16–32 MB with 500, the build as fast).
 */
const TITLE_PAGE = 500;
/** Near misses worth showing: past the first few, typo matches are noise that costs time to send. */
const FUZZY_RESULTS = 20;
/** Trigrams of a query weighed for typos: each is looked for in every candidate's name and keywords. */
const MAX_FUZZY_GRAMS = 64;
const quote = (s: string): string => '"' + s.replace(/"/g, '""') + '"';

type Row = {
  rowid: number;
  name: string;
  keywords: string;
};

/** The FTS5 tables of the search index (names, then code), whose segments imports leave unmerged. */
export const SEARCH_FTS_TABLES: readonly string[] = ['asset_nt', 'asset_cd'];

export class SearchIndex {
  private readonly database: Database;

  private readonly titles: TitleTrigrams;
  /** When the two FTS5 tables' segments are merged (imports defer it); only the store's own connection has one. */
  readonly merging: SegmentMerger | undefined;
  private vocabulary = false;
  private readonly frequencies = new Map<string, number>();
  private frequenciesAtSize = 0;

  /** `merging`: false on a second connection (the import process's), whose merges the first one schedules. */
  constructor(database: Database, { merging = true } = {}) {
    this.database = database;
    this.titles = new TitleTrigrams({
      titles: () => this.allTitles(),
    });
    this.merging = merging ? new SegmentMerger(database, SEARCH_FTS_TABLES) : undefined;
  }

  /** For the length of an import: FTS5 segments are merged once afterwards, not as each batch is written. */
  deferMerging(): Disposable {
    return this.merging?.defer() ?? { dispose() {} };
  }

  /**
   * Titles of assets another connection wrote (the import process), read from the store
   * into the in-memory title index.
   */
  adoptTitles(assetIds: readonly string[]): void {
    if (assetIds.length === 0) return;
    const rows = this.database
      .prepare('SELECT l.rowid, l.label FROM assets a JOIN asset_labels l ON l.rowid = a.rowid WHERE a.id IN (SELECT value FROM json_each(?))')
      .all(JSON.stringify(assetIds)) as Array<{ rowid: number; label: string }>;
    for (const { rowid, label } of rows) this.titles.set(rowid, label);
  }

  /**
   * Every title, read a page at a time (from asset_labels, the table's name from before titles
   * were called titles) as one JSON value per page: stepping through 100k rows in
   * node:sqlite cost more than building the index, and one JSON value for all of them left
   * ~100 MB of garbage behind at 100k assets.
   */
  private *allTitles(): Iterable<{ rowid: number; title: string }> {
    const page = this.database.prepare(
      `SELECT json_group_array(json_array(rowid, label)) AS rows, MAX(rowid) AS last
       FROM (SELECT rowid, label FROM asset_labels WHERE rowid > ? ORDER BY rowid LIMIT ${TITLE_PAGE})`,
    );
    for (let after = 0; ; ) {
      const { rows, last } = page.get(after) as { rows: string; last: number | null };
      if (last === null) return;
      for (const [rowid, title] of JSON.parse(rows) as Array<[number, string]>) yield { rowid, title };
      after = last;
    }
  }

  /** How many documents of the word index hold each term (its fts5vocab, in this connection's temp schema). */
  termFrequencies(terms: readonly string[]): Map<string, number> {
    if (!this.vocabulary) {
      this.database.db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.asset_cd_terms USING fts5vocab(main, 'asset_cd', 'row')");
      this.vocabulary = true;
    }
    const statement = this.ftsWritten().prepare('SELECT doc FROM temp.asset_cd_terms WHERE term = ?');
    // A lookup merges the term's postings across segments (~50 µs at 100k assets) and frequencies
    // drift slowly, so they are remembered until the store's size moves by a tenth.
    const size = (this.database.prepare('SELECT MAX(rowid) AS n FROM assets').get() as { n: number | null }).n ?? 0;
    if (this.frequencies.size > MAX_REMEMBERED_FREQUENCIES || Math.abs(size - this.frequenciesAtSize) > this.frequenciesAtSize / 10) {
      this.frequencies.clear();
      this.frequenciesAtSize = size;
    }
    const out = new Map<string, number>();
    for (const term of terms) {
      let df = this.frequencies.get(term);
      if (df === undefined) {
        df = (statement.get(term) as { doc: number } | undefined)?.doc ?? 0;
        this.frequencies.set(term, df);
      }
      if (df > 0) out.set(term, df);
    }
    return out;
  }

  /** Up to `limit` of the newest rowids whose code holds the word `term`. */
  termHolders(term: string, limit: number): number[] {
    const rows = this.ftsWritten()
      .prepare('SELECT rowid FROM asset_cd WHERE asset_cd MATCH ? ORDER BY rowid DESC LIMIT ?')
      .all(quote(term), limit) as Array<{ rowid: number }>;
    return rows.map((row) => row.rowid);
  }

  /** Up to `limit` of the newest rowids whose code holds every word of `terms`. */
  termHoldersOfAll(terms: readonly string[], limit: number): number[] {
    if (terms.length === 0) return [];
    const rows = this.ftsWritten()
      .prepare('SELECT rowid FROM asset_cd WHERE asset_cd MATCH ? ORDER BY rowid DESC LIMIT ?')
      .all(terms.map(quote).join(' AND '), limit) as Array<{ rowid: number }>;
    return rows.map((row) => row.rowid);
  }

  dispose(): void {
    this.merging?.dispose();
    this.titles.dispose();
  }

  /** The title of a rowid as the in-memory title index holds it (lower-cased name and tags). */
  titleOf(rowid: number): string | undefined {
    return this.titles.titleOf(rowid);
  }

  /** Completion candidates from the in-memory title index (see TitleTrigrams.completions), each with its title. */
  completions(typed: string, weigh: (rowid: number) => number, limit: number): Array<{ readonly rowid: number; readonly title: string }> {
    return this.titles.completions(typed, weigh, limit).map((rowid) => ({ rowid, title: this.titles.titleOf(rowid) ?? '' }));
  }

  /** Builds the in-memory title index ahead of the first search (~0.8 s at 100k assets), a slice at a time. */
  warm(): Promise<void> {
    return this.titles.warmGradually();
  }

  /** The `keywords` column value for a document (tags and identifiers, kept for re-ranking). */
  static keywords(document: IndexedDocument): string {
    return `${document.tags.slice(0, INDEXED_TAGS_CHARS)}\n${document.identifiers}`;
  }

  /**
   * Re-indexes a changed document. With `previousCode` equal to the new code (a rename, a tag),
   * the word index of the code is left as it is: a contentless delete and re-insert of a large
   * text writes a tombstone and a new segment for nothing.
   */
  upsert(rowid: number, document: IndexedDocument, previousCode?: string): void {
    this.removeNameTags(rowid);
    this.insertNameTags(rowid, document);
    if (previousCode === document.code) return;
    this.write('DELETE FROM asset_cd WHERE rowid = ?', rowid);
    this.insertCode(rowid, document);
  }

  /** For a rowid not in the index (a new asset): a contentless delete of an absent row still writes a tombstone. */
  insert(rowid: number, document: IndexedDocument): void {
    this.insertNameTags(rowid, document);
    this.insertCode(rowid, document);
  }

  remove(rowid: number): void {
    this.removeNameTags(rowid);
    this.write('DELETE FROM asset_cd WHERE rowid = ?', rowid);
    // After the commit: a rolled-back delete must not lose the title of an asset that stays.
    this.database.onCommit(() => this.titles.delete(rowid));
  }

  private insertNameTags(rowid: number, document: IndexedDocument): void {
    const name = document.name.slice(0, INDEXED_NAME_CHARS);
    const tags = document.tags.slice(0, INDEXED_TAGS_CHARS);
    const title = `${name} ${tags}`;
    this.database.prepare('INSERT INTO asset_labels (rowid, label) VALUES (?, ?)').run(rowid, title);
    this.write('INSERT INTO asset_nt (rowid, name, tags, idents) VALUES (?, ?, ?, ?)', rowid, name, tags, document.identifiers);
    this.titles.set(rowid, title);
  }

  private removeNameTags(rowid: number): void {
    this.database.prepare('DELETE FROM asset_labels WHERE rowid = ?').run(rowid);
    this.write('DELETE FROM asset_nt WHERE rowid = ?', rowid);
  }

  private insertCode(rowid: number, document: IndexedDocument): void {
    this.write('INSERT INTO asset_cd (rowid, code) VALUES (?, ?)', rowid, document.wordText ?? wordIndexText(document.code, document.wordIdentifiers));
  }

  /**
   * A write to an FTS5 table, at the end of the caller's transaction (Database.deferWrite: written
   * among the caller's other writes, each snippet's terms became a segment of their own); what
   * reads these tables runs the deferred writes first (`ftsWritten`).
   */
  private write(sql: string, ...values: Array<string | number>): void {
    const statement = this.database.prepare(sql);
    this.database.deferWrite(() => void statement.run(...values));
  }

  /** The database for a read of the FTS5 tables, once the writes deferred in this transaction have run. */
  private ftsWritten(): Database {
    this.database.deferredWrites();
    return this.database;
  }

  /** Ranked hits for loose terms (already lower-cased), best first. */
  search(terms: readonly string[], scope: SearchScope): SearchHit[] {
    const out = new Map<number, SearchHit>();
    const full = () => out.size >= scope.limit;
    const add = (hit: SearchHit) => {
      if (!out.has(hit.rowid) && !full()) out.set(hit.rowid, hit);
    };

    const long = terms.filter((t) => t.length >= 3);
    if (long.length > 0) {
      // Names and tags holding every term, however old the asset.
      const byTitle = this.visible(this.titles.containing(long, 2 * scope.limit), scope);
      byTitle.forEach((rowid, i) => add({ rowid, stage: 'substring', score: 1 - (0.1 * i) / Math.max(byTitle.length, 1) }));
    }
    const words = terms.map((t) => t.replace(/[^\p{L}\p{N}_]/gu, '')).filter((t) => t.length >= 2);
    if (!full() && words.length > 0) {
      // Words, identifiers and their camelCase parts in the code: whole words, then by prefix (a
      // prefix merges the postings of every word it starts, 10–15 ms for common ones at 100k).
      const exact = this.matchCd(words.map(quote).join(' AND '), scope);
      exact.forEach((row, i) => add({ rowid: row.rowid, stage: 'word', score: 0.85 - (0.05 * i) / Math.max(exact.length, 1) }));
      if (!full()) {
        const rows = this.matchCd(words.map((w) => quote(w) + '*').join(' AND '), scope);
        rows.forEach((row, i) => add({ rowid: row.rowid, stage: 'word', score: 0.8 - (0.05 * i) / Math.max(rows.length, 1) }));
      }
    }
    if (out.size < FUZZY_BELOW && long.length > 0) {
      // Anywhere inside an identifier: a trigram phrase reads every position of its trigrams
      // (20 ms for a long identifier at 100k assets), so only when nothing above matched.
      const rows = this.matchNt(long.map(quote).join(' AND '), scope);
      rows.forEach((row, i) => add({ rowid: row.rowid, stage: 'substring', score: 0.75 - (0.1 * i) / Math.max(rows.length, 1) }));
    }
    const grams = [...new Set(long.flatMap((t) => trigrams(t)))].slice(0, MAX_FUZZY_GRAMS);
    // Typo tolerance is for queries the exact stages could not answer, over a bounded candidate
    // set re-ranked by the share of the query's trigrams each candidate really contains.
    if (out.size < FUZZY_BELOW && grams.length > 0) {
      const candidateScope = { ...scope, limit: FUZZY_CANDIDATES };
      const rerank = (rows: Row[]) =>
        rows
          .map((row) => ({ row, overlap: overlap(grams, `${row.name.slice(0, INDEXED_NAME_CHARS)}\n${row.keywords}`) }))
          .filter((entry) => entry.overlap >= MIN_FUZZY_OVERLAP)
          // Equal shares: the shorter name is the closer match ("fetchJson" before "fetchJsonp").
          .sort((a, b) => b.overlap - a.overlap || a.row.name.length - b.row.name.length);
      // Names and tags first; the identifiers of the code only when no name or tag comes close.
      let ranked = rerank(this.fuzzyTitles(grams, candidateScope));
      if (ranked.length === 0) ranked = rerank(this.fuzzyCandidates(long, candidateScope));
      for (const { row, overlap: share } of ranked.slice(0, FUZZY_RESULTS)) add({ rowid: row.rowid, stage: 'fuzzy', score: 0.5 * share });
    }
    return [...out.values()];
  }

  /** Rows whose name or tags hold enough of the query's trigrams, most shared first. */
  private fuzzyTitles(grams: readonly string[], scope: SearchScope): Row[] {
    const rowids = this.titles.candidates(grams, MIN_FUZZY_OVERLAP, scope.limit);
    if (rowids.length === 0) return [];
    return this.database
      .prepare(
        `SELECT a.rowid AS rowid, a.name AS name, a.keywords AS keywords FROM json_each(?) j
         CROSS JOIN assets a ON a.rowid = j.value
         WHERE a.suggested = 0 AND (a.pseudo = 0 OR ?)`,
      )
      .all(JSON.stringify(rowids), scope.includePseudo ? 1 : 0) as Row[];
  }

  /**
   * Rows that contain, for every term, one typo-free piece of it (see `typoPieces`); if no row has
   * all terms, rows with any. Pieces are long substrings, so each side of the OR is selective: an
   * OR of the terms' trigrams matched most of the corpus and cost 85 ms a query at 10k assets.
   */
  private fuzzyCandidates(terms: readonly string[], scope: SearchScope): Row[] {
    const groups = terms.map((term) => typoPieces(term).map(quote));
    const rows = this.matchNt(groups.map((pieces) => `(${pieces.join(' OR ')})`).join(' AND '), scope);
    if (rows.length > 0 || groups.length === 1) return rows;
    return this.matchNt(groups.flat().join(' OR '), scope);
  }

  /** Candidates that may contain `phrase` (the caller verifies on the real text). */
  phraseCandidates(phrase: string, scope: SearchScope): number[] {
    const found = new Set<number>();
    const trimmed = phrase.trim();
    if (trimmed.length >= 3) for (const row of this.matchNt(quote(trimmed), scope)) found.add(row.rowid);
    const words = trimmed.split(/[^\p{L}\p{N}_]+/u).filter(Boolean);
    if (words.length > 0) for (const row of this.matchCd(quote(words.join(' ')), scope)) found.add(row.rowid);
    return [...found];
  }

  // Matches come newest first. bm25 would read every matching row, and the whole doclist of each
  // term to weigh it: 40–110 ms at 100k assets for terms in a tenth of them. FTS5 walks rowids
  // backwards and stops at the limit; the assets join stays inside that walk (CROSS JOIN).
  private matchNt(match: string, scope: SearchScope): Row[] {
    return this.ftsWritten()
      .prepare(
        `SELECT asset_nt.rowid AS rowid, a.name AS name, a.keywords AS keywords
         FROM asset_nt CROSS JOIN assets a ON a.rowid = asset_nt.rowid
         WHERE asset_nt MATCH ? AND a.suggested = 0 AND (a.pseudo = 0 OR ?)
         ORDER BY asset_nt.rowid DESC LIMIT ?`,
      )
      .all(match, scope.includePseudo ? 1 : 0, scope.limit) as Row[];
  }

  private matchCd(match: string, scope: SearchScope): Array<{ rowid: number }> {
    return this.ftsWritten()
      .prepare(
        `SELECT asset_cd.rowid AS rowid FROM asset_cd CROSS JOIN assets a ON a.rowid = asset_cd.rowid
         WHERE asset_cd MATCH ? AND a.suggested = 0 AND (a.pseudo = 0 OR ?)
         ORDER BY asset_cd.rowid DESC LIMIT ?`,
      )
      .all(match, scope.includePseudo ? 1 : 0, scope.limit) as Array<{ rowid: number }>;
  }

  /** `rowids` in order, without suggested assets (and pseudo ones unless the scope includes them). */
  private visible(rowids: readonly number[], scope: SearchScope): number[] {
    if (rowids.length === 0) return [];
    const rows = this.database
      .prepare(
        `SELECT j.value AS rowid FROM json_each(?) j CROSS JOIN assets a ON a.rowid = j.value
         WHERE a.suggested = 0 AND (a.pseudo = 0 OR ?) ORDER BY j.key`,
      )
      .all(JSON.stringify(rowids), scope.includePseudo ? 1 : 0) as Array<{ rowid: number }>;
    return rows.slice(0, scope.limit).map((row) => row.rowid);
  }
}

/**
 * Substrings of `term` of which at least one survives a typo or two: its halves and its thirds
 * (one edit touches at most two neighbouring pieces). Terms too short to split leave their trigrams.
 */
export function typoPieces(term: string): string[] {
  if (term.length < 6) return trigrams(term);
  const pieces = new Set<string>();
  for (const parts of [2, 3]) {
    const size = Math.ceil(term.length / parts);
    for (let start = 0; start < term.length; start += size) {
      const piece = term.slice(start, start + size);
      if (piece.length >= 3) pieces.add(piece);
    }
  }
  return [...pieces];
}

/** Share of `grams` found in `text` (lower-cased); native substring search beats building trigram sets. */
function overlap(grams: readonly string[], text: string): number {
  if (grams.length === 0) return 0;
  const lower = text.toLowerCase();
  let shared = 0;
  for (const gram of grams) if (lower.includes(gram)) shared++;
  return shared / grams.length;
}
