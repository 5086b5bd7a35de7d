/**
 * The trash area (docs/trash.md): deleted assets and conversations, listed, restored whole, deleted
 * for good one by one or all at once, and deleted for good after the retention period. What goes
 * in is decided by the areas' deletes (assetTrash.ts, conversationTrash.ts), inside their own
 * transactions; the live tables never hold a trashed record.
 */
import type { StoreContext } from '../context.ts';
import { ConflictError, InvalidInputError, NotFoundError } from '../errors.ts';
import type { Author, WriteOptions } from '../history/authors.ts';
import type { Disposable } from '../lifecycle.ts';
import type { LinkEnd } from '../store/links.ts';
import { Relinking } from './relinking.ts';
import { TrashRetention, type MassDeleteGuard, type RetentionOptions } from './trashRetention.ts';
import { TRASH_KINDS, type TrashCursor, type TrashEntry, type TrashHead, type TrashKind, type TrashStore } from './trashStore.ts';

export { TRASH_KINDS, type TrashKind } from './trashStore.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Days an entry stays when no setting says otherwise. */
export const DEFAULT_RETENTION_DAYS = 30;
/** The longest retention a setting may ask for (0, keep until emptied, aside). */
export const MAX_RETENTION_DAYS = 3650;
/** Entries a listing answers when not asked for fewer, and at most. */
export const DEFAULT_PAGE = 100;
export const MAX_PAGE = 500;
/** Entries deleted for good per transaction while the trash is emptied (a turn of the event loop between). */
const EMPTY_STEP = 16;

/** An entry as a listing shows it. */
export interface TrashItem {
  readonly id: string;
  readonly kind: TrashKind;
  readonly name: string;
  /** The opening of its text: an asset's content, a conversation's first message. */
  readonly preview: string;
  /** An asset's language. */
  readonly language?: string;
  /** A conversation's message count. */
  readonly messages?: number;
  /** When it was deleted (ISO-8601 UTC). */
  readonly deleted: string;
  readonly deletedBy: Author;
  /** Bytes it keeps. */
  readonly size: number;
  /** When it will be deleted for good; null when entries are kept until the trash is emptied. */
  readonly expires: string | null;
}

export interface TrashPage {
  /** Newest deleted first. */
  readonly items: readonly TrashItem[];
  /** Pass as `after` for the next page; absent on the last page. */
  readonly next?: string;
  /** Entries in the trash (of the kind asked for) and the bytes they keep. */
  readonly total: number;
  readonly bytes: number;
  /** 0: kept until the trash is emptied. */
  readonly retentionDays: number;
}

export interface TrashListOptions {
  readonly limit?: number | undefined;
  /** A page's `next`. */
  readonly after?: string | undefined;
  readonly kind?: TrashKind | undefined;
}

export interface TrashRestored {
  readonly id: string;
  readonly kind: TrashKind;
  /** An asset's current revision after the restore (a revision by whoever restored it). */
  readonly revision?: string;
}

export interface TrashDeleted {
  readonly id: string;
  readonly kind: TrashKind;
  /** Revisions deleted with it (an asset's). */
  readonly revisions: number;
}

export interface EmptyProgress {
  readonly deleted: number;
  readonly total: number;
}

export interface Emptied {
  readonly deleted: number;
  /** The backup taken first when emptying deleted a large share of the library (its name in the backups folder). */
  readonly backup?: string;
}

/** What the trash asks of an area whose records it keeps. */
export interface TrashTarget {
  /** Whether the id (or a record the entry brings back with it) is taken by a live record again. */
  live(id: string): boolean;
  /** Puts the record back (its kept records and links are back already); returns its current revision, when it has revisions. */
  restore(entry: TrashEntry, by: WriteOptions): string | undefined;
  /** The entry is gone for good: what the area still keeps of it goes too. Returns the revisions deleted. */
  forget(id: string): number;
}

export interface TrashDeps {
  readonly targets: Readonly<Record<TrashKind, TrashTarget>>;
  /** Whether a record a trashed one linked to exists (assets and messages live in tables of their own). */
  readonly exists: (end: LinkEnd) => boolean;
  /** Live assets: what a mass delete is weighed against. */
  readonly liveAssets: () => number;
  readonly backups: MassDeleteGuard;
}

export interface TrashOptions extends RetentionOptions {
  /** Days an entry stays before it is deleted for good; 0 keeps entries until the trash is emptied (default 30). */
  readonly retentionDays?: number;
}

export class TrashService implements Disposable {
  private readonly context: StoreContext;
  private readonly store: TrashStore;
  private readonly deps: TrashDeps;
  private readonly relinking: Relinking;
  readonly retentionDays: number;
  /** Deletes expired entries for good in the background. */
  readonly retention: TrashRetention;
  private emptying = false;

  constructor(context: StoreContext, store: TrashStore, deps: TrashDeps, options: TrashOptions = {}) {
    this.context = context;
    this.store = store;
    this.deps = deps;
    this.relinking = new Relinking(context, store, deps.exists);
    this.retentionDays = checkRetentionDays(options.retentionDays ?? DEFAULT_RETENTION_DAYS);
    const retentionMs = this.retentionDays * DAY_MS;
    this.retention = new TrashRetention(context, store, {
      retentionMs,
      guard: deps.backups,
      liveAssets: deps.liveAssets,
      forget: (head) => this.forget(head),
      ...options,
    });
  }

  /** A page of entries, newest deleted first. */
  list(options: TrashListOptions = {}): TrashPage {
    const limit = options.limit ?? DEFAULT_PAGE;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE) throw new InvalidInputError(`limit must be a whole number from 1 to ${MAX_PAGE}`);
    const heads = this.store.page(limit + 1, options.kind, parseCursor(options.after));
    const items = heads.slice(0, limit);
    const last = items[items.length - 1];
    const { count, bytes } = this.store.totals(options.kind);
    return {
      items: items.map((head) => this.itemOf(head)),
      ...(heads.length > limit && last ? { next: `${last.deleted}.${last.rowid}` } : {}),
      total: count,
      bytes,
      retentionDays: this.retentionDays,
    };
  }

  /** One entry as a listing shows it. */
  get(id: string): TrashItem {
    const head = this.store.head(id);
    if (!head) throw new NotFoundError('trash entry', id);
    return this.itemOf(head);
  }

  /**
   * Brings an entry back whole, in one transaction: its records, its links (see relinking.ts) and
   * the record itself under its id. Refused with a ConflictError when its id is taken again.
   */
  restore(id: string, by: WriteOptions): TrashRestored {
    return this.context.transaction(() => {
      const entry = this.store.entry(id);
      if (!entry) throw new NotFoundError('trash entry', id);
      const target = this.deps.targets[entry.kind];
      if (target.live(id)) throw new ConflictError(`The ${entry.kind} ${JSON.stringify(id)} exists again outside the trash; it cannot be restored over it.`);
      this.relinking.putBack(id);
      const revision = target.restore(entry, by);
      this.store.remove(id);
      return { id, kind: entry.kind, ...(revision !== undefined ? { revision } : {}) };
    });
  }

  /** Deletes an entry for good, with what its area still keeps of it (an asset's revisions). */
  deleteForever(id: string): TrashDeleted {
    return this.context.transaction(() => {
      const head = this.store.head(id);
      if (!head) throw new NotFoundError('trash entry', id);
      return { id, kind: head.kind, revisions: this.forget(head) };
    });
  }

  /**
   * Deletes every entry deleted until now for good, a few per transaction with turns of the event
   * loop between; a backup is taken first when that deletes a large share of the library. The
   * signal stops it between steps (what was deleted stays deleted).
   */
  async empty(options: { signal?: AbortSignal | undefined; onProgress?: ((progress: EmptyProgress) => void) | undefined } = {}): Promise<Emptied> {
    this.refuseWhileEmptying();
    this.emptying = true;
    try {
      const until = Date.now();
      const { count, assets } = this.store.countDeletedBy(until);
      const backup = count === 0 ? undefined : await this.deps.backups.beforeMassDelete('empty-trash', assets, this.deps.liveAssets() + assets, options.signal);
      let deleted = 0;
      options.onProgress?.({ deleted, total: count });
      for (;;) {
        await this.context.writeLockReady();
        options.signal?.throwIfAborted();
        const step = this.store.deletedBy(until, EMPTY_STEP);
        if (step.length === 0) break;
        // Committed without waiting for the disk (the WAL is synced on libuv's thread pool), as the
        // retention pass does: a synced COMMIT fsyncs on the event loop, and after a run of writes
        // had grown the WAL (20k deletes: 0.5–3 GB) the first one held health about a second. A
        // crash before the flush below may bring entries back into the trash, never half of one.
        this.context.unsyncedTransaction(() => step.forEach((head) => this.forget(head)));
        deleted += step.length;
        options.onProgress?.({ deleted, total: Math.max(count, deleted) });
        await new Promise((resolve) => setImmediate(resolve));
      }
      // Acknowledged once on disk: the steps' WAL is synced off the event loop before the empty answers.
      await this.context.database.settled();
      return { deleted, ...(backup ? { backup: backup.name } : {}) };
    } finally {
      this.emptying = false;
    }
  }

  /**
   * A ConflictError while the trash is being emptied: called by a door before it starts its reply,
   * so a second empty is refused as such (409), not as an error line after a 200.
   */
  refuseWhileEmptying(): void {
    if (this.emptying) throw new ConflictError('The trash is being emptied already.');
  }

  dispose(): void {
    this.retention.dispose();
  }

  /** Removes an entry and what its area keeps of it (the caller holds the transaction); returns the revisions deleted. */
  private forget(head: { readonly id: string; readonly kind: TrashKind }): number {
    if (!this.store.remove(head.id)) return 0;
    return this.deps.targets[head.kind].forget(head.id);
  }

  private itemOf(head: TrashHead): TrashItem {
    return {
      id: head.id,
      kind: head.kind,
      name: head.name,
      preview: head.preview,
      ...(head.language !== undefined ? { language: head.language } : {}),
      ...(head.messages !== undefined ? { messages: head.messages } : {}),
      deleted: new Date(head.deleted).toISOString(),
      deletedBy: head.author,
      size: head.size,
      expires: this.retentionDays === 0 ? null : new Date(head.deleted + this.retentionDays * DAY_MS).toISOString(),
    };
  }
}

export function isTrashKind(value: string): value is TrashKind {
  return (TRASH_KINDS as readonly string[]).includes(value);
}

/** A retention setting, checked: a whole number of days from 0 (keep until emptied) to MAX_RETENTION_DAYS. */
export function checkRetentionDays(days: number): number {
  if (!Number.isInteger(days) || days < 0 || days > MAX_RETENTION_DAYS) {
    throw new InvalidInputError(`The trash's retention must be a whole number of days from 0 to ${MAX_RETENTION_DAYS}, not ${days}`);
  }
  return days;
}

function parseCursor(after: string | undefined): TrashCursor | undefined {
  if (after === undefined || after === '') return undefined;
  const match = /^(\d{1,15})\.(\d{1,15})$/.exec(after);
  if (!match) throw new InvalidInputError(`after must be a page's next value, not ${JSON.stringify(after.slice(0, 64))}`);
  return { deleted: Number(match[1]), rowid: Number(match[2]) };
}
