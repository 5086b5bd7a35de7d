/**
 * The connector's near-duplicate index: each asset's winnowed fingerprints, an inverted index from
 * fingerprint to documents and each fingerprint's document frequency, all in SQLite tables written
 * inside the asset's own write transaction (it is registered as an `AssetIndexer`), so the index
 * never disagrees with the assets after a crash or a rollback.
 */
import type { Database } from '../store/database.ts';
import type { AssetIndexer } from '../assets/assetService.ts';
import { fingerprints, similarity, type FingerprintOptions, defaultFingerprintOptions } from './fingerprint.ts';

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

/** Fingerprints in more than this share of documents (and more than `MIN_STOP_DF`) act as stop words. */
const STOP_SHARE = 0.01;
const MIN_STOP_DF = 50;
/** How many of a query's rarest fingerprints look up candidates. */
const CANDIDATE_SEEDS = 48;

export class FingerprintIndex implements AssetIndexer {
  private readonly database: Database;
  private readonly options: FingerprintOptions;

  constructor(database: Database, options: FingerprintOptions = defaultFingerprintOptions) {
    this.database = database;
    this.options = options;
  }

  upsert(assetId: string, text: string): void {
    this.database.transaction(() => {
      this.remove(assetId);
      const hashes = fingerprints(text, this.options);
      // Snippets too small to fingerprint are still recorded, so a rebuild knows they are up to date.
      const doc = Number(
        this.database
          .prepare('INSERT INTO connector_fp_docs (asset_id, text_hash, hashes, count) VALUES (?, ?, ?, ?)')
          .run(assetId, textHash(text), blobOf(hashes), hashes.length)
          .lastInsertRowid,
      );
      if (hashes.length === 0) return;
      // One statement per table (not one per fingerprint): bulk rebuilds are dominated by round trips.
      const list = JSON.stringify(Array.from(hashes));
      this.database
        .prepare('INSERT INTO connector_fp_postings (hash, doc) SELECT value, ? FROM json_each(?)')
        .run(doc, list);
      this.database
        .prepare(
          `INSERT INTO connector_fp_df (hash, df) SELECT value, 1 FROM json_each(?) WHERE true
           ON CONFLICT (hash) DO UPDATE SET df = df + 1`,
        )
        .run(list);
    });
  }

  remove(assetId: string): void {
    this.database.transaction(() => {
      const row = this.database.prepare('SELECT doc, hashes FROM connector_fp_docs WHERE asset_id = ?').get(assetId) as
        | { doc: number; hashes: Uint8Array }
        | undefined;
      if (!row) return;
      const list = JSON.stringify(Array.from(decode(row.hashes)));
      this.database
        .prepare('DELETE FROM connector_fp_postings WHERE doc = ? AND hash IN (SELECT value FROM json_each(?))')
        .run(row.doc, list);
      this.database.prepare('UPDATE connector_fp_df SET df = df - 1 WHERE hash IN (SELECT value FROM json_each(?))').run(list);
      this.database
        .prepare('DELETE FROM connector_fp_df WHERE df <= 0 AND hash IN (SELECT value FROM json_each(?))')
        .run(list);
      this.database.prepare('DELETE FROM connector_fp_docs WHERE doc = ?').run(row.doc);
    });
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

  has(assetId: string): boolean {
    return this.database.prepare('SELECT 1 FROM connector_fp_docs WHERE asset_id = ?').get(assetId) !== undefined;
  }

  /**
   * Saved snippets resembling the fingerprints `query`, best first. Candidates come from the
   * query's rarest fingerprints only (a near-duplicate shares most of them, and rare postings lists
   * are short), then each candidate's overlap is counted exactly from its stored fingerprints; so a
   * query reads a few hundred postings however large the store is.
   */
  query(query: Int32Array, options: IndexQueryOptions): IndexMatch[] {
    if (query.length === 0) return [];
    const stopDf = Math.max(MIN_STOP_DF, Math.floor(this.approximateSize * STOP_SHARE));
    const distinct = [...new Set(query)];
    const frequencies = this.database
      .prepare('SELECT hash, df FROM connector_fp_df WHERE hash IN (SELECT value FROM json_each(?))')
      .all(JSON.stringify(distinct)) as Array<{ hash: number; df: number }>;
    const stop = new Set(frequencies.filter((row) => row.df > stopDf).map((row) => row.hash));
    const kept = stop.size > 0 ? distinct.filter((hash) => !stop.has(hash)) : distinct;
    if (kept.length === 0) return [];
    const rarest = frequencies
      .filter((row) => row.df <= stopDf)
      .sort((a, b) => a.df - b.df)
      .slice(0, CANDIDATE_SEEDS)
      .map((row) => row.hash);
    if (rarest.length === 0) return [];
    const candidates = this.database
      .prepare(
        `SELECT d.asset_id AS assetId, d.count AS total, d.hashes AS hashes FROM connector_fp_docs d
         WHERE d.doc IN (SELECT DISTINCT doc FROM connector_fp_postings WHERE hash IN (SELECT value FROM json_each(?)))`,
      )
      .all(JSON.stringify(rarest)) as Array<{ assetId: string; total: number; hashes: Uint8Array }>;
    const wanted = new Set(kept);
    const matches: IndexMatch[] = [];
    for (const candidate of candidates) {
      let shared = 0;
      for (const hash of new Set(decode(candidate.hashes))) if (wanted.has(hash)) shared++;
      const score = similarity(shared, kept.length, candidate.total);
      if (score >= options.minScore) matches.push({ assetId: candidate.assetId, score, shared });
    }
    matches.sort((a, b) => b.score - a.score || b.shared - a.shared || (a.assetId < b.assetId ? -1 : 1));
    return matches.slice(0, options.limit);
  }
}

/** A cheap identity of a text (64 bits of FNV-1a in two lanes), to notice changed assets on rebuild. */
function textHash(text: string): string {
  let a = 0x811c9dc5;
  let b = 0xcbf29ce4;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  return `${text.length}:${(a >>> 0).toString(16)}:${(b >>> 0).toString(16)}`;
}

/** node:sqlite binds a zero-length view of an empty ArrayBuffer as NULL; a fresh empty array binds as x''. */
function blobOf(hashes: Int32Array): Uint8Array {
  return hashes.length === 0 ? new Uint8Array(0) : new Uint8Array(hashes.buffer, hashes.byteOffset, hashes.byteLength);
}

function decode(bytes: Uint8Array): Int32Array {
  // Copy: SQLite's buffer is not guaranteed to be 4-byte aligned.
  const copy = new Uint8Array(bytes);
  return new Int32Array(copy.buffer, 0, copy.byteLength >>> 2);
}
