/**
 * The indexes kept in step with assets inside each asset write transaction: the search index of
 * the assets area, and the derived indexers other areas hand over at composition (the connector's
 * fingerprint index; see src/core/satchel.ts).
 */
import type { Disposable } from '../events.ts';
import { SearchIndex } from '../search/searchIndex.ts';
import { INDEXED_TAGS_CHARS, indexedDocument, type IndexedDocument } from '../search/indexedDocument.ts';
import { textOf, type AssetStore } from './assetStore.ts';
import type { Labels } from './labels.ts';
import type { StoredAsset } from './storedAsset.ts';
import type { PreparedFingerprint } from '../connector/fingerprint.ts';

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
  /** Many new assets at once (an import's batch), inside its transaction; an indexer may batch its own writes. */
  upsertBatch?(items: ReadonlyArray<BatchItem>): void;
  /**
   * New assets another connection wrote and committed (the import process, whose own
   * indexers wrote the index rows with them): what this index keeps in memory is brought in step.
   * Indexes with rows in the store must be among that connection's indexers (importStore.ts).
   */
  written?(assetIds: readonly string[]): void;
}

/** An asset of an import's batch; `fingerprint` when its fingerprints were made ahead (preparedAsset.ts). */
export interface BatchItem {
  readonly id: string;
  readonly text: string;
  readonly fingerprint?: PreparedFingerprint | undefined;
}

/** An asset as the search index holds it, with the keywords column value made from it. */
export interface IndexedAsset {
  readonly document: IndexedDocument;
  readonly keywords: string;
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

  /**
   * What the search index holds of an asset and the row's keywords value, made once per write (the
   * code's identifiers are a scan of up to 1 MiB). `tags` are the asset's tag texts when the caller
   * has them (a create), read from its links otherwise.
   */
  indexed(doc: StoredAsset, tags = this.tagTexts(doc.id)): IndexedAsset {
    const document = indexedDocument(doc.name ?? '', tags, textOf(doc));
    return { document, keywords: SearchIndex.keywords(document) };
  }

  /** As many tags as can fill what the index keeps of them (each has a character at least). */
  private tagTexts(assetId: string): string {
    return this.labels.tagTexts(assetId, INDEXED_TAGS_CHARS).join(' ');
  }

  /**
   * Brings the search index and the indexers in step with `doc`. `indexed` is what the caller has
   * made of it already; `keywordsWritten` says the row holds its keywords (written with the
   * document: an UPDATE of one column rewrites the whole row, a large text included).
   */
  reindex(
    rowid: number,
    doc: StoredAsset,
    options: { created?: boolean; previous?: StoredAsset; indexed?: IndexedAsset; keywordsWritten?: boolean } = {},
  ): void {
    const { document, keywords } = options.indexed ?? this.indexed(doc);
    if (!options.keywordsWritten) this.store.setKeywords(rowid, keywords);
    if (options.created) this.search.insert(rowid, document);
    else this.search.upsert(rowid, document, options.previous ? textOf(options.previous) : undefined);
    for (const indexer of this.indexers) indexer.upsert(doc.id, document.code);
  }

  /**
   * The derived indexers' part of a batch of new assets (an import): each indexer gets the whole
   * batch when it can take one (`upsertBatch`), else each asset in turn.
   */
  upsertBatch(items: ReadonlyArray<BatchItem>): void {
    for (const indexer of this.indexers) {
      if (indexer.upsertBatch) indexer.upsertBatch(items);
      else for (const { id, text } of items) indexer.upsert(id, text);
    }
  }

  /** New assets another connection wrote and committed: the in-memory title index and indexers follow. */
  written(assetIds: readonly string[]): void {
    this.search.adoptTitles(assetIds);
    for (const indexer of this.indexers) indexer.written?.(assetIds);
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
