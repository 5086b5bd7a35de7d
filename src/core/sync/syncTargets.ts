/**
 * Each kind of record as a sync meets it here: where the plan reads it (syncEngine.ts's
 * KindSource) and where the apply writes it (syncFinish.ts's ApplyTarget), one object per kind.
 * Snippets are written through the bulk path (a revision by the sync for each), conversations
 * through their records (ids and times kept).
 * A delete is a trash entry by the sync; a record deleted here that another machine changed comes
 * back out of the trash under its id (its entry goes) before it takes that version.
 */
import type { BulkWriter } from '../assets/bulkWriter.ts';
import type { Author } from '../history/authors.ts';
import { adoptLabels, bulkAssetOf, recordRefusal, type LibraryRecords } from './libraryRecords.ts';
import type { Labels } from '../assets/labels.ts';
import { conversationRefusal, type ConversationRecords } from './conversationRecords.ts';
import type { ApplyTarget } from './syncFinish.ts';
import type { KindSource } from './syncEngine.ts';
import { ASSET_KIND, CONVERSATION_KIND, type SyncRecord } from './syncKinds.ts';
import type { VaultAsset } from './vaultFormat.ts';
import type { VaultConversation } from './vaultConversations.ts';

/** One kind of record, read and written here. */
export type SyncedKind<R extends SyncRecord> = KindSource<R> & ApplyTarget<R>;

/** What both kinds need of the store's areas. */
export interface TargetDeps {
  readonly author: Author;
  /** The store's tags and websites (a record applied here may respell one: labelSpelling.ts). */
  readonly labels: Labels;
  /** Brings a deleted record back from the trash under its id; false when the trash does not hold it. */
  restoreTrashed(id: string, author: Author): boolean;
}

export function assetTarget(
  deps: TargetDeps & {
    readonly records: LibraryRecords;
    readonly writer: BulkWriter;
    exists(id: string): boolean;
    deleteAsset(id: string, author: Author): void;
    allIds(): Iterable<readonly string[]>;
    count(): number;
  },
): SyncedKind<VaultAsset> {
  return {
    kind: ASSET_KIND,
    read: (id) => deps.records.read(id),
    allIds: () => deps.allIds(),
    count: () => deps.count(),
    refusal: recordRefusal,
    put(records) {
      for (const record of records) adoptLabels(deps.labels, record);
      const puts = records.map((record) => bulkAssetOf(record, deps.exists(record.id) || deps.restoreTrashed(record.id, deps.author)));
      deps.writer.write(puts, deps.author);
      for (const record of records) deps.records.setConflictOf(record.id, record.conflictOf, record.conflictFrom);
    },
    remove(id) {
      deps.deleteAsset(id, deps.author);
      deps.records.setConflictOf(id, undefined);
    },
  };
}

export function conversationTarget(
  deps: TargetDeps & {
    readonly records: ConversationRecords;
    exists(id: string): boolean;
    deleteConversation(id: string, author: Author): void;
  },
): SyncedKind<VaultConversation> {
  return {
    kind: CONVERSATION_KIND,
    read: (id) => deps.records.read(id),
    allIds: () => [deps.records.ids()],
    count: () => deps.records.count(),
    refusal: conversationRefusal,
    put(records) {
      for (const record of records) {
        adoptLabels(deps.labels, record);
        if (!deps.exists(record.id)) deps.restoreTrashed(record.id, deps.author);
        deps.records.put(record);
      }
    },
    remove(id) {
      deps.deleteConversation(id, deps.author);
    },
  };
}
