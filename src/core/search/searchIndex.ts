/**
 * The "fts5-lite" asset search index (storage-search.md, "Recommended design"): a trigram FTS5
 * table over name, tags and the content's distinct identifiers, and a word FTS5 table over the
 * content. Queries run in three stages: substring-AND on name/tags/identifiers, word-prefix-AND
 * on content, then trigram-OR on name/tags/identifiers for typos, re-ranked by the share of the
 * query's trigrams a candidate really contains. Writes happen inside the caller's transaction.
 */
import type { Database } from '../store/database.ts';
import { distinctIdentifiers, trigrams, wordIndexText } from './tokens.ts';

export interface IndexedDocument {
  readonly name: string;
  /** Tag texts, space separated. */
  readonly tags: string;
  /** The asset's searchable text content ('' for binary content). */
  readonly code: string;
}

export type SearchStage = 'substring' | 'word' | 'fuzzy' | 'phrase';

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

const quote = (s: string): string => '"' + s.replace(/"/g, '""') + '"';

interface Row {
  rowid: number;
  name: string;
  keywords: string;
}

export class SearchIndex {
  private readonly database: Database;

  constructor(database: Database) {
    this.database = database;
  }

  /** The `keywords` column value for a document (tags and identifiers, kept for re-ranking). */
  static keywords(document: IndexedDocument): string {
    return `${document.tags}\n${distinctIdentifiers(document.code).join(' ')}`;
  }

  upsert(rowid: number, document: IndexedDocument): void {
    this.remove(rowid);
    this.insert(rowid, document);
  }

  /** For a rowid not in the index (a new asset): a contentless delete of an absent row still writes a tombstone. */
  insert(rowid: number, document: IndexedDocument): void {
    this.database
      .prepare('INSERT INTO asset_nt (rowid, name, tags, idents) VALUES (?, ?, ?, ?)')
      .run(rowid, document.name, document.tags, distinctIdentifiers(document.code).join(' '));
    this.database.prepare('INSERT INTO asset_cd (rowid, code) VALUES (?, ?)').run(rowid, wordIndexText(document.code));
  }

  remove(rowid: number): void {
    this.database.prepare('DELETE FROM asset_nt WHERE rowid = ?').run(rowid);
    this.database.prepare('DELETE FROM asset_cd WHERE rowid = ?').run(rowid);
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
      const rows = this.matchNt(long.map(quote).join(' AND '), scope);
      rows.forEach((row, i) => add({ rowid: row.rowid, stage: 'substring', score: 1 - (0.2 * i) / Math.max(rows.length, 1) }));
    }
    const words = terms.map((t) => t.replace(/[^\p{L}\p{N}_]/gu, '')).filter((t) => t.length >= 2);
    if (!full() && words.length > 0) {
      const rows = this.matchCd(words.map((w) => quote(w) + '*').join(' AND '), scope);
      rows.forEach((row, i) => add({ rowid: row.rowid, stage: 'word', score: 0.75 - (0.2 * i) / Math.max(rows.length, 1) }));
    }
    const grams = [...new Set(long.flatMap((t) => trigrams(t)))];
    // Typo tolerance is for queries the exact stages could not answer, over a bounded candidate
    // set re-ranked by the share of the query's trigrams each candidate really contains.
    if (out.size < FUZZY_BELOW && grams.length > 0) {
      const rows = this.fuzzyCandidates(long, { ...scope, limit: FUZZY_CANDIDATES });
      const ranked = rows
        .map((row) => ({ row, overlap: overlap(grams, `${row.name}\n${row.keywords}`) }))
        .filter((entry) => entry.overlap >= MIN_FUZZY_OVERLAP)
        .sort((a, b) => b.overlap - a.overlap);
      for (const { row, overlap: share } of ranked) add({ rowid: row.rowid, stage: 'fuzzy', score: 0.5 * share });
    }
    return [...out.values()];
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

  // CROSS JOIN keeps the full-text match as the outer loop: with a plain JOIN the planner may scan
  // the assets and run the MATCH once per asset, which is quadratic in practice.
  private matchNt(match: string, scope: SearchScope): Row[] {
    return this.database
      .prepare(
        `SELECT asset_nt.rowid AS rowid, a.name AS name, a.keywords AS keywords
         FROM asset_nt CROSS JOIN assets a ON a.rowid = asset_nt.rowid
         WHERE asset_nt MATCH ? AND a.suggested = 0 AND (a.pseudo = 0 OR ?)
         ORDER BY bm25(asset_nt, 3.0, 2.0, 1.0) LIMIT ?`,
      )
      .all(match, scope.includePseudo ? 1 : 0, scope.limit) as unknown as Row[];
  }

  private matchCd(match: string, scope: SearchScope): Array<{ rowid: number }> {
    return this.database
      .prepare(
        `SELECT asset_cd.rowid AS rowid FROM asset_cd CROSS JOIN assets a ON a.rowid = asset_cd.rowid
         WHERE asset_cd MATCH ? AND a.suggested = 0 AND (a.pseudo = 0 OR ?)
         ORDER BY bm25(asset_cd) LIMIT ?`,
      )
      .all(match, scope.includePseudo ? 1 : 0, scope.limit) as unknown as Array<{ rowid: number }>;
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
