import type { Migration } from '../store/migrations.ts';

/**
 * Schema of semantic recall. Its versions are 7, then 107, 207… (so areas never collide).
 *
 * One vector per asset, made by the embedding model `model` (its id) of `dimension` Float32 values
 * (little-endian, as Float32Array lays them out on every platform Node runs on). `source` is a
 * digest of the text embedded, so a write that changed nothing embedded costs no model call.
 * `stale` is set in the transaction of the asset write that outdated the vector: it survives a
 * crash before the vector is re-made, and the next back-fill finds it. Vectors of another model
 * are never compared; a back-fill with the loaded model replaces them.
 */
export const vectorMigrations: readonly Migration[] = [
  {
    version: 7,
    name: 'asset vectors for semantic recall',
    up(db) {
      db.exec(`
        CREATE TABLE asset_vectors (
          asset_id TEXT PRIMARY KEY,
          model TEXT NOT NULL,
          dimension INTEGER NOT NULL,
          source TEXT NOT NULL,
          stale INTEGER NOT NULL DEFAULT 0,
          vector BLOB NOT NULL
        );
      `);
    },
  },
];
