import type { Migration } from '../store/migrations.ts';

/**
 * Schema of the import area. Its versions are 10, then 110, 210… (so areas never collide).
 *
 * `import_origins` remembers which asset an import made from which snippet of which file (the
 * snippet's `source`, "file › item"): importing the same file again after a snippet changed in it
 * updates that asset (a revision by the import) instead of adding a near-copy beside it.
 */
export const importMigrations: readonly Migration[] = [
  {
    version: 10,
    name: 'where imported snippets came from',
    up(db) {
      db.exec('CREATE TABLE import_origins (source TEXT PRIMARY KEY, asset_id TEXT NOT NULL) WITHOUT ROWID');
    },
  },
];
