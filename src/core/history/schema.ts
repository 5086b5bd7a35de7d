import type { Migration } from '../store/migrations.ts';

/**
 * Schema of the history area. Its versions are 8, then 108, 208… (so areas never collide).
 *
 * `revisions` holds one row per state an asset had: its name, language, tags (a JSON array of
 * texts) and the hashes of its content and description, with the time, the author and what
 * changed from the state before. Texts live once each in `revision_texts`, keyed by hash (and
 * deflated where that makes them smaller: `encoding` says how, revisionTexts.ts), so a rename of a
 * 4 Mi-character snippet adds a row of a few hundred bytes. An asset's current content
 * stays in the asset's own row and joins `revision_texts` only once it is replaced (or its asset
 * deleted): creates and imports store no second copy (docs/history.md, "Storage").
 *
 * `seq` orders an asset's revisions (its last is the current one, whatever the clock did); `id` is
 * the ordered id clients see.
 */
export const historyMigrations: readonly Migration[] = [
  {
    version: 8,
    name: 'asset revisions and their texts',
    up(db) {
      db.exec(`
        CREATE TABLE revisions (
          seq INTEGER PRIMARY KEY,
          id TEXT NOT NULL UNIQUE,
          asset_id TEXT NOT NULL,
          created INTEGER NOT NULL,
          author_kind TEXT NOT NULL,
          author_name TEXT NOT NULL,
          changes INTEGER NOT NULL,
          name TEXT NOT NULL,
          language TEXT NOT NULL,
          tags TEXT NOT NULL,
          content_hash TEXT NOT NULL,
          size INTEGER NOT NULL,
          description_hash TEXT,
          restored_from TEXT
        );
        CREATE INDEX revisions_of_asset ON revisions (asset_id, seq);
        CREATE INDEX revisions_by_content ON revisions (content_hash);
        CREATE INDEX revisions_by_description ON revisions (description_hash) WHERE description_hash IS NOT NULL;
        CREATE TABLE revision_texts (
          hash TEXT PRIMARY KEY,
          encoding INTEGER NOT NULL,
          data BLOB NOT NULL
        );
      `);
    },
  },
];
