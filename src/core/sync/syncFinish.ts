/**
 * The last step of a sync: the merged commit applied to this machine's store and recorded as the
 * new base. Records are applied kind by kind (snippets, then the conversations that link to them),
 * a batch per transaction (a turn of the event loop between), each batch recording what it did in
 * `sync_base`, so a sync killed half-way and run again finishes the rest without writing anything
 * twice. A record changed here while the sync ran (it is no longer what the sync read) is left as
 * it is: its base becomes the state the sync read, so the next sync merges only the new change.
 */
import type { Disposable } from '../lifecycle.ts';
import { SYNCED_REF, type VaultRepo } from './vaultRepo.ts';
import type { PendingSync, SyncState } from './syncState.ts';
import { oidOf, type SyncKind, type SyncKindName, type SyncRecord } from './syncKinds.ts';
import type { VaultFile } from './vaultFormat.ts';
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

/** Where one kind's records are written here. */
export interface ApplyTarget<R extends SyncRecord = SyncRecord> {
  readonly kind: SyncKind<R>;
  /** The record as it is here now. */
  read(id: string): R | undefined;
  /** Why the record cannot be stored (a limit every door shares), or undefined. */
  refusal(record: R): string | undefined;
  /** Writes the records, each created under its id or set to exactly it (out of the trash first when it is there); in the batch's transaction. */
  put(records: readonly R[]): void;
  /** Deletes the record here (a trash entry by the sync); in the batch's transaction. */
  remove(id: string): void;
  /** Before any batch: what `put` will need of these incoming records that a transaction cannot wait for (secretGuard.ts). */
  prepare?(records: ReadonlyMap<string, R>): Promise<void>;
}

export interface FinisherDeps {
  readonly repo: VaultRepo;
  readonly state: SyncState;
  /** Each kind's target, in the order they are applied. */
  readonly targets: readonly ApplyTarget[];
  transaction<T>(fn: () => T): T;
  /** The import's settings for a large apply, until disposed. */
  bulk(): Disposable;
}

/** What the sync that made a merge knows of one kind's records (syncPlan.ts): no need to read it back from git. */
export interface KnownPlan {
  readonly ids: ReadonlySet<string>;
  readonly localOids: ReadonlyMap<string, string | undefined>;
  /** The merge's folder of each record the plan read (a record it did not read, `unread`, is merged as it is here: its `localOids`). */
  readonly mergedOids: ReadonlyMap<string, string | undefined>;
  readonly unread: ReadonlySet<string>;
  readonly mergedRecords: ReadonlyMap<string, SyncRecord | undefined>;
  /** Each record's base when the plan merged it (undefined: absent): what a record that cannot be applied keeps as its base. */
  readonly baseOids: ReadonlyMap<string, string | undefined>;
}

export interface KnownMerge {
  readonly plans: ReadonlyMap<SyncKindName, KnownPlan>;
  /** The last noted change when the plan read the records (syncState.ts): a record changed after it is not what the plan read. */
  readonly seq: number;
}

/** One kind's part of the apply. */
interface Folders {
  readonly target: ApplyTarget;
  /** Every id to apply (iterated more than once: the plan's own set, not a copy), and how many. */
  readonly ids: Iterable<string>;
  readonly count: number;
  /** Each record's folder here as the sync read it, and in the merge (undefined: absent). */
  localFolder(id: string): string | undefined;
  mergedFolder(id: string): string | undefined;
  /** Known: whether a record changed here since the sync read it, without reading it. */
  readonly seq?: number | undefined;
  readonly mergedRecords: ReadonlyMap<string, SyncRecord | undefined>;
  /** Each record's base before this sync (absent: none). */
  readonly baseFolders: ReadonlyMap<string, string | undefined>;
}

/** Up to `size` ids from where the apply is. */
function take(ids: Iterator<string>, size: number): string[] {
  const batch: string[] = [];
  for (let next = ids.next(); ; next = ids.next()) {
    if (next.done === true) break;
    batch.push(next.value);
    if (batch.length >= size) break;
  }
  return batch;
}

/** The plan's ids and the records' own bases not among them (a base left by an earlier sync), without copying the plan's (issue 34: 100k ids). */
function planIds(plan: ReadonlySet<string>, bases: ReadonlyMap<string, string>): { ids: Iterable<string>; count: number } {
  let more = 0;
  for (const id of bases.keys()) if (!plan.has(id)) more++;
  if (more === 0) return { ids: plan, count: plan.size };
  return {
    ids: {
      *[Symbol.iterator]() {
        yield* plan;
        for (const id of bases.keys()) if (!plan.has(id)) yield id;
      },
    },
    count: plan.size + more,
  };
}

export interface FinishOptions {
  readonly onProgress?: ((done: number, total: number) => void) | undefined;
  /** Stops between batches (the store is closing): what was applied is recorded, the next run applies the rest. */
  readonly signal?: AbortSignal | undefined;
  /** What the sync did, kept for its status, given the records this apply skipped. */
  readonly summary?: ((skipped: Skipped) => string) | undefined;
}

export type Skipped = Array<{ id: string; reason: string }>;

export class SyncFinisher {
  private readonly deps: FinisherDeps;

  constructor(deps: FinisherDeps) {
    this.deps = deps;
  }

  /**
   * Applies `pending.merged` here and records it as the base. `known`, what the sync that made it
   * already holds (its plans), saves reading it back from git; a run finishing an earlier sync reads
   * it all from the commits.
   */
  async finish(pending: PendingSync, options: FinishOptions = {}, known?: KnownMerge): Promise<{ skipped: Skipped }> {
    const { repo, state } = this.deps;
    const parts = known ? this.fromPlans(known) : await this.fromCommits(pending);
    const skipped: Skipped = [];
    const incoming = new Map<SyncKindName, Map<string, SyncRecord>>();
    let wantedCount = 0;
    for (const part of parts) {
      const wanted = new Map<string, string>();
      for (const id of part.ids) {
        const merged = part.mergedFolder(id);
        if (merged !== undefined && merged !== part.localFolder(id) && !part.mergedRecords.has(id)) wanted.set(id, merged);
      }
      const { kind } = part.target;
      const read = await repo.records(
        wanted,
        (id: string, files: readonly VaultFile[]) => kind.parse(id, files),
        (id, reason) => skipped.push({ id, reason: `the remote's version cannot be read: ${reason}` }),
      );
      for (const [id, record] of part.mergedRecords) if (record !== undefined) read.set(id, record);
      await part.target.prepare?.(read);
      incoming.set(kind.name, read);
      wantedCount += wanted.size;
    }
    // Keeps the base reachable in the private repository (for git's gc); the store's record is what counts.
    const reference = repo.setRef(SYNCED_REF, pending.merged).catch(() => undefined);
    const session = wantedCount > BULK ? this.deps.bulk() : undefined;
    const total = parts.reduce((sum, part) => sum + part.count, 0);
    let done = 0;
    try {
      for (const part of parts) {
        let size = FIRST_BATCH;
        const ids = part.ids[Symbol.iterator]();
        for (let batch = take(ids, size); batch.length > 0; batch = take(ids, size)) {
          if (options.signal?.aborted) throw abortError(options.signal);
          const started = performance.now();
          this.applyIsolated(batch, part, incoming.get(part.target.kind.name)!, skipped);
          const perRecord = (performance.now() - started) / batch.length;
          done += batch.length;
          size = Math.round(Math.min(MAX_BATCH, Math.max(MIN_BATCH, BATCH_TARGET_MS / Math.max(perRecord, 0.01))));
          options.onProgress?.(done, total);
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
    } finally {
      session?.dispose();
    }
    this.deps.transaction(() => {
      for (const part of parts) {
        const name = part.target.kind.name;
        const bases = state.bases(name);
        // A base equal to the merged commit's is the commit's own once it is the base.
        for (const id of part.ids) if (bases.has(id) && (bases.get(id) || undefined) === part.mergedFolder(id)) state.dropBase(name, id);
      }
      state.finished(pending.merged, options.summary?.(skipped) ?? '{}');
    });
    await reference;
    return { skipped };
  }

  private fromPlans(known: KnownMerge): Folders[] {
    return this.deps.targets.map((target) => {
      const plan = known.plans.get(target.kind.name);
      // The plan's maps as they are (no copy: 100k ids at a first sync); an absent id reads as undefined.
      const localOids = plan?.localOids ?? new Map<string, string | undefined>();
      const mergedOids = plan?.mergedOids ?? new Map<string, string | undefined>();
      const unread = plan?.unread ?? new Set<string>();
      return {
        target,
        ...planIds(plan?.ids ?? new Set(), this.deps.state.bases(target.kind.name)),
        localFolder: (id) => localOids.get(id),
        mergedFolder: (id) => (unread.has(id) ? localOids.get(id) : mergedOids.get(id)),
        seq: known.seq,
        mergedRecords: plan?.mergedRecords ?? new Map(),
        baseFolders: plan?.baseOids ?? new Map(),
      };
    });
  }

  /** What a sync changed, read from its commits (a run finishing an earlier sync killed after its push). */
  private async fromCommits(pending: PendingSync): Promise<Folders[]> {
    const { repo, state, targets } = this.deps;
    const local = pending.local || undefined;
    const roots = targets.map((target) => target.kind.root);
    const [merges, locals] = await Promise.all([repo.changedIds(pending.base, pending.merged, roots), repo.changedIds(pending.base, local, roots)]);
    return Promise.all(
      targets.map(async (target) => {
        const { root, dir, name } = target.kind;
        const ids = [...new Set([...(merges.get(root) ?? []), ...(locals.get(root) ?? []), ...state.bases(name).keys()])];
        const [localFolders, mergedFolders, baseCommit] = await Promise.all([repo.folders(local, ids, dir), repo.folders(pending.merged, ids, dir), repo.folders(pending.base, ids, dir)]);
        const own = state.bases(name);
        const baseFolders = new Map(ids.map((id) => [id, own.has(id) ? own.get(id) || undefined : baseCommit.get(id)]));
        return { target, ids, count: ids.length, localFolder: (id: string) => localFolders.get(id), mergedFolder: (id: string) => mergedFolders.get(id), mergedRecords: new Map(), baseFolders };
      }),
    );
  }

  /**
   * Applies a batch in one transaction; a write that fails anyway (what no refusal foresaw) rolls
   * the batch back, and its records are applied one by one: the one that fails stays pending and
   * is named, the others are applied.
   */
  private applyIsolated(batch: readonly string[], part: Folders, incoming: ReadonlyMap<string, SyncRecord>, skipped: Skipped): void {
    const named = skipped.length;
    try {
      this.deps.transaction(() => this.applyBatch(batch, part, incoming, skipped));
      return;
    } catch (error) {
      // Rolled back: what the batch named is named again as its records are applied one by one.
      skipped.length = named;
      if (batch.length === 1) {
        skipped.push({ id: batch[0]!, reason: `it could not be written here: ${(error as Error).message}` });
        this.deps.transaction(() => this.keepPending(part, batch[0]!));
        return;
      }
    }
    for (const id of batch) this.applyIsolated([id], part, incoming, skipped);
  }

  /**
   * A record the merge could not apply here stays pending: its base stays what it was before this
   * sync (its note too), so the next sync sees the remote's version as a change still to apply and
   * tries again, and never takes this machine's older version for an edit to send.
   */
  private keepPending(part: Folders, id: string): void {
    this.deps.state.setBase(part.target.kind.name, id, part.baseFolders.get(id));
  }

  private applyBatch(ids: readonly string[], part: Folders, incoming: ReadonlyMap<string, SyncRecord>, skipped: Skipped): void {
    const { state } = this.deps;
    const { target } = part;
    const kind = target.kind.name;
    const puts: SyncRecord[] = [];
    for (const id of ids) {
      const merged = part.mergedFolder(id);
      const read = part.localFolder(id);
      // What is here now: what the sync read, unless a change was noted since (then read to see).
      const changed = part.seq !== undefined && state.changedAfter(kind, id, part.seq);
      const now = part.seq === undefined || changed ? oidOf(target.kind, target.read(id)) : read;
      if (now === merged) {
        state.clean(kind, id);
        state.dropBase(kind, id);
        continue;
      }
      if (now !== read) {
        // Changed here since the sync read it: the next sync merges that change on what it read.
        state.setBase(kind, id, read);
        continue;
      }
      if (merged === undefined) target.remove(id);
      else {
        const record = incoming.get(id);
        const refused = record === undefined ? undefined : target.refusal(record);
        if (record !== undefined && refused === undefined) {
          puts.push(record);
          continue;
        }
        // Unreadable (reported when read) or refused: not applied, so not synced either.
        if (record !== undefined) skipped.push({ id, reason: refused! });
        this.keepPending(part, id);
        continue;
      }
      state.clean(kind, id);
      state.setBase(kind, id, merged);
    }
    if (puts.length === 0) return;
    target.put(puts);
    for (const record of puts) {
      // The write noted the record as changed here; it is what the merged commit holds.
      state.clean(kind, record.id);
      state.setBase(kind, record.id, part.mergedFolder(record.id));
    }
  }
}
