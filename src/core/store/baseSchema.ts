import type { Migration } from './database.ts';

/** Tables every area shares: generic records, symmetric links and key/value settings. */
export const baseMigrations: readonly Migration[] = [
  {
    version: 1,
    name: 'records, links and meta',
    up(db) {
      db.exec(`
        CREATE TABLE records (
          kind TEXT NOT NULL,
          id TEXT NOT NULL,
          created TEXT NOT NULL,
          updated TEXT NOT NULL,
          data TEXT NOT NULL,
          UNIQUE (kind, id)
        );
        CREATE TABLE links (
          a_kind TEXT NOT NULL,
          a_id TEXT NOT NULL,
          b_kind TEXT NOT NULL,
          b_id TEXT NOT NULL,
          created TEXT NOT NULL,
          PRIMARY KEY (a_kind, a_id, b_kind, b_id)
        );
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      `);
    },
  },
];
