import type { Migration } from '../store/migrations.ts';
import { createHeads } from './assetHeads.ts';

/**
 * Schema of the assets area. Its versions are 2, then 102, 202… (so areas never collide).
 *
 * `assets` holds each asset's wire document (formats included; tags, websites and activities are
 * links and records joined in on read). `asset_formats` finds the asset of a format id. The two
 * FTS5 tables are the "fts5-lite" search index (storage-search.md): a trigram index over name,
 * tags and the distinct identifiers of the content (typo tolerance), and a word index over the
 * content; their rowids are the rowids of `assets`, and all three change in one transaction.
 * `assets.keywords` keeps the trigram table's tags and identifiers readable, because the FTS tables
 * are contentless and fuzzy matches are re-ranked by how many query trigrams they really share.
 */
export const assetMigrations: readonly Migration[] = [
  {
    version: 2,
    name: 'assets, formats and the fts5-lite search index',
    up(db) {
      db.exec(`
        CREATE TABLE assets (
          rowid INTEGER PRIMARY KEY,
          id TEXT NOT NULL UNIQUE,
          created TEXT NOT NULL,
          updated TEXT NOT NULL,
          pseudo INTEGER NOT NULL DEFAULT 0,
          suggested INTEGER NOT NULL DEFAULT 0,
          name TEXT NOT NULL,
          language TEXT NOT NULL,
          keywords TEXT NOT NULL DEFAULT '',
          data TEXT NOT NULL
        );
        CREATE INDEX assets_listing ON assets (suggested, pseudo, created);
        CREATE TABLE asset_formats (
          id TEXT PRIMARY KEY,
          asset_id TEXT NOT NULL REFERENCES assets (id) ON DELETE CASCADE
        );
        CREATE INDEX asset_formats_asset ON asset_formats (asset_id);
        CREATE VIRTUAL TABLE asset_nt USING fts5(name, tags, idents, content='', contentless_delete=1, tokenize='trigram');
        CREATE VIRTUAL TABLE asset_cd USING fts5(code, content='', contentless_delete=1, tokenize="unicode61 tokenchars '_'");
      `);
    },
  },
  {
    version: 102,
    name: 'asset labels (name and tags) in a table of their own',
    up(db) {
      // Read whole at start by the in-memory label index: from the assets table that meant reading
      // every asset's content pages (1 s at 100k assets); this table is a few bytes per asset.
      db.exec(`
        CREATE TABLE asset_labels (rowid INTEGER PRIMARY KEY, label TEXT NOT NULL);
        INSERT INTO asset_labels (rowid, label)
          SELECT rowid, name || ' ' || substr(keywords, 1, instr(keywords || char(10), char(10)) - 1) FROM assets;
      `);
    },
  },
  {
    version: 202,
    name: 'the opening of each large asset text in a table of its own',
    up(db) {
      // Previews, phrase checks and similarity read a text's first characters (assetHeads.ts).
      createHeads(db);
    },
  },
  {
    version: 302,
    name: 'the Assets tree groups by language from an index',
    up(db) {
      // Group counts walk it without the documents, and a page of one language reads it newest first.
      db.exec('CREATE INDEX IF NOT EXISTS assets_groups ON assets (suggested, pseudo, language, created, id)');
    },
  },
];
