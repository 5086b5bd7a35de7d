import type { Migration } from '../store/migrations.ts';

/**
 * Schema of the snippets area: what makes a saved asset a VS Code snippet, which the Pieces asset
 * document has no field for (and the published clients' generated models may refuse a key they do
 * not know). Its versions are 9, then 109, 209… (so areas never collide).
 *
 * A row is kept when its asset is deleted (no cascade): a few bytes, and an asset brought back
 * under its id gets its facts back.
 */
export const snippetMigrations: readonly Migration[] = [
  {
    version: 9,
    name: 'snippet facts: snippet syntax and prefixes per asset',
    up(db) {
      db.exec(`
        CREATE TABLE snippet_facts (
          asset_id TEXT PRIMARY KEY,
          syntax INTEGER NOT NULL DEFAULT 0,
          prefixes TEXT NOT NULL DEFAULT '[]'
        ) WITHOUT ROWID;
      `);
    },
  },
];
