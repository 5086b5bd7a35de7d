import type { StoreContext } from '../context.ts';
import type { Disposable } from '../events.ts';
import type { LanguageClassifier } from '../classify/languageClassifier.ts';

/**
 * A derived index kept in step with assets inside the same write transaction (the connector's
 * fingerprint index uses this). `text` is the asset's original fragment text ('' for binary).
 */
export interface AssetIndexer {
  upsert(assetId: string, text: string): void;
  remove(assetId: string): void;
  /** Called once on registration so the index can catch up with assets written before it existed. */
  rebuild?(all: Iterable<{ readonly id: string; readonly text: string }>): void;
}

/** Assets and the records hanging off them (formats, tags, websites, activities). */
export class AssetService implements Disposable {
  private readonly context: StoreContext;
  private readonly classifier: LanguageClassifier;
  private readonly indexers: AssetIndexer[] = [];

  constructor(context: StoreContext, classifier: LanguageClassifier) {
    this.context = context;
    this.classifier = classifier;
  }

  /** Registers a derived index; its upsert/remove run inside every asset write transaction. */
  registerIndexer(indexer: AssetIndexer): Disposable {
    this.indexers.push(indexer);
    return { dispose: () => void this.indexers.splice(this.indexers.indexOf(indexer) >>> 0, 1) };
  }

  dispose(): void {}
}
