import type { Migration } from './migrations.ts';

/**
 * Tables every area shares: generic records, symmetric links and key/value settings. Its versions
 * are 1, then 101, 201… (so areas never collide).
 */
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
  {
    version: 101,
    name: 'records findable by a natural key (tag text, website url)',
    up(db) {
      db.exec(`
        ALTER TABLE records ADD COLUMN lookup TEXT;
        CREATE INDEX records_lookup ON records (kind, lookup) WHERE lookup IS NOT NULL;
      `);
      // Keys are computed in JavaScript (SQLite's lower() folds ASCII only), so existing rows too.
      const rows = db.prepare("SELECT rowid, kind, data FROM records WHERE kind IN ('tag', 'website')").all() as Array<{
        rowid: number;
        kind: string;
        data: string;
      }>;
      const update = db.prepare('UPDATE records SET lookup = ? WHERE rowid = ?');
      for (const row of rows) {
        const data = JSON.parse(row.data) as { text?: unknown; url?: unknown };
        const key = row.kind === 'tag' ? data.text : data.url;
        if (typeof key === 'string') update.run(lookupKey(row.kind, key), row.rowid);
      }
    },
  },
  {
    version: 201,
    name: 'links findable from their second end',
    up(db) {
      // Deleting a record removes the links naming it on either side; without this index the
      // b-side DELETE scanned every link (85 s for a conversation of 1,000 messages at 1M links).
      db.exec('CREATE INDEX IF NOT EXISTS links_b ON links (b_kind, b_id)');
    },
  },
];

/** The natural key of a labelled record: tags are unique by case-insensitive text, websites by url. */
export function lookupKey(kind: string, key: string): string {
  return kind === 'tag' ? key.toLowerCase() : key;
}
