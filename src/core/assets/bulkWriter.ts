/**
 * The write path of imports: many new assets in one transaction. A batch is all or nothing and is
 * on disk when `write` returns (the commit runs with synchronous=FULL), so a crash mid-import
 * leaves whole batches. Everything derived from an asset is written in the same transaction: the
 * search index (FTS5 keeps a batch's terms in memory and writes them as one segment at commit),
 * the label records and the batch's links (in key order), and every registered indexer (the connector's fingerprints, and
 * any other, given the whole batch at once when it can take one). Change events are published per
 * asset, as single creates do, and fire together after the commit, so stream subscribers see every
 * imported asset.
 */
import { MemoryFactsStore } from '../memories/memoryFacts.ts';
import type { StoreContext } from '../context.ts';
import type { Disposable } from '../events.ts';
import type { ClassificationSpecific } from '../piecesTypes.ts';
import { newOrderedId, stamp } from '../time.ts';
import { SearchIndex } from '../search/searchIndex.ts';
import { indexedDocument, type IndexedDocument } from '../search/indexedDocument.ts';
import { classificationOf } from '../classify/languages.ts';
import { bytesOf, type StoredFormat } from './storedAsset.ts';
import { newAssetRecords } from './seeds.ts';
import type { Labels } from './labels.ts';
import type { LinkEnd } from '../store/links.ts';
import type { AssetIndexing, BatchItem } from './assetIndexers.ts';
import type { PreparedAsset } from '../import/preparedAsset.ts';
import type { AssetStore } from './assetStore.ts';
import { SnippetFactsStore } from '../snippets/snippetFacts.ts';
import type { Author } from '../history/authors.ts';
import type { RevisionTracking } from '../history/revisionTracker.ts';
import type { Descriptions } from './descriptions.ts';
import { trackedOf } from './assetRevisions.ts';
import { editedDoc, setTags } from './assetEdits.ts';
import { LIMITS } from '../limits.ts';
import { putExactly, stampAt, type ExactFields, type ExactRecord } from './exactRecords.ts';
import { putAttachments } from './exactAttachments.ts';
import { wellFormed } from './content.ts';

const IMPORT_CACHE_KIB = 32 * 1024;
const IMPORT_CHECKPOINT_PAGES = 8192;

/** One asset of a batch, ready to store: its language is already decided. */
export interface BulkAsset extends ExactFields {
  readonly language: ClassificationSpecific;
  /** Where it came from (an import's "file › item"): an import of the same source later updates it. */
  readonly origin?: string | undefined;
  /**
   * The asset an earlier import made from the same origin: it is updated instead (its content, its
   * language when `languageGiven`, the file's tags added to its own, the file's description),
   * itself a revision. One deleted since is created again.
   */
  readonly replaces?: { readonly id: string; readonly languageGiven: boolean } | undefined;
  /**
   * A record made elsewhere (a vault, another machine): the asset is created with its id, times,
   * websites and favorite, or, when `replaces` names it, set to exactly the record (exactRecords.ts).
   */
  readonly record?: ExactRecord | undefined;
}

/** The asset with its texts as every door stores them (content.ts wellFormed). */
function wellFormedAsset(asset: BulkAsset): BulkAsset {
  return {
    ...asset,
    name: wellFormed(asset.name),
    text: wellFormed(asset.text),
    tags: asset.tags.map(wellFormed),
    ...(asset.description !== undefined ? { description: wellFormed(asset.description) } : {}),
  };
}

/** What a batch wrote: the assets' ids in order, and how many records were already exactly as given. */
export interface BulkWritten {
  readonly ids: string[];
  readonly unchanged: number;
}

/** What the bulk path records of an asset's origin (the import area's ImportOrigins). */
export interface OriginRecorder {
  record(origin: string, assetId: string): void;
}

/** What the bulk path writes through and keeps in step (AssetService.bulkTargets). */
export interface BulkTargets {
  readonly store: AssetStore;
  /** The search index, and the derived indexers given a batch at once. */
  readonly indexing: AssetIndexing;
  readonly labels: Labels;
  /** Each asset's first revision, in the batch's transaction. */
  readonly revisions: RevisionTracking;
  readonly descriptions: Descriptions;
  readonly origins?: OriginRecorder | undefined;
  /** Who made imported assets (Format.application is required on the wire). */
  readonly application: StoredFormat['application'];
  readonly creator: string;
}

export class BulkWriter {
  private readonly context: StoreContext;
  private readonly targets: BulkTargets;
  private readonly snippetFacts: SnippetFactsStore;
  /** A record that is a memory is created as one (sync, a vault). */
  private readonly memoryFacts: MemoryFactsStore;

  constructor(context: StoreContext, targets: BulkTargets) {
    this.context = context;
    this.targets = targets;
    this.snippetFacts = new SnippetFactsStore(context.database);
    this.memoryFacts = new MemoryFactsStore(context.database);
  }

  /**
   * Settings for the length of an import (undone by disposing): a larger page cache, so a batch's
   * index pages are read once and written to the WAL once at commit instead of spilled and
   * re-read (at 100k assets the default 2 MB cache made each asset cost ~90 page reads). Where
   * SQLite checkpoints inside commits (no checkpoint process), every 32 MB of WAL instead of 4 MB, so
   * pages a later batch touches again are copied once; the checkpoint process's are left alone
   * (measured into a 25k store: the same CPU and pages written per asset as SQLite's at 32 MB).
   * The search index's segments are merged once after the import (segmentMerger.ts).
   */
  begin(): Disposable {
    const db = this.context.database.db;
    const merging = this.targets.indexing.search.deferMerging();
    const read = (pragma: string): number => Number(Object.values(db.prepare(`PRAGMA ${pragma}`).get() ?? {})[0]);
    const cache = read('cache_size');
    const checkpoint = read('wal_autocheckpoint');
    // 0: checkpoints are another connection's (walCheckpointer.ts, or the store's own for the import process's); left to it.
    const sqliteCheckpoints = checkpoint > 0;
    db.exec(`PRAGMA cache_size = -${IMPORT_CACHE_KIB}`);
    if (sqliteCheckpoints) db.exec(`PRAGMA wal_autocheckpoint = ${IMPORT_CHECKPOINT_PAGES}`);
    return {
      dispose: () => {
        merging.dispose();
        if (!db.isOpen) return;
        // Shrinking the cache frees its pages; the checkpoint leaves the WAL at its usual bound.
        db.exec(`PRAGMA cache_size = ${cache}`);
        if (!sqliteCheckpoints) return;
        db.exec(`PRAGMA wal_autocheckpoint = ${checkpoint}`);
        try {
          db.exec('PRAGMA wal_checkpoint(PASSIVE)');
        } catch {
          // Best effort: the next commit checkpoints anyway.
        }
      },
    };
  }

  /** The search index's merge after imports (segmentMerger.ts): resolves once it is done. */
  merged(): Promise<void> {
    return this.targets.indexing.search.merging?.merged() ?? Promise.resolve();
  }

  /**
   * Stores `assets` in one durable transaction; returns their ids in order. Throws and stores
   * nothing on failure. `prepared[i]`, when given, is `assets[i]`'s derived rows made ahead (an
   * import's preparer, batchPreparer.ts); what is stored is the same with or without it.
   */
  write(given: readonly BulkAsset[], author: Author, prepared?: readonly PreparedAsset[]): BulkWritten {
    if (given.length === 0) return { ids: [], unchanged: 0 };
    const assets = given.map(wellFormedAsset);
    if (prepared !== undefined && prepared.length !== assets.length) throw new Error('BulkWriter.write: prepared rows do not match the batch');
    return this.context.transaction(() => {
      const now = stamp();
      // Tags repeat across an import (a folder, a prefix): each text is looked up once per batch.
      const tagIds = new Map<string, string>();
      const tagOf = (text: string): string => {
        const key = text.toLowerCase();
        let id = tagIds.get(key);
        if (id === undefined) {
          id = this.targets.labels.createTag({ text }).id;
          tagIds.set(key, id);
        }
        return id;
      };
      const written: BatchItem[] = [];
      const links: Array<[LinkEnd, LinkEnd]> = [];
      const ids: string[] = [];
      let unchanged = 0;
      for (const [index, asset] of assets.entries()) {
        const record = asset.record;
        if (asset.replaces !== undefined && this.targets.store.exists(asset.replaces.id)) {
          if (record !== undefined) {
            if (!putExactly(this.context, this.targets, this.snippetFacts, asset, record, author)) unchanged++;
            ids.push(record.id);
          } else ids.push(this.replace(asset, asset.replaces, author, now));
          continue;
        }
        const ahead = prepared?.[index];
        const formatId = newOrderedId();
        const created = record ? stampAt(record.created) : now;
        const { doc, format } = newAssetRecords({
          assetId: record?.id ?? newOrderedId(),
          formatId,
          now: created,
          creator: this.targets.creator,
          application: record?.application ?? this.targets.application,
          classification: classificationOf(asset.language),
          bytes: bytesOf(record?.bytes?.length ?? Buffer.byteLength(asset.text)),
          name: asset.name,
        });
        format.fragment =
          record?.bytes !== undefined
            ? { bytes: { raw: [...record.bytes] }, metadata: { ext: asset.language } }
            : { string: { raw: asset.text }, metadata: { ext: asset.language } };
        if (record !== undefined) {
          doc.updated = format.updated = stampAt(record.updated);
          if (record.favorited) doc.favorited = true;
          for (const site of record.websites) {
            links.push([{ kind: 'asset', id: doc.id }, { kind: 'website', id: this.targets.labels.createWebsite({ url: site.url, name: site.name }).id }]);
          }
        }
        const tags = [...new Set(asset.tags.map(tagOf))];
        const tagText = asset.tags.join(' ');
        const document: IndexedDocument = ahead
          ? { name: asset.name, tags: tagText, code: asset.text, identifiers: ahead.identifiers, wordText: ahead.wordText }
          : indexedDocument(asset.name, tagText, asset.text);
        const rowid = this.targets.store.insert({ doc, suggested: false, language: asset.language, keywords: SearchIndex.keywords(document), formatId });
        for (const tag of tags) links.push([{ kind: 'asset', id: doc.id }, { kind: 'tag', id: tag }]);
        if (asset.description) links.push([{ kind: 'annotation', id: this.targets.descriptions.create(asset.description, now) }, { kind: 'asset', id: doc.id }]);
        this.targets.indexing.search.insert(rowid, document);
        if (asset.syntax || asset.prefixes?.length) this.snippetFacts.put(doc.id, { syntax: asset.syntax ?? false, prefixes: asset.prefixes ?? [] });
        if (record?.memory !== undefined) this.memoryFacts.put(doc.id, record.memory);
        this.targets.revisions.created(trackedOf(doc), asset.tags, asset.description || undefined, author);
        if (asset.origin !== undefined) this.targets.origins?.record(asset.origin, doc.id);
        if (record !== undefined) putAttachments(this.context, doc.id, record);
        written.push({ id: doc.id, text: asset.text, fingerprint: ahead?.fingerprint });
        ids.push(doc.id);
        this.context.publish({ kind: 'asset', id: doc.id });
        this.context.publish({ kind: 'format', id: formatId });
      }
      this.context.links.linkMany(links);
      this.targets.indexing.upsertBatch(written);
      return { ids, unchanged };
    });
  }

  /** An asset an earlier import made, updated from the same source (BulkAsset.replaces); inside the batch's transaction. */
  private replace(asset: BulkAsset, replaces: NonNullable<BulkAsset['replaces']>, author: Author, now: ReturnType<typeof stamp>): string {
    const { store, labels, indexing, revisions, descriptions } = this.targets;
    const { rowid, doc } = store.load(replaces.id);
    const turn = revisions.begin(trackedOf(doc), { author });
    // The file's tags join the asset's own (those the user added stay), as many as it has room for.
    const own = labels.tagsOfAsset(doc.id).map((tag) => tag.text);
    const seen = new Set<string>();
    const union = [...own, ...asset.tags].filter((text) => !seen.has(text.toLowerCase()) && seen.add(text.toLowerCase()));
    const tags = union.slice(0, Math.max(own.length, LIMITS.tagsPerAsset));
    const tagged = setTags(this.context, labels, doc.id, tags);
    const described = asset.description !== undefined && asset.description !== '' && descriptions.set(doc.id, asset.description, now);
    const next = editedDoc(doc, { content: { text: asset.text }, ...(replaces.languageGiven ? { language: asset.language } : {}) }, now) ?? { ...doc, updated: now };
    const indexed = indexing.indexed(next);
    store.write(rowid, next, indexed.keywords);
    indexing.reindex(rowid, next, { indexed, keywordsWritten: true, previous: doc });
    turn.finish(trackedOf(next), { tags: tagged, description: described });
    // The file says again whether the body is snippet syntax and what its prefixes are.
    if (asset.syntax !== undefined || asset.prefixes !== undefined) this.snippetFacts.put(doc.id, { syntax: asset.syntax ?? false, prefixes: asset.prefixes ?? [] });
    this.context.publish({ kind: 'asset', id: doc.id });
    return doc.id;
  }
}
