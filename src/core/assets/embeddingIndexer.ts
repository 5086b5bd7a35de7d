/**
 * Keeps asset vectors in step with asset writes. A vector cannot be made inside the write's
 * transaction (the model answers asynchronously, in its own process), so the transaction records
 * what the write did to the vector: outdated (`stale`) or gone. That record is as durable as the
 * write; the vector itself is made after the commit, or by the next back-fill if Satchel stops first.
 */
import type { Database } from '../store/database.ts';
import type { VectorStore } from '../search/vectorStore.ts';
import type { AssetIndexer } from './assetService.ts';

export interface EmbeddingListener {
  /** After commit: the asset was created or changed and needs a vector again. */
  changed(assetId: string): void;
  /** After commit: the asset and its vector are gone. */
  removed(assetId: string): void;
}

export function embeddingIndexer(database: Database, store: VectorStore, listener: EmbeddingListener): AssetIndexer {
  return {
    upsert(assetId) {
      store.markStale(assetId);
      database.onCommit(() => listener.changed(assetId));
    },
    written(assetIds) {
      for (const id of assetIds) listener.changed(id);
    },
    remove(assetId) {
      store.delete(assetId);
      database.onCommit(() => listener.removed(assetId));
    },
  };
}
