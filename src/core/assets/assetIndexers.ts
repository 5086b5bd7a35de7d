/**
 * The indexes kept in step with assets inside each asset write transaction: the search index of
 * the assets area, and the derived indexers other areas hand over at composition (the connector's
 * fingerprint index; see src/core/satchel.ts).
 */
import type { Disposable } from '../events.ts';
import { SearchIndex, type IndexedDocument } from '../search/searchIndex.ts';
import { textOf, type AssetStore } from './assetStore.ts';
import type { Labels } from './labels.ts';
import type { StoredAsset } from './render.ts';

/**
 * A derived index kept in step with assets inside the same write transaction (the connector's
 * fingerprint index uses this). `text` is the asset's original fragment text ('' for binary).
 */
export interface AssetIndexer {
  upsert(assetId: string, text: string): void;
  remove(assetId: string): void;
  /**
   * Called once on registration so the index can catch up with assets written before it existed.
   * `all` is lazy: an index that already holds `count` entries (writes share transactions, so it
   * cannot have drifted) can skip reading every asset.
   */
  rebuild?(all: Iterable<{ readonly id: string; readonly text: string }>, count: number): void;
}

export class AssetIndexing implements Disposable {
  readonly search: SearchIndex;
  private readonly store: AssetStore;
  private readonly labels: Labels;
  private readonly indexers: AssetIndexer[] = [];

  constructor(search: SearchIndex, store: AssetStore, labels: Labels, indexers: readonly AssetIndexer[]) {
    this.search = search;
    this.store = store;
    this.labels = labels;
    for (const indexer of indexers) this.register(indexer);
  }

  /** Adds a derived index (caught up first); its upsert/remove run inside every asset write transaction. */
  register(indexer: AssetIndexer): Disposable {
    this.indexers.push(indexer);
    indexer.rebuild?.(this.store.allTexts(), this.store.count());
    return { dispose: () => void this.indexers.splice(this.indexers.indexOf(indexer) >>> 0, 1) };
  }

  /** What the search index holds of an asset. */
  document(doc: StoredAsset): IndexedDocument {
    return { name: doc.name ?? '', tags: this.labels.tagsOfAsset(doc.id).map((t) => t.text).join(' '), code: textOf(doc) };
  }

  /**
   * Brings the search index and the indexers in step with `doc`. `written` is the keywords value
   * the row already holds: an UPDATE of one column rewrites the whole row, a large text included.
   */
  reindex(
    rowid: number,
    doc: StoredAsset,
    options: { created?: boolean; previous?: StoredAsset; document?: IndexedDocument; written?: string } = {},
  ): void {
    const document = options.document ?? this.document(doc);
    const keywords = SearchIndex.keywords(document);
    if (keywords !== options.written) this.store.setKeywords(rowid, keywords);
    if (options.created) this.search.insert(rowid, document);
    else this.search.upsert(rowid, document, options.previous ? textOf(options.previous) : undefined);
    for (const indexer of this.indexers) indexer.upsert(doc.id, document.code);
  }

  remove(rowid: number, id: string): void {
    this.search.remove(rowid);
    for (const indexer of this.indexers) indexer.remove(id);
  }

  dispose(): void {
    this.search.dispose();
    this.indexers.length = 0;
  }
}
