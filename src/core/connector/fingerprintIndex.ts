/**
 * The connector's near-duplicate index: each asset's winnowed fingerprints (all of them, for exact
 * overlap scores) and an inverted index over a content-defined sample of them, in SQLite tables
 * written inside the asset's own write transaction (an `AssetIndexer` listed in src/core/satchel.ts), so the
 * index never disagrees with the assets after a crash or a rollback.
 *
 * Only the sample is posted because postings land on random pages of a B-tree: posting every
 * fingerprint (and keeping a frequency table) wrote ~400 random pages per asset, which made each
 * create slower as the store grew (5 → 11 ms per create from 500 to 3,000 assets). The sample is
 * every fingerprint ≡ 0 mod SAMPLE_MODULUS plus the document's BOTTOM_K smallest ones: a copy of any
 * part of a document contains its share of the spread-out sample, and a short document still has a
 * few postings. Queries look up all their fingerprints, so they meet whichever ones were posted.
 */
import type { Database } from '../store/database.ts';
import type { AssetIndexer, BatchItem } from '../assets/assetIndexers.ts';
import { fingerprints, sharedCount, similarity, textHash, type FingerprintOptions, defaultFingerprintOptions } from './fingerprint.ts';

export interface IndexMatch {
  readonly assetId: string;
  readonly score: number;
  readonly shared: number;
}

export interface IndexQueryOptions {
  /** Matches scoring below this are left out. */
  readonly minScore: number;
  readonly limit: number;
}

/**
 * Fingerprints in more than this share of documents act as stop words, with the threshold kept
 * between MIN_STOP_DF and MAX_STOP_DF documents: frequencies are counted only up to it, so its
 * ceiling bounds what a boilerplate fingerprint costs a query.
 */
const STOP_SHARE = 0.01;
const MIN_STOP_DF = 50;
const MAX_STOP_DF = 256;
/** At most this many of a query's rarest posted fingerprints look up candidates… */
const CANDIDATE_SEEDS = 48;
/**
 * …and only while their postings add up to this many: past the rarest few, a seed shared by
 * hundreds of snippets brings hundreds of candidates to score (2,000 a query at 100k assets) and
 * no near-duplicate that the rarer seeds missed.
 */
const CANDIDATE_BUDGET = 384;
export const SAMPLE_MODULUS = 8;
export const BOTTOM_K = 8;

/** The fingerprints of a document that go into the inverted index (see the module comment). */
export function postedSample(hashes: Int32Array): Int32Array {
  // `hashes` is sorted ascending, so its first BOTTOM_K are the smallest.
  const posted = new Set<number>();
  for (let i = 0; i < hashes.length; i++) if (i < BOTTOM_K || (hashes[i]! & (SAMPLE_MODULUS - 1)) === 0) posted.add(hashes[i]!);
  return Int32Array.from(posted);
}

/** Postings per INSERT of an import's batch (two parameters each, well under SQLite's limit). */
const POSTINGS_PER_STATEMENT = 100;

interface StoredDoc {
  readonly doc: number;
  readonly hashes: Uint8Array;
  readonly text_hash: string;
}

export class FingerprintIndex implements AssetIndexer {
  private readonly database: Database;
  private readonly options: FingerprintOptions;

  constructor(database: Database, options: FingerprintOptions = defaultFingerprintOptions) {
    this.database = database;
    this.options = options;
  }

  upsert(assetId: string, text: string): void {
    this.database.transaction(() => {
      const identity = textHash(text);
      const known = this.docOf(assetId);
      // Renames, tags and flags leave the text alone: nothing to fingerprint again.
      if (known?.text_hash === identity) return;
      if (known) this.removeDoc(known);
      const hashes = fingerprints(text, this.options);
      // Snippets too small to fingerprint are still recorded, so a rebuild knows they are up to date.
      const doc = Number(
        this.database
          .prepare('INSERT INTO connector_fp_docs (asset_id, text_hash, hashes, count) VALUES (?, ?, ?, ?)')
          .run(assetId, identity, blobOf(hashes), hashes.length)
          .lastInsertRowid,
      );
      if (hashes.length === 0) return;
      // Single-row statements: a multi-row INSERT opens a statement journal, and every statement
      // journal makes FTS5 flush the asset's pending search terms to a segment of their own.
      const insert = this.database.prepare('INSERT OR IGNORE INTO connector_fp_postings (hash, doc) VALUES (?, ?)');
      for (const hash of postedSample(hashes)) insert.run(hash, doc);
    });
  }

  /**
   * A batch of assets (an import): each document as `upsert` writes it, and all their postings
   * inserted in hash order, so the postings B-tree is walked once instead of hit at random pages.
   */
  upsertBatch(items: ReadonlyArray<BatchItem>): void {
    // Fingerprints made ahead (an import's worker) hold for the default options only.
    const ahead = this.options === defaultFingerprintOptions;
    this.database.transaction(() => {
      const postings: Array<[number, number]> = [];
      const insertDoc = this.database.prepare('INSERT INTO connector_fp_docs (asset_id, text_hash, hashes, count) VALUES (?, ?, ?, ?)');
      for (const { id, text, fingerprint } of items) {
        const prepared = ahead ? fingerprint : undefined;
        const identity = prepared?.identity ?? textHash(text);
        const known = this.docOf(id);
        if (known?.text_hash === identity) continue;
        if (known) this.removeDoc(known);
        const hashes = prepared?.hashes ?? fingerprints(text, this.options);
        const doc = Number(insertDoc.run(id, identity, blobOf(hashes), hashes.length).lastInsertRowid);
        for (const hash of postedSample(hashes)) postings.push([hash, doc]);
      }
      postings.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      // Rows a statement at a time: a third of the cost of one statement per row. Every search
      // term of the batch is pending by now, so the statement journal's flush of FTS5's terms
      // (see `upsert`) makes the batch's one segment here instead of at the commit.
      const many = this.database.prepare(`INSERT OR IGNORE INTO connector_fp_postings (hash, doc) VALUES ${'(?, ?), '.repeat(POSTINGS_PER_STATEMENT - 1)}(?, ?)`);
      const full = postings.length - (postings.length % POSTINGS_PER_STATEMENT);
      for (let start = 0; start < full; start += POSTINGS_PER_STATEMENT) many.run(...postings.slice(start, start + POSTINGS_PER_STATEMENT).flat());
      const insert = this.database.prepare('INSERT OR IGNORE INTO connector_fp_postings (hash, doc) VALUES (?, ?)');
      for (const [hash, doc] of postings.slice(full)) insert.run(hash, doc);
    });
  }

  remove(assetId: string): void {
    this.database.transaction(() => {
      const known = this.docOf(assetId);
      if (known) this.removeDoc(known);
    });
  }

  private docOf(assetId: string): StoredDoc | undefined {
    return this.database.prepare('SELECT doc, hashes, text_hash FROM connector_fp_docs WHERE asset_id = ?').get(assetId) as StoredDoc | undefined;
  }

  private removeDoc(row: StoredDoc): void {
    this.database
      .prepare('DELETE FROM connector_fp_postings WHERE doc = ? AND hash IN (SELECT value FROM json_each(?))')
      .run(row.doc, JSON.stringify(Array.from(postedSample(decode(row.hashes)))));
    this.database.prepare('DELETE FROM connector_fp_docs WHERE doc = ?').run(row.doc);
  }

  /**
   * Brings the index in line with `all` (called at every start): only assets whose text changed,
   * or that are new, are fingerprinted again, and entries of assets that are gone are dropped.
   */
  rebuild(all: Iterable<{ readonly id: string; readonly text: string }>, count?: number): void {
    // Index writes share the asset's transaction, so equal counts mean nothing to catch up on.
    if (count !== undefined && count === this.size) return;
    this.database.transaction(() => {
      const rows = this.database.prepare('SELECT asset_id, text_hash FROM connector_fp_docs').all() as Array<{
        asset_id: string;
        text_hash: string;
      }>;
      const stale = new Map(rows.map((row) => [row.asset_id, row.text_hash]));
      for (const { id, text } of all) {
        const known = stale.get(id);
        stale.delete(id);
        if (known !== textHash(text)) this.upsert(id, text);
      }
      for (const id of stale.keys()) this.remove(id);
    });
  }

  get size(): number {
    return (this.database.prepare('SELECT COUNT(*) AS n FROM connector_fp_docs').get() as { n: number }).n;
  }

  /** The highest document number: the size, give or take deletions, in O(log n) rather than a count. */
  private get approximateSize(): number {
    return (this.database.prepare('SELECT MAX(doc) AS n FROM connector_fp_docs').get() as { n: number | null }).n ?? 0;
  }

  /**
   * Whether a saved asset holds exactly `text`: the assets whose fingerprinted text (the first
   * FINGERPRINT_CHARS) hashes the same are found by index, and `textOf` (an asset's whole text) decides.
   */
  hasText(text: string, textOf: (assetId: string) => string | undefined): boolean {
    const rows = this.database.prepare('SELECT asset_id FROM connector_fp_docs WHERE text_hash = ?').all(textHash(text)) as Array<{ asset_id: string }>;
    return rows.some((row) => textOf(row.asset_id) === text);
  }

  has(assetId: string): boolean {
    return this.database.prepare('SELECT 1 FROM connector_fp_docs WHERE asset_id = ?').get(assetId) !== undefined;
  }

  /**
   * Saved snippets resembling the fingerprints `query`, best first. Candidates come from the
   * query's rarest posted fingerprints only (a near-duplicate shares most of them, and rare postings
   * lists are short), then each candidate's overlap is counted exactly from its stored fingerprints;
   * so a query reads at most a few thousand postings however large the store is.
   */
  query(query: Int32Array, options: IndexQueryOptions): IndexMatch[] {
    if (query.length === 0) return [];
    const size = this.approximateSize;
    const stopDf = Math.min(MAX_STOP_DF, Math.max(MIN_STOP_DF, Math.floor(size * STOP_SHARE)));
    const distinct = [...new Set(query)];
    // Frequencies are counted only up to the stop threshold, so a boilerplate fingerprint costs no more than that.
    const frequencies = this.database
      .prepare(
        `SELECT hash, df FROM (
           SELECT q.value AS hash, (SELECT COUNT(*) FROM (SELECT 1 FROM connector_fp_postings p WHERE p.hash = q.value LIMIT ?)) AS df
           FROM json_each(?) q)
         WHERE df > 0`,
      )
      .all(stopDf + 1, JSON.stringify(distinct)) as Array<{ hash: number; df: number }>;
    const stop = new Set(frequencies.filter((row) => row.df > stopDf).map((row) => row.hash));
    const kept = stop.size > 0 ? distinct.filter((hash) => !stop.has(hash)) : distinct;
    if (kept.length === 0) return [];
    const rarest: number[] = [];
    let postings = 0;
    for (const row of frequencies.filter((r) => r.df <= stopDf).sort((a, b) => a.df - b.df)) {
      if (rarest.length === CANDIDATE_SEEDS || (rarest.length > 0 && postings + row.df > CANDIDATE_BUDGET)) break;
      rarest.push(row.hash);
      postings += row.df;
    }
    if (rarest.length === 0) return [];
    const candidates = this.database
      .prepare(
        `SELECT d.asset_id AS assetId, d.count AS total, d.hashes AS hashes FROM connector_fp_docs d
         WHERE d.doc IN (SELECT DISTINCT doc FROM connector_fp_postings WHERE hash IN (SELECT value FROM json_each(?)))`,
      )
      .all(JSON.stringify(rarest)) as Array<{ assetId: string; total: number; hashes: Uint8Array }>;
    // Stored fingerprint sets are sorted and distinct: a merge counts the overlap without a set per candidate.
    const wanted = Int32Array.from(kept).sort();
    const matches: IndexMatch[] = [];
    for (const candidate of candidates) {
      const shared = sharedCount(wanted, decode(candidate.hashes));
      const score = similarity(shared, kept.length, candidate.total);
      if (score >= options.minScore) matches.push({ assetId: candidate.assetId, score, shared });
    }
    matches.sort((a, b) => b.score - a.score || b.shared - a.shared || (a.assetId < b.assetId ? -1 : 1));
    return matches.slice(0, options.limit);
  }
}

/** node:sqlite binds a zero-length view of an empty ArrayBuffer as NULL; a fresh empty array binds as x''. */
function blobOf(hashes: Int32Array): Uint8Array {
  return hashes.length === 0 ? new Uint8Array(0) : new Uint8Array(hashes.buffer, hashes.byteOffset, hashes.byteLength);
}

export function decode(bytes: Uint8Array): Int32Array {
  // Copy: SQLite's buffer is not guaranteed to be 4-byte aligned.
  const copy = new Uint8Array(bytes);
  return new Int32Array(copy.buffer, 0, copy.byteLength >>> 2);
}
