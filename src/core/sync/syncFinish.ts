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
import { abortError } from './git.ts';

/**
 * Records per transaction while applying: the first batch is small, the next ones sized to take
 * about BATCH_TARGET_MS (the event loop waits for a whole batch; a commit per 100 records made a
 * 10k library's apply 40% slower than batches of 250).
 */
const FIRST_BATCH = 100;
const MIN_BATCH = 50;
const MAX_BATCH = 1000;
const BATCH_TARGET_MS = 200;
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
  /** Brings a deleted asset back from the trash under its id; false when the trash does not hold it. */
  restoreTrashed?(id: string, author: Author): boolean;
  readonly author: Author;
}

/** What the sync that made a merge knows of it (syncPlan.ts): no need to read it back from git. */
export interface KnownMerge {
  readonly ids: Iterable<string>;
  readonly localOids: ReadonlyMap<string, string | undefined>;
  readonly mergedOids: ReadonlyMap<string, string | undefined>;
  readonly mergedRecords: ReadonlyMap<string, VaultAsset | undefined>;
  /** The last noted change when the plan read the records (syncState.ts): an asset changed after it is not what the plan read. */
  readonly seq: number;
}

interface Folders {
  readonly ids: string[];
  readonly localFolders: ReadonlyMap<string, string>;
  readonly mergedFolders: ReadonlyMap<string, string>;
  /** Known: whether an asset changed here since the sync read it, without reading it. */
  readonly seq?: number | undefined;
}

function fromPlan(known: KnownMerge, bases: Iterable<string>): Folders {
  const defined = (oids: ReadonlyMap<string, string | undefined>): Map<string, string> => new Map([...oids].flatMap(([id, oid]) => (oid !== undefined ? [[id, oid] as const] : [])));
  return { ids: [...new Set([...known.ids, ...bases])], localFolders: defined(known.localOids), mergedFolders: defined(known.mergedOids), seq: known.seq };
}

export interface FinishOptions {
  readonly onProgress?: ((done: number, total: number) => void) | undefined;
  /** Stops between batches (the store is closing): what was applied is recorded, the next run applies the rest. */
  readonly signal?: AbortSignal | undefined;
  /** What the sync did, kept for its status. */
  readonly summary?: string | undefined;
}

export class SyncFinisher {
  private readonly deps: FinisherDeps;

  constructor(deps: FinisherDeps) {
    this.deps = deps;
  }

  /**
   * Applies `pending.merged` here and records it as the base. `known`, what the sync that made it
   * already holds (its plan), saves reading it back from git; a run finishing an earlier sync reads
   * it all from the commits.
   */
  async finish(pending: PendingSync, options: FinishOptions = {}, known?: KnownMerge): Promise<{ skipped: Array<{ id: string; reason: string }> }> {
    const { repo, state, records } = this.deps;
    const folders = known ? fromPlan(known, state.bases().keys()) : await this.fromCommits(pending);
    const { ids, mergedFolders } = folders;
    const wanted = new Map<string, string>();
    for (const id of ids) {
      const merged = mergedFolders.get(id);
      if (merged !== undefined && merged !== folders.localFolders.get(id) && !known?.mergedRecords.has(id)) wanted.set(id, merged);
    }
    const skipped: Array<{ id: string; reason: string }> = [];
    const incoming = await repo.records(wanted, (id, reason) => skipped.push({ id, reason: `the remote's version cannot be read: ${reason}` }));
    for (const [id, record] of known?.mergedRecords ?? []) if (record !== undefined) incoming.set(id, record);
    // Keeps the base reachable in the private repository (for git's gc); the store's record is what counts.
    const reference = repo.setRef(SYNCED_REF, pending.merged).catch(() => undefined);
    const session = wanted.size > BULK ? this.deps.writer.begin() : undefined;
    try {
      let size = FIRST_BATCH;
      for (let at = 0; at < ids.length; ) {
        if (options.signal?.aborted) throw abortError(options.signal);
        const batch = ids.slice(at, at + size);
        const started = performance.now();
        this.deps.transaction(() => this.applyBatch(batch, folders, incoming, skipped));
        const perRecord = (performance.now() - started) / batch.length;
        at += batch.length;
        size = Math.round(Math.min(MAX_BATCH, Math.max(MIN_BATCH, BATCH_TARGET_MS / Math.max(perRecord, 0.01))));
        options.onProgress?.(at, ids.length);
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
    await reference;
    return { skipped };
  }

  /** What a sync changed, read from its commits (a run finishing an earlier sync killed after its push). */
  private async fromCommits(pending: PendingSync): Promise<Folders> {
    const { repo, state } = this.deps;
    const local = pending.local || undefined;
    const [merges, locals] = await Promise.all([repo.changedIds(pending.base, pending.merged), repo.changedIds(pending.base, local)]);
    const ids = [...new Set([...merges, ...locals, ...state.bases().keys()])];
    const [localFolders, mergedFolders] = await Promise.all([repo.folders(local, ids), repo.folders(pending.merged, ids)]);
    return { ids, localFolders, mergedFolders };
  }

  private applyBatch(ids: readonly string[], folders: Folders, incoming: ReadonlyMap<string, VaultAsset>, skipped: Array<{ id: string; reason: string }>): void {
    const { state, records, author } = this.deps;
    const puts: BulkAsset[] = [];
    const written: VaultAsset[] = [];
    for (const id of ids) {
      const merged = folders.mergedFolders.get(id);
      const read = folders.localFolders.get(id);
      // What is here now: what the sync read, unless a change was noted since (then read to see).
      const changed = folders.seq !== undefined && state.changedAfter(id, folders.seq);
      const now = folders.seq === undefined || changed ? recordOid(records.read(id)) : read;
      if (now === merged) {
        state.clean(id);
        state.dropBase(id);
        continue;
      }
      if (now !== read) {
        // Changed here since the sync read it: the next sync merges that change on what it read.
        state.setBase(id, read);
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
          // A snippet deleted here that the other machine changed comes back from the trash (its
          // entry goes), then takes the other machine's version.
          const here = this.deps.exists(id) || this.deps.restoreTrashed?.(id, author) === true;
          puts.push(bulkAssetOf(record, here));
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
      state.setBase(record.id, folders.mergedFolders.get(record.id));
    }
  }
}
