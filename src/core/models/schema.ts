import type { Migration } from '../store/migrations.ts';

/** Schema of the models area. Its versions are 5, then 105, 205… (so areas never collide). */
export const modelMigrations: readonly Migration[] = [
  {
    version: 5,
    name: 'models',
    up(db) {
      // One row per custom model, and per catalog model once something was downloaded for it.
      // `data` holds a custom model's wire fields (catalog models come from the shipped catalog).
      // `sha256` is the expected digest: the catalog's, or the first completed download's.
      db.exec(`
        CREATE TABLE models (
          id TEXT PRIMARY KEY,
          custom INTEGER NOT NULL,
          data TEXT,
          source TEXT,
          sha256 TEXT,
          state TEXT NOT NULL DEFAULT 'none',
          file TEXT,
          bytes INTEGER,
          error TEXT,
          updated TEXT NOT NULL
        );
      `);
    },
  },
];
