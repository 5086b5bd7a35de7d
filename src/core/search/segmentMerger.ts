/**
 * When the search index's FTS5 segments are merged. FTS5 merges as it writes ("automerge"): every
 * flushed segment pays for merging those before it. During an import that was the writer's largest
 * cost (100k imported assets: 30.7 s with automerge, 18.3 s without; merging the result once
 * afterwards took 2.2 s), so an import turns automerge off for its length and the segments are
 * merged afterwards in the background, a small step per turn of the event loop.
 *
 * The state lives in FTS5's own config (automerge = 0 until the merge has finished), in the same
 * transactions as the writes: a store closed or killed during an import or its merge picks the
 * merge up when it is opened again. While automerge is off, FTS5's crisis merge still bounds the
 * segments per level, so searches stay correct, only slower, until the merge is done.
 */
import type { Database } from '../store/database.ts';
import { toDisposable, type Disposable } from '../lifecycle.ts';

/** FTS5's own default (sqlite3 fts5 FTS5_DEFAULT_AUTOMERGE). */
const DEFAULT_AUTOMERGE = 4;
/**
 * Pages of merged data written per step. A step holds the event loop and the write lock: 64 pages
 * took 4–14 ms into a 100k-asset trigram index here.
 */
const STEP_PAGES = 64;
/** Before the first step after an import or an open: the caller's own next writes go first. */
const START_DELAY_MS = 200;
/** After a failed step (a full disk, a lock held by another process), the merge is tried again this much later. */
const RETRY_DELAY_MS = 30_000;

export class SegmentMerger implements Disposable {
  private readonly database: Database;
  private readonly tables: readonly string[];
  private deferralCount = 0;
  private timer: NodeJS.Timeout | undefined;
  private disposed = false;
  private waiters: Array<() => void> = [];
  private stepsRun = 0;

  /**
   * `tables`: FTS5 tables whose merging imports defer. A merge left unfinished by the last process is
   * resumed, `startDelayMs` after opening (an import process finishing its own merge starts at once).
   */
  constructor(database: Database, tables: readonly string[], { startDelayMs = START_DELAY_MS } = {}) {
    this.database = database;
    this.tables = tables;
    if (this.pending()) this.schedule(startDelayMs);
  }

  /** Whether a merge is owed: some table's automerge is off. */
  pending(): boolean {
    return this.tables.some((table) => this.automerge(table) === 0);
  }

  /**
   * Turns automerge off until the returned Disposable is disposed (and every other deferral too);
   * the merge then runs in the background. Writes the config in its own transaction, so call it
   * outside any.
   */
  defer(): Disposable {
    this.deferralCount++;
    this.cancelTimer();
    const off = this.tables.filter((table) => this.automerge(table) !== 0);
    if (off.length > 0) this.database.transaction(() => off.forEach((table) => this.configure(table, 0)));
    return toDisposable(() => {
      this.deferralCount--;
      if (this.deferralCount === 0 && !this.disposed) this.schedule(START_DELAY_MS);
    });
  }

  /** How many deferrals are held now (an import process's session is one). */
  get deferrals(): number {
    return this.deferralCount;
  }

  /**
   * Merge steps run by this merger so far. FTS5 also merges on its own (a level reaching 16
   * segments is merged whatever automerge says), so segment counts cannot tell whose merge ran.
   */
  steps(): number {
    return this.stepsRun;
  }

  /** Resolves when no merge is owed or under way (or the merger was disposed): for tests and the CLI. */
  merged(): Promise<void> {
    if (this.disposed || (this.timer === undefined && this.deferralCount === 0 && !this.pendingSafely())) return Promise.resolve();
    // Someone waits: the process stays alive for the merge.
    this.timer?.ref();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  dispose(): void {
    this.disposed = true;
    this.cancelTimer();
    this.settle();
  }

  private schedule(delayMs: number): void {
    this.cancelTimer();
    this.timer = setTimeout(() => this.run(), delayMs);
    // Nobody waiting: a process may exit before the merge; the next open resumes it.
    if (this.waiters.length === 0) this.timer.unref();
  }

  private run(): void {
    this.timer = undefined;
    if (this.disposed || this.deferralCount > 0 || !this.database.db.isOpen) return this.settle();
    // Merged meanwhile by another connection (the import process, as its session ends): no empty transaction.
    if (!this.pendingSafely()) return this.settle();
    let more: boolean;
    try {
      more = this.step();
    } catch {
      // The index stays correct unmerged; the config still says a merge is owed.
      this.schedule(RETRY_DELAY_MS);
      return;
    }
    if (more) this.schedule(0);
    else this.settle();
  }

  /**
   * One step of merging on the first table with work left; when none has any, automerge is turned
   * back on. Returns whether more may remain. A step writes nothing anyone was told was saved, so
   * it does not wait for the disk.
   */
  private step(): boolean {
    this.stepsRun++;
    return this.database.unsyncedTransaction(() => {
      for (const table of this.tables) {
        if (this.automerge(table) !== 0) continue;
        const before = this.totalChanges();
        this.database.prepare(`INSERT INTO ${table}(${table}, rank) VALUES('merge', ${STEP_PAGES})`).run();
        // FTS5's documented test: fewer than two changes means there was nothing left to merge.
        if (this.totalChanges() - before >= 2) return true;
        this.configure(table, DEFAULT_AUTOMERGE);
      }
      return false;
    });
  }

  private automerge(table: string): number {
    const row = this.database.prepare(`SELECT v FROM ${table}_config WHERE k = 'automerge'`).get() as { v: number | string } | undefined;
    return row === undefined ? DEFAULT_AUTOMERGE : Number(row.v);
  }

  private pendingSafely(): boolean {
    try {
      return this.database.db.isOpen && this.pending();
    } catch {
      return false;
    }
  }

  private configure(table: string, automerge: number): void {
    // A literal: node:sqlite binds a JS number as REAL, which FTS5 refuses for automerge.
    this.database.prepare(`INSERT INTO ${table}(${table}, rank) VALUES('automerge', ${Math.trunc(automerge)})`).run();
  }

  private totalChanges(): number {
    return (this.database.prepare('SELECT total_changes() AS n').get() as { n: number }).n;
  }

  private cancelTimer(): void {
    if (this.timer === undefined) return;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private settle(): void {
    for (const resolve of this.waiters.splice(0)) resolve();
  }
}
