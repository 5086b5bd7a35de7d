/**
 * The kinds of record a sync carries (docs/sync.md): snippets and conversations. Each is a folder
 * per record in its own part of the vault; a kind says where a record's folder is, what files it
 * makes and reads back, and how two versions of it merge. The plan (syncPlan.ts) and the apply
 * (syncFinish.ts) work the same way for every kind.
 */
import { mergeRecord, type RecordMerge, type TextMerge } from './recordMerge.ts';
import { mergeConversation } from './conversationMerge.ts';
import { assetDir, assetFiles, ASSETS_DIR, parseAsset, type VaultAsset, type VaultFile } from './vaultFormat.ts';
import { conversationDir, conversationFiles, CONVERSATIONS_DIR, parseConversation, type VaultConversation } from './vaultConversations.ts';
import { folderOid } from './vaultRepo.ts';

export type SyncKindName = 'asset' | 'conversation';

/** A record of any kind: what the plan and the apply hold without knowing which. */
export type SyncRecord = VaultAsset | VaultConversation;

/**
 * One kind of record. Methods (not function properties): a kind of one record type is used where
 * records of any kind are held, and each kind only ever meets its own records.
 */
export interface SyncKind<R extends SyncRecord = SyncRecord> {
  readonly name: SyncKindName;
  /** The vault's folder that holds this kind's records. */
  readonly root: string;
  /** What the user is told it is ("snippets", "conversations"). */
  readonly plural: string;
  dir(id: string): string;
  files(record: R): readonly VaultFile[];
  parse(id: string, files: readonly VaultFile[]): R;
  merge(base: R | undefined, ours: R | undefined, theirs: R | undefined, oursOid: string | undefined, mergeText: TextMerge): Promise<RecordMerge<R>>;
  /** Its name, as notices and commit messages show it. */
  label(record: R): string;
}

export const ASSET_KIND: SyncKind<VaultAsset> = {
  name: 'asset',
  root: ASSETS_DIR,
  plural: 'snippets',
  dir: assetDir,
  files: assetFiles,
  parse: (id, files) => parseAsset(id, files),
  merge: mergeRecord,
  label: (record) => record.name,
};

export const CONVERSATION_KIND: SyncKind<VaultConversation> = {
  name: 'conversation',
  root: CONVERSATIONS_DIR,
  plural: 'conversations',
  dir: conversationDir,
  files: conversationFiles,
  parse: (id, files) => parseConversation(id, files),
  merge: (base, ours, theirs) => Promise.resolve(mergeConversation(base, ours, theirs)),
  label: (record) => record.name ?? 'Untitled conversation',
};

/** Each record's folder id, computed once: a sync compares the same (immutable) record objects many times, and their files are not kept. */
const folderOids = new WeakMap<SyncRecord, string>();

/** A record's files and its folder's git id, the files made once for both (a commit writes what it compares); the id kept as oidOf's. */
export function folderOf<R extends SyncRecord>(kind: SyncKind<R>, record: R): { readonly files: readonly VaultFile[]; readonly oid: string } {
  const files = kind.files(record);
  return { files, oid: cachedOid(record, () => files) };
}

/** The git tree id of a record's folder (undefined: no record). */
export function oidOf<R extends SyncRecord>(kind: SyncKind<R>, record: R | undefined): string | undefined {
  return record === undefined ? undefined : cachedOid(record, () => kind.files(record));
}

/** `record`'s folder id from folderOids, else computed from `files` (made only then) and kept. */
function cachedOid(record: SyncRecord, files: () => readonly VaultFile[]): string {
  let oid = folderOids.get(record);
  if (oid === undefined) {
    oid = folderOid(files());
    folderOids.set(record, oid);
  }
  return oid;
}
