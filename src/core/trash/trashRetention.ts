/**
 * Entries older than the retention period are deleted for good in the background: looked for a
 * minute after the store opens and every hour after, deleted a few per transaction with a turn of
 * the event loop between (a step writes nothing anyone was told was saved, so it does not wait for
 * the disk: a crash may undo one, and the next pass does it again). A pass that would delete a
 * large share of the library takes a backup first, and waits while an import writes.
 */
import type { Logger, StoreContext } from '../context.ts';
import { toDisposable, type Disposable } from '../lifecycle.ts';
import type { TrashKind, TrashStore } from './trashStore.ts';

/** What a pass asks before deleting many assets (Backups.beforeMassDelete): a copy, or a refusal that stops it. */
export interface MassDeleteGuard {
  beforeMassDelete(what: string, deleting: number, total: number, signal?: AbortSignal): Promise<{ readonly name: string } | undefined>;
}

export interface RetentionOptions {
  /** The first pass, this long after the store opens (default a minute), then one every `passEveryMs` (default an hour). */
  readonly firstPassMs?: number;
  readonly passEveryMs?: number;
  /** The clock entries age by (tests set their own). */
  readonly now?: () => number;
  readonly logger?: Logger;
}

interface RetentionDeps extends RetentionOptions {
  /** 0: entries are kept until the trash is emptied. */
  readonly retentionMs: number;
  readonly guard: MassDeleteGuard;
  readonly liveAssets: () => number;
  /** Deletes one entry for good (inside the step's transaction). */
  readonly forget: (head: { readonly id: string; readonly kind: TrashKind }) => number;
}

/** Entries deleted for good per step. */
const STEP = 16;
const RETRY_MS = 5 * 60_000;

export class TrashRetention implements Disposable {
  private readonly context: StoreContext;
  private readonly store: TrashStore;
  private readonly deps: RetentionDeps;
  private readonly now: () => number;
  private readonly stop = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;
  private deferrals = 0;

  constructor(context: StoreContext, store: TrashStore, deps: RetentionDeps) {
    this.context = context;
    this.store = store;
    this.deps = deps;
    this.now = deps.now ?? Date.now;
    if (deps.retentionMs > 0) this.schedule(deps.firstPassMs ?? 60_000);
  }

  /**
   * Deletes for good every entry deleted more than the retention period before `now`, a step at a
   * time; resolves with how many (the passes run this; tests await it). Stops early while deferred.
   */
  purgeExpired(now = this.now()): Promise<number> {
    this.running ??= this.purge(now).finally(() => (this.running = undefined));
    return this.running;
  }

  /** No pass runs until the returned Disposable is disposed (an import writes meanwhile). */
  defer(): Disposable {
    this.deferrals++;
    return toDisposable(() => this.deferrals--);
  }

  dispose(): void {
    this.stop.abort(new Error('The store is closing.'));
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private async purge(now: number): Promise<number> {
    const { retentionMs, guard, liveAssets, forget } = this.deps;
    if (retentionMs === 0 || this.stopped()) return 0;
    const until = now - retentionMs;
    const due = this.store.countDeletedBy(until);
    if (due.count === 0) return 0;
    await guard.beforeMassDelete('trash-retention', due.assets, liveAssets() + due.assets, this.stop.signal);
    let deleted = 0;
    while (!this.stopped()) {
      await this.context.writeLockReady();
      if (this.stopped()) break;
      const step = this.store.deletedBy(until, STEP);
      if (step.length === 0) break;
      deleted += step.length;
      this.context.unsyncedTransaction(() => step.forEach((head) => forget(head)));
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (deleted > 0) this.deps.logger?.info(`Trash: deleted ${deleted} entr${deleted === 1 ? 'y' : 'ies'} older than ${Math.round(retentionMs / 86_400_000)} days for good`);
    return deleted;
  }

  private schedule(delayMs: number): void {
    if (this.stop.signal.aborted) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.purgeExpired().then(
        () => this.schedule(this.deps.passEveryMs ?? 60 * 60_000),
        (error: unknown) => {
          if (this.stop.signal.aborted || !this.context.database.db.isOpen) return;
          this.deps.logger?.warn(`Trash: deleting expired entries failed, retried in ${RETRY_MS / 60_000} minutes: ${(error as Error).message}`);
          this.schedule(RETRY_MS);
        },
      );
    }, delayMs);
    this.timer.unref();
  }

  private stopped(): boolean {
    return this.stop.signal.aborted || this.deferrals > 0 || !this.context.database.db.isOpen;
  }
}
