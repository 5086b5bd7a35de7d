/**
 * What the import process writes through: a second connection to the store and the parts of
 * the assets area a bulk write needs, composed as satchel.ts composes them for the store's own
 * connection: records and links, labels, the search index (without its in-memory title index or
 * merge scheduling, which stay with the store's process) and the connector's fingerprint index.
 * Every index with rows in the store is written here, inside the batch's transaction; the store's
 * process brings what it keeps in memory in step after each batch (AssetService.adoptWritten).
 */
import { Database } from '../store/database.ts';
import { StoreContext, silentLogger } from '../context.ts';
import type { ChangeEvent, Disposable, Event } from '../events.ts';
import type { ClassificationSpecific } from '../piecesTypes.ts';
import { AssetStore } from '../assets/assetStore.ts';
import { Labels } from '../assets/labels.ts';
import { SEARCH_FTS_TABLES, SearchIndex } from '../search/searchIndex.ts';
import { SegmentMerger } from '../search/segmentMerger.ts';
import { FingerprintIndex } from '../connector/fingerprintIndex.ts';
import { AssetIndexing } from '../assets/assetIndexers.ts';
import { BulkWriter } from '../assets/bulkWriter.ts';
import { AssetLinkedState } from '../assets/assetRevisions.ts';
import { RevisionLog } from '../history/revisionLog.ts';
import { RevisionTracker } from '../history/revisionTracker.ts';
import { SATCHEL_APPLICATION, LOCAL_CREATOR } from '../assets/origin.ts';
import { SnippetImporter } from './importer.ts';
import { ImportOrigins } from './importOrigins.ts';
import { BatchPreparer } from './batchPreparer.ts';
import { ConversationRecords } from '../sync/conversationRecords.ts';

export interface ImportStore extends Disposable {
  readonly importer: SnippetImporter;
  /**
   * After the session's last import: merges the search index's segments the imports left unmerged,
   * for at most `budgetMs` (the store's process merges what is left), then copies this connection's
   * WAL into the store and empties it.
   */
  finish(budgetMs: number): Promise<void>;
  /** Changes committed through this connection (each batch's assets, formats, tags and descriptions). */
  readonly onDidChange: Event<ChangeEvent>;
}

export interface ImportStoreOptions {
  readonly classify: (text: string) => Promise<ClassificationSpecific>;
}

/**
 * The import process checkpoints its own writes, inside its commits (BulkWriter raises the mark to
 * 32 MB for an import). Left to the store's process, a 10k import into 100k snippets left a WAL of
 * 480–540 MB on disk for that process's checkpoints to copy afterwards; here the copying goes
 * with the import process, and the WAL stayed at 8–69 MB (issue 34); `finish` then merges the
 * search index and empties the WAL, so the store's process need not start its checkpoint process after an
 * import (docs/performance.md).
 */
const IMPORT_PROCESS_CHECKPOINT_PAGES = 1000;

/**
 * Copies this connection's WAL into the store and truncates it, so the store's process finds an
 * empty WAL after the session: its checkpoint process starts on the WAL file's size (walCheckpointer.ts),
 * and a large file left by the import (up to the 32 MB mark) started it for the process's first
 * small commit afterwards. Waits for a reader or writer as the busy timeout allows; if one holds on,
 * the store's process copies the rest as before.
 */
function emptyWal(database: Database): void {
  try {
    database.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  } catch {
    // Busy past the timeout: left to the store's process.
  }
}

export function openImportStore(path: string, schemaVersion: number, options: ImportStoreOptions): ImportStore {
  const context = new StoreContext(Database.openShared(path, schemaVersion, { checkpointPages: IMPORT_PROCESS_CHECKPOINT_PAGES }), silentLogger);
  const store = new AssetStore(context);
  const labels = new Labels(context);
  const fingerprints = new FingerprintIndex(context.database);
  const indexing = new AssetIndexing(new SearchIndex(context.database, { merging: false }), store, labels, [fingerprints]);
  // Revisions are written here too, in each batch's transaction (the store's process compacts them).
  const linked = new AssetLinkedState(context);
  const descriptions = linked.descriptions;
  const revisions = new RevisionTracker(new RevisionLog(context.database), linked);
  const origins = new ImportOrigins(context.database);
  const conversations = new ConversationRecords(context, (id) => store.exists(id));
  // One for the process's life (a worker thread of its own): imports reach it one request at a time.
  const preparer = new BatchPreparer();
  const importer = new SnippetImporter({
    writer: new BulkWriter(context, { store, indexing, labels, revisions, descriptions, origins, application: SATCHEL_APPLICATION, creator: LOCAL_CREATOR }),
    originOf: (source) => origins.assetOf(source),
    exists: (id) => store.exists(id),
    putConversations: (list, fail) => conversations.putMany(list, fail),
    // Exact duplicates: the connector's index finds the candidates, whole texts decide (as satchel.ts).
    isSaved: (text) => fingerprints.hasText(text, (id) => store.text(id)),
    classify: options.classify,
    preparer,
  });
  return {
    importer,
    onDidChange: context.onDidChange,
    finish: async (budgetMs) => {
      const merger = new SegmentMerger(context.database, SEARCH_FTS_TABLES, { startDelayMs: 0 });
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([merger.merged(), new Promise((resolve) => (timer = setTimeout(resolve, budgetMs)))]);
      clearTimeout(timer);
      merger.dispose();
      emptyWal(context.database);
    },
    dispose: () => {
      preparer.dispose();
      indexing.dispose();
      context.dispose();
    },
  };
}
