import type { Migration } from '../store/migrations.ts';

/**
 * Schema of the trash area. Its versions are 11, then 111, 211… (so areas never collide).
 *
 * A deleted asset or conversation is moved here, out of the live tables, in its delete's own
 * transaction (docs/trash.md): the live tables never hold a trashed record, so no read of the
 * interface has a filter to forget.
 *
 *   trash          one row per entry: the record's document as it was stored (`data`), what a
 *                  listing shows (name, the opening of its text, language or message count, size),
 *                  who deleted it and when, and the live row's other columns (`facts`, JSON)
 *   trash_links    every link the record (and its messages) had, in the order they were made
 *   trash_records  the records linked to it: those deleted with it (`owned`: its activities, a
 *                  description or summary annotation nothing else names), and a copy of each shared
 *                  one (tags, websites) to make it again by its text or url should it be deleted meanwhile
 *   trash_messages a conversation's messages: each one's document and head, as the live tables hold them
 *
 * `owner` is the id of the entry a row belongs to. An asset's revisions stay in the history area's
 * tables (they outlive a delete already); its snippet facts and import origin stay in theirs.
 */
export const trashMigrations: readonly Migration[] = [
  {
    version: 11,
    name: 'the trash: deleted assets and conversations with what they linked to',
    up(db) {
      db.exec(`
        CREATE TABLE trash (
          rowid INTEGER PRIMARY KEY,
          id TEXT NOT NULL UNIQUE,
          kind TEXT NOT NULL,
          name TEXT NOT NULL,
          preview TEXT NOT NULL,
          language TEXT,
          messages INTEGER,
          deleted INTEGER NOT NULL,
          author_kind TEXT NOT NULL,
          author_name TEXT NOT NULL,
          size INTEGER NOT NULL,
          facts TEXT NOT NULL,
          data TEXT NOT NULL
        );
        CREATE INDEX trash_by_deleted ON trash (deleted, rowid);
        CREATE INDEX trash_by_kind ON trash (kind, deleted, rowid);
        CREATE TABLE trash_links (
          rowid INTEGER PRIMARY KEY,
          owner TEXT NOT NULL,
          a_kind TEXT NOT NULL,
          a_id TEXT NOT NULL,
          b_kind TEXT NOT NULL,
          b_id TEXT NOT NULL,
          created TEXT NOT NULL
        );
        CREATE INDEX trash_links_owner ON trash_links (owner, rowid);
        CREATE TABLE trash_records (
          rowid INTEGER PRIMARY KEY,
          owner TEXT NOT NULL,
          kind TEXT NOT NULL,
          id TEXT NOT NULL,
          owned INTEGER NOT NULL,
          created TEXT NOT NULL,
          updated TEXT NOT NULL,
          data TEXT NOT NULL,
          lookup TEXT,
          UNIQUE (owner, kind, id)
        );
        CREATE TABLE trash_messages (
          rowid INTEGER PRIMARY KEY,
          owner TEXT NOT NULL,
          id TEXT NOT NULL UNIQUE,
          created TEXT NOT NULL,
          data TEXT NOT NULL,
          size INTEGER NOT NULL,
          chars INTEGER NOT NULL,
          head TEXT NOT NULL
        );
        CREATE INDEX trash_messages_owner ON trash_messages (owner, rowid);
      `);
    },
  },
  {
    version: 111,
    name: 'trash totals counted from an index',
    up(db) {
      // A listing says how many entries the trash holds and the bytes they keep: summed from the
      // table, whose rows hold each record's document, that read every entry (50 ms at 20k).
      db.exec('CREATE INDEX IF NOT EXISTS trash_sizes ON trash (kind, size)');
    },
  },
];
