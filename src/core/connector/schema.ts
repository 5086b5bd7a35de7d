import type { Migration } from '../store/migrations.ts';
import { decode, postedSample } from './fingerprintIndex.ts';

/**
 * Schema of the connector: its fingerprint index, the copies it was asked about and the reactions
 * to its suggestions. Its versions are 6, then 106, 206… (so areas never collide).
 *
 * Stores written before the connector had an area got these tables from the applications area's
 * version 3 (with a frequency table since dropped), so version 6 creates only what is missing.
 * Version 103 shipped under the applications' number; it stays as released (a store that applied
 * it must still find it) and is harmless on a store that never had the old layout.
 */
export const connectorMigrations: readonly Migration[] = [
  {
    version: 6,
    name: 'connector fingerprints, copies and reactions',
    up(db) {
      db.exec(`
        CREATE TABLE IF NOT EXISTS connector_fp_docs (
          doc INTEGER PRIMARY KEY,
          asset_id TEXT NOT NULL UNIQUE,
          text_hash TEXT NOT NULL,
          hashes BLOB NOT NULL,
          count INTEGER NOT NULL
        );
        CREATE TABLE IF NOT EXISTS connector_fp_postings (
          hash INTEGER NOT NULL,
          doc INTEGER NOT NULL,
          PRIMARY KEY (hash, doc)
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS connector_copies (
          id INTEGER PRIMARY KEY,
          application_id TEXT NOT NULL,
          key TEXT NOT NULL,
          kind TEXT NOT NULL,
          reason TEXT NOT NULL,
          score REAL NOT NULL,
          created INTEGER NOT NULL
        );
        CREATE INDEX IF NOT EXISTS connector_copies_application ON connector_copies (application_id, id);
        CREATE TABLE IF NOT EXISTS connector_reactions (
          id INTEGER PRIMARY KEY,
          application_id TEXT NOT NULL,
          kind TEXT NOT NULL,
          outcome TEXT NOT NULL,
          asset_id TEXT,
          created INTEGER NOT NULL
        );
        CREATE INDEX IF NOT EXISTS connector_reactions_application ON connector_reactions (application_id, kind, id);
      `);
    },
  },
  {
    version: 103,
    name: 'connector postings: a content-defined sample of each fingerprint set, no frequency table',
    up(db) {
      db.exec('DROP TABLE IF EXISTS connector_fp_df; DELETE FROM connector_fp_postings;');
      const insert = db.prepare('INSERT OR IGNORE INTO connector_fp_postings (hash, doc) VALUES (?, ?)');
      for (const row of db.prepare('SELECT doc, hashes FROM connector_fp_docs').iterate() as Iterable<{ doc: number; hashes: Uint8Array }>) {
        for (const hash of postedSample(decode(row.hashes))) insert.run(hash, row.doc);
      }
    },
  },
  {
    version: 106,
    name: 'connector fingerprint docs found by text hash (exact duplicates on import)',
    up(db) {
      db.exec('CREATE INDEX IF NOT EXISTS connector_fp_docs_text ON connector_fp_docs (text_hash)');
    },
  },
];
