/**
 * An asset's way into the trash and back (docs/trash.md). Its delete keeps, in its own transaction
 * and before anything is removed, the asset's document as it was written, every link it has, a
 * copy of each tag and website it names, and the records that go with it (its activities, a
 * description annotation nothing else names); the delete then removes the rest as it always did
 * (the row, its indexes, fingerprints and vectors, the title index), so every operation of the
 * interface finds it gone. A restore puts the row back under its id and indexes it again, after
 * the trash area has put back its records and links (the index reads the tags from the links).
 */
import type { StoreContext } from '../context.ts';
import type { WriteOptions } from '../history/authors.ts';
import type { RevisionTracking } from '../history/revisionTracker.ts';
import type { TrashEntry, TrashStore } from '../trash/trashStore.ts';
import type { AssetStore } from './assetStore.ts';
import type { AssetIndexing } from './assetIndexers.ts';
import type { StoredAsset } from './storedAsset.ts';
import { originalContent } from './assetHeads.ts';
import { originalFormat, trackedOf } from './assetRevisions.ts';

/** Characters of its text a trashed asset's listing shows. */
export const PREVIEW_CHARS = 240;

/** The live row's columns a trashed asset's entry keeps besides its document. */
interface AssetFacts {
  readonly suggested: boolean;
}

/** The asset's row as its delete read it. */
export interface TrashedRow {
  readonly doc: StoredAsset;
  /** The document as it was written (kept as it is: a 60 MB one is not written out again). */
  readonly data: string;
  readonly suggested: boolean;
}

export interface AssetTrashParts {
  readonly context: StoreContext;
  readonly store: AssetStore;
  readonly indexing: AssetIndexing;
  readonly revisions: RevisionTracking;
  readonly trash: TrashStore;
}

export class AssetTrash {
  private readonly parts: AssetTrashParts;

  constructor(parts: AssetTrashParts) {
    this.parts = parts;
  }

  /**
   * Inside the delete's transaction, before it removes anything: keeps the asset in the trash.
   * Returns the annotations that go with it (linked to nothing else), which the delete removes.
   */
  keep(row: TrashedRow, by: WriteOptions): string[] {
    const { trash, context } = this.parts;
    const { doc, data } = row;
    const self = { kind: 'asset', id: doc.id } as const;
    const facts: AssetFacts = { suggested: row.suggested };
    trash.keep({
      kind: 'asset',
      id: doc.id,
      name: doc.name ?? '',
      preview: originalContent(doc).text.slice(0, PREVIEW_CHARS),
      language: originalFormat(doc)?.classification.specific,
      messages: undefined,
      deleted: Date.now(),
      author: by.author,
      size: Buffer.byteLength(data),
      facts: JSON.stringify(facts),
      data,
    });
    trash.keepLinks(doc.id, self);
    trash.keepShared(doc.id);
    trash.keepRecords(doc.id, 'activity', context.links.partners(self, 'activity'), true);
    const annotations = trash.onlyLinkedTo(self, 'annotation');
    trash.keepRecords(doc.id, 'annotation', annotations, true);
    return annotations;
  }

  /**
   * Puts a trashed asset back under its id (inside the restore's transaction, its links already
   * made again): its row, its indexes, and a revision by whoever restored it. Returns that revision.
   */
  restore(entry: TrashEntry, by: WriteOptions): string {
    const { store, indexing, revisions, context } = this.parts;
    const doc = JSON.parse(entry.data) as StoredAsset;
    const facts = JSON.parse(entry.facts) as Partial<AssetFacts>;
    const indexed = indexing.indexed(doc);
    const language = entry.language ?? originalFormat(doc)?.classification.specific ?? 'txt';
    const rowid = store.reinsert({ doc, data: entry.data, suggested: facts.suggested === true, language, keywords: indexed.keywords });
    indexing.reindex(rowid, doc, { created: true, indexed, keywordsWritten: true });
    const revision = revisions.restored(trackedOf(doc), by.author);
    context.publish({ kind: 'asset', id: doc.id });
    for (const format of doc.formats.iterable) context.publish({ kind: 'format', id: format.id });
    return revision;
  }
}
