import type { Migration } from '../store/database.ts';
import { decode, postedSample } from '../connector/fingerprintIndex.ts';

/**
 * Schema of the applications area and of the connector (which owns no area number of its own).
 * Its versions are 3, then 103, 203… (so areas never collide).
 */
export const applicationMigrations: readonly Migration[] = [
  {
    version: 3,
    name: 'applications, engagement, sessions, usage events; connector fingerprints, copies and reactions',
    up(db) {
      db.exec(`
        CREATE TABLE applications (
          id TEXT PRIMARY KEY,
          name TEXT NOT NULL,
          version TEXT NOT NULL,
          platform TEXT NOT NULL,
          data TEXT NOT NULL,
          created TEXT NOT NULL,
          updated TEXT NOT NULL,
          last_seen TEXT
        );
        CREATE INDEX applications_identity ON applications (name, version, platform);
        CREATE TABLE application_engagement (
          application_id TEXT NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
          metric TEXT NOT NULL,
          value INTEGER NOT NULL,
          PRIMARY KEY (application_id, metric)
        ) WITHOUT ROWID;
        CREATE TABLE application_sessions (
          id TEXT PRIMARY KEY,
          application_id TEXT,
          opened TEXT NOT NULL,
          closed TEXT
        );
        CREATE TABLE application_usage_events (
          id TEXT PRIMARY KEY,
          kind TEXT NOT NULL,
          application_id TEXT,
          data TEXT NOT NULL,
          created TEXT NOT NULL
        );
        CREATE INDEX application_usage_events_created ON application_usage_events (created);

        CREATE TABLE connector_fp_docs (
          doc INTEGER PRIMARY KEY,
          asset_id TEXT NOT NULL UNIQUE,
          text_hash TEXT NOT NULL,
          hashes BLOB NOT NULL,
          count INTEGER NOT NULL
        );
        CREATE TABLE connector_fp_postings (
          hash INTEGER NOT NULL,
          doc INTEGER NOT NULL,
          PRIMARY KEY (hash, doc)
        ) WITHOUT ROWID;
        CREATE TABLE connector_fp_df (hash INTEGER PRIMARY KEY, df INTEGER NOT NULL);
        CREATE TABLE connector_copies (
          id INTEGER PRIMARY KEY,
          application_id TEXT NOT NULL,
          key TEXT NOT NULL,
          kind TEXT NOT NULL,
          reason TEXT NOT NULL,
          score REAL NOT NULL,
          created INTEGER NOT NULL
        );
        CREATE INDEX connector_copies_application ON connector_copies (application_id, id);
        CREATE TABLE connector_reactions (
          id INTEGER PRIMARY KEY,
          application_id TEXT NOT NULL,
          kind TEXT NOT NULL,
          outcome TEXT NOT NULL,
          asset_id TEXT,
          created INTEGER NOT NULL
        );
        CREATE INDEX connector_reactions_application ON connector_reactions (application_id, kind, id);
      `);
    },
  },
  {
    version: 103,
    name: 'connector postings: a content-defined sample of each fingerprint set, no frequency table',
    up(db) {
      db.exec('DROP TABLE connector_fp_df; DELETE FROM connector_fp_postings;');
      const insert = db.prepare('INSERT OR IGNORE INTO connector_fp_postings (hash, doc) VALUES (?, ?)');
      for (const row of db.prepare('SELECT doc, hashes FROM connector_fp_docs').iterate() as Iterable<{ doc: number; hashes: Uint8Array }>) {
        for (const hash of postedSample(decode(row.hashes))) insert.run(hash, row.doc);
      }
    },
  },
  {
    version: 104,
    name: 'connector fingerprint docs found by text hash (exact duplicates on import)',
    up(db) {
      db.exec('CREATE INDEX IF NOT EXISTS connector_fp_docs_text ON connector_fp_docs (text_hash)');
    },
  },
];
