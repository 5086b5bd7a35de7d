/**
 * The last step of a sync: the merged commit applied to this machine's store and recorded as the
 * new base. Records are applied a batch per transaction (a turn of the event loop between), each
 * batch recording what it did in `sync_base`, so a sync killed half-way and run again finishes the
 * rest without writing anything twice. A record changed here while the sync ran (it is no longer
 * what the sync read) is left as it is: its base becomes the state the sync read, so the next sync
 * merges only the new change.
 */
import type { BulkAsset, BulkWriter } from '../assets/bulkWriter.ts';
import type { Author } from '../history/authors.ts';
import { bulkAssetOf, recordRefusal, type LibraryRecords } from './libraryRecords.ts';
import { recordOid, SYNCED_REF, type VaultRepo } from './vaultRepo.ts';
import type { PendingSync, SyncState } from './syncState.ts';
import type { VaultAsset } from './vaultFormat.ts';

/** Records per transaction while applying. */
const BATCH = 250;
/** Applying more than this many records uses the import's settings (a larger cache, the search index merged after). */
const BULK = 1000;

export interface FinisherDeps {
  readonly repo: VaultRepo;
  readonly state: SyncState;
  readonly records: LibraryRecords;
  readonly writer: BulkWriter;
  transaction<T>(fn: () => T): T;
  exists(id: string): boolean;
  deleteAsset(id: string, author: Author): void;
  readonly author: Author;
}

export interface FinishOptions {
  readonly onProgress?: ((done: number, total: number) => void) | undefined;
  /** What the sync did, kept for its status. */
  readonly summary?: string | undefined;
}

export class SyncFinisher {
  private readonly deps: FinisherDeps;

  constructor(deps: FinisherDeps) {
    this.deps = deps;
  }

  async finish(pending: PendingSync, options: FinishOptions = {}): Promise<{ skipped: Array<{ id: string; reason: string }> }> {
    const { repo, state, records } = this.deps;
    const local = pending.local || undefined;
    const [merges, locals] = await Promise.all([repo.changedIds(pending.base, pending.merged), repo.changedIds(pending.base, local)]);
    const ids = [...new Set([...merges, ...locals, ...state.bases().keys()])];
    const [localFolders, mergedFolders] = await Promise.all([repo.folders(local, ids), repo.folders(pending.merged, ids)]);
    const wanted = new Map<string, string>();
    for (const id of ids) {
      const merged = mergedFolders.get(id);
      if (merged !== undefined && recordOid(records.read(id)) !== merged) wanted.set(id, merged);
    }
    const skipped: Array<{ id: string; reason: string }> = [];
    const incoming = await repo.records(wanted, (id, reason) => skipped.push({ id, reason: `the remote's version cannot be read: ${reason}` }));
    const session = wanted.size > BULK ? this.deps.writer.begin() : undefined;
    try {
      for (let at = 0; at < ids.length; at += BATCH) {
        const batch = ids.slice(at, at + BATCH);
        this.deps.transaction(() => this.applyBatch(batch, localFolders, mergedFolders, incoming, skipped));
        options.onProgress?.(Math.min(at + BATCH, ids.length), ids.length);
        await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      session?.dispose();
    }
    this.deps.transaction(() => {
      const bases = state.bases();
      // A base equal to the merged commit's is the commit's own once it is the base.
      for (const id of ids) if (bases.has(id) && (bases.get(id) || undefined) === mergedFolders.get(id)) state.dropBase(id);
      state.finished(pending.merged, options.summary ?? '{}');
    });
    await repo.setRef(SYNCED_REF, pending.merged);
    return { skipped };
  }

  private applyBatch(
    ids: readonly string[],
    localFolders: ReadonlyMap<string, string>,
    mergedFolders: ReadonlyMap<string, string>,
    incoming: ReadonlyMap<string, VaultAsset>,
    skipped: Array<{ id: string; reason: string }>,
  ): void {
    const { state, records, author } = this.deps;
    const puts: BulkAsset[] = [];
    const written: VaultAsset[] = [];
    for (const id of ids) {
      const now = recordOid(records.read(id));
      const merged = mergedFolders.get(id);
      if (now === merged) {
        state.clean(id);
        state.setBase(id, merged);
        continue;
      }
      if (now !== localFolders.get(id)) {
        // Changed here since the sync read it: the next sync merges that change on what it read.
        state.setBase(id, localFolders.get(id));
        continue;
      }
      if (merged === undefined) {
        this.deps.deleteAsset(id, author);
        records.setConflictOf(id, undefined);
      } else {
        const record = incoming.get(id);
        const refused = record === undefined ? 'the remote version was not read' : recordRefusal(record);
        if (record === undefined || refused !== undefined) {
          if (record !== undefined) skipped.push({ id, reason: refused! });
        } else {
          puts.push(bulkAssetOf(record, this.deps.exists(id)));
          written.push(record);
          continue;
        }
      }
      state.clean(id);
      state.setBase(id, merged);
    }
    if (puts.length === 0) return;
    this.deps.writer.write(puts, author);
    for (const record of written) {
      records.setConflictOf(record.id, record.conflictOf);
      // The write noted the record as changed here; it is what the merged commit holds.
      state.clean(record.id);
      state.setBase(record.id, mergedFolders.get(record.id));
    }
  }
}
