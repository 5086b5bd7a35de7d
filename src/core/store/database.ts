/**
 * The one SQLite database of a data directory (node:sqlite, WAL). Every acknowledged write runs in
 * its own transaction with synchronous=FULL, so a write the API has answered survives a crash or a
 * power cut. Opening a corrupt database, or one written by a newer Satchel, fails with a clear
 * message and changes nothing on disk.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { sqlite } from './sqlite.ts';
import { sharedShapeRows } from './sharedShapeRows.ts';
import { StoreUnusableError } from '../errors.ts';
import { checkDataDir, checkReadable } from './openChecks.ts';
import { makeDurable, setUpConnection } from './connectionSetup.ts';
import { storageError } from './storageErrors.ts';
import { ensurePrivateFile, tightenIfPresent } from './privateFiles.ts';
import { diskFull, keepReserve, releaseReserveIfFull } from './diskReserve.ts';
import { WAL_LIMIT_BYTES, WalCheckpointer, type CheckpointResult } from './walCheckpointer.ts';
import { WalFlusher } from './walFlusher.ts';
import { PlanStatistics, type StatisticsRefresh } from './planStatistics.ts';
import { LOCK_RETRY_MS, OtherWriters } from './writeLock.ts';
import { TransactionQueues } from './transactionQueues.ts';
import type { Disposable } from '../lifecycle.ts';
import { applyMigrations, schemaVersion, type Migration } from './migrations.ts';
import { backupBeforeMigration, type MigrationBackupOptions } from '../backups/beforeMigration.ts';
import { DEFAULT_KEEP } from '../backups/backupFiles.ts';

type Outcome = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: unknown };

export const DATABASE_FILE = 'satchel.db';

const DEFAULT_BUSY_TIMEOUT_MS = 5000;

/** Up to this size a store is fully checked (PRAGMA quick_check) when opened. */
export const FULL_CHECK_MAX_BYTES = 64 * 1024 * 1024;

export interface OpenOptions {
  readonly dataDir: string;
  readonly migrations: readonly Migration[];
  /** Milliseconds a writer waits for another process's lock before failing. */
  readonly busyTimeoutMs?: number;
  /** Stores up to this size get a full quick_check on open (default FULL_CHECK_MAX_BYTES). */
  readonly fullCheckMaxBytes?: number;
  /** The copy taken before migrating a store that holds data (default: DEFAULT_KEEP kept). */
  readonly migrationBackup?: MigrationBackupOptions;
  /** Told of each refresh of the query planner's statistics (see planStatistics.ts). */
  readonly statisticsRefreshed?: (refresh: StatisticsRefresh) => void;
  /** WAL pages past which a write first lets the WAL start over (walRestart.ts; for tests). */
  readonly walRestartPages?: number;
  /** Told, once, why checkpoints went back into SQLite's commits (the checkpoint process could not run). */
  readonly checkpointsFellBack?: (reason: string) => void;
}

export class Database {
  readonly path: string;
  readonly db: DatabaseSync;
  private depth = 0;
  private readonly statements = new Map<string, StatementSync>();
  private readonly queued = new TransactionQueues();
  private readonly grouped: Array<{ fn: () => unknown; resolve(value: unknown): void; reject(error: unknown): void }> = [];
  private groupScheduled = false;
  private checkpoints: WalCheckpointer | undefined;
  /** Keeps the query planner's statistics in step with the tables (the store's own connection only). */
  statistics: PlanStatistics | undefined;
  /** How long a write waits for another connection's write lock (SQLite's busy_timeout). */
  private busyTimeoutMs = DEFAULT_BUSY_TIMEOUT_MS;
  private readonly otherWriters: OtherWriters;

  private readonly wal: WalFlusher;

  private constructor(path: string, db: DatabaseSync) {
    this.path = path;
    this.db = db;
    this.wal = new WalFlusher(path);
    this.otherWriters = new OtherWriters(db, () => this.busyTimeoutMs);
  }

  private static connect(path: string): Database {
    const { DatabaseSync } = sqlite();
    try {
      return new Database(path, new DatabaseSync(path));
    } catch (error) {
      throw new StoreUnusableError(`Cannot open the database ${path}: ${(error as Error).message}`);
    }
  }

  private setBusyTimeout(ms: number): void {
    this.busyTimeoutMs = ms;
    this.db.exec(`PRAGMA busy_timeout = ${ms}`);
  }

  static open(options: OpenOptions): Database {
    const { dataDir, migrations } = options;
    const { path, existed } = checkDataDir(dataDir, DATABASE_FILE);
    const released = releaseReserveIfFull(dataDir);
    // SQLite gives the WAL and shared-memory files the database file's mode: a 0600 database
    // makes all three private (files from an older Satchel are tightened here too).
    ensurePrivateFile(path);
    for (const side of ['-wal', '-shm', '-journal']) tightenIfPresent(`${path}${side}`);
    const database = Database.connect(path);
    const db = database.db;
    setUpConnection(db, path, () => {
      if (existed) checkReadable(db, path, options.fullCheckMaxBytes ?? FULL_CHECK_MAX_BYTES);
      database.setBusyTimeout(options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS);
      db.exec('PRAGMA journal_mode = WAL');
      makeDurable(db);
      // Checkpoints shrink the WAL back to this, so space freed after a full disk is usable again.
      db.exec(`PRAGMA journal_size_limit = ${WAL_LIMIT_BYTES}`);
      applyMigrations(db, path, migrations, (fn) => database.transaction(fn), (pending) =>
        backupBeforeMigration(db, dataDir, pending, options.migrationBackup ?? { keep: DEFAULT_KEEP }),
      );
      // Off the event loop, in a process of their own (walCheckpointer.ts).
      database.checkpoints = WalCheckpointer.forConnection(db, path, { restartPages: options.walRestartPages, fellBack: options.checkpointsFellBack });
      const refreshed = options.statisticsRefreshed;
      database.statistics = PlanStatistics.opened({ path, db, busyTimeoutMs: () => database.busyTimeoutMs, holdWriters: () => database.expectWriter(), refreshed });
    }, () =>
      diskFull(dataDir)
        ? new StoreUnusableError(
            `The disk holding ${path} is full${released ? ' (its reserve was already given back)' : ''}; ` +
              'the database cannot be opened until some space is freed. Nothing was changed.',
          )
        : undefined,
    );
    keepReserve(dataDir);
    return database;
  }

  /**
   * A second connection to a store that another connection opened, migrated and keeps (the import
   * process writes through one). Writes are as durable as the first connection's; a schema newer or
   * older than `version` is refused (the two would disagree on every table). Checkpoints are left
   * to the first connection unless `checkpointPages` is given: then this connection's commits
   * checkpoint, as SQLite does by default, once the WAL holds that many pages.
   */
  static openShared(path: string, version: number, options: { busyTimeoutMs?: number; checkpointPages?: number } = {}): Database {
    const database = Database.connect(path);
    const db = database.db;
    setUpConnection(db, path, () => {
      database.setBusyTimeout(options.busyTimeoutMs ?? 10_000);
      makeDurable(db);
      db.exec(`PRAGMA wal_autocheckpoint = ${Math.max(0, Math.floor(options.checkpointPages ?? 0))}`);
      if (database.schemaVersion !== version) throw new StoreUnusableError(`The database ${path} is at schema ${database.schemaVersion}, not ${version}.`);
    });
    return database;
  }

  /**
   * Lets the checkpoint process go and waits until its connection is closed, so that close() is the
   * last connection and empties the WAL (without it, the process's own close does that, moments later).
   */
  stopCheckpoints(): Promise<void> {
    return this.checkpoints?.stop() ?? Promise.resolve();
  }

  /** Resolves after the next checkpoint of the WAL (undefined if none can run). */
  checkpointed(): Promise<CheckpointResult | undefined> {
    return this.checkpoints?.next() ?? Promise.resolve(undefined);
  }

  get schemaVersion(): number {
    return schemaVersion(this.db);
  }

  /** A cached prepared statement; its rows share one shape (sharedShapeRows.ts). */
  prepare(sql: string): StatementSync {
    let statement = this.statements.get(sql);
    if (!statement) {
      const prepared = this.db.prepare(sql);
      statement = sharedShapeRows(prepared) ?? prepared;
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /**
   * Runs `fn` in one IMMEDIATE transaction (nested calls join the outer one). Callbacks given to
   * `onCommit` run only after the outermost COMMIT succeeded, so change events never announce a
   * write that was rolled back.
   */
  transaction<T>(fn: () => T): T {
    if (this.depth > 0) {
      this.depth++;
      try {
        return fn();
      } finally {
        this.depth--;
      }
    }
    const { result, callbacks } = this.commitOuter(fn);
    for (const callback of callbacks) callback();
    return result;
  }

  /**
   * A transaction for bookkeeping nobody is told was saved (counters, the connector's memory of
   * recent copies): visible at once, committed without waiting for the disk, flushed to it in the
   * background. A crash in the next few milliseconds may lose it; it never half-applies it.
   */
  unsyncedTransaction<T>(fn: () => T): T {
    if (this.depth > 0) return this.transaction(fn);
    const { result, callbacks } = this.commitUnsynced(() => this.commitOuter(fn));
    void this.wal.flushed().catch(() => {
      // Nobody waits on this write; a failed flush shows again at the next durable commit.
    });
    for (const callback of callbacks) callback();
    return result;
  }

  /** Runs `commit` with synchronous=NORMAL: the WAL is written but not synced (WalFlusher.flushed syncs it). */
  private commitUnsynced<T>(commit: () => T): T {
    this.db.exec('PRAGMA synchronous = NORMAL');
    try {
      return commit();
    } finally {
      this.db.exec('PRAGMA synchronous = FULL');
    }
  }

  /** The outermost transaction: BEGIN, `fn`, COMMIT; hands back the `onCommit` callbacks it queued. */
  private commitOuter<T>(fn: () => T): { result: T; callbacks: Array<() => void> } {
    this.checkpoints?.beforeBegin(this.db);
    this.db.exec('BEGIN IMMEDIATE');
    this.depth = 1;
    let result: T;
    try {
      result = fn();
      this.queued.runWrites();
      this.db.exec('COMMIT');
      this.checkpoints?.written();
      this.statistics?.written();
    } catch (error) {
      this.depth = 0;
      this.queued.rollBack();
      try {
        this.db.exec('ROLLBACK');
      } catch {
        // The transaction may already be gone (e.g. SQLITE_FULL rolls back by itself).
      }
      throw storageError(error, this.path);
    }
    this.depth = 0;
    return { result, callbacks: this.queued.takeCallbacks() };
  }

  /**
   * Runs `fn` in one transaction with the other writes queued in the same turn of the event loop:
   * one COMMIT, so one fsync, for all of them. A failing write undoes only itself (the group is
   * then redone with a savepoint per write). The group's COMMIT does not wait for the disk; the WAL is flushed by an
   * fdatasync on libuv's thread pool while the next group is prepared, and every promise settles
   * (and every change event fires) only after that flush, so nothing is acknowledged or announced
   * before it is durable.
   */
  groupTransaction<T>(fn: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.grouped.push({ fn, resolve: resolve as (value: unknown) => void, reject });
      if (!this.groupScheduled) {
        this.groupScheduled = true;
        setImmediate(() => this.commitGroup());
      }
    });
  }

  /** Until disposed, another connection may hold the write lock for a while (writeLock.ts, OtherWriters). */
  expectWriter(): Disposable {
    return this.otherWriters.expect();
  }

  /** Resolves once the write lock looks free, for a long run of ungrouped transactions (emptying the trash) to call before each. */
  writeLockReady(): Promise<void> {
    return this.otherWriters.ready();
  }

  private commitGroup(): void {
    if (this.otherWriters.groupShouldWait(this.grouped.length > 0)) {
      setTimeout(() => this.commitGroup(), LOCK_RETRY_MS);
      return;
    }
    this.groupScheduled = false;
    const batch = this.grouped.splice(0);
    if (batch.length === 0 || !this.db.isOpen) {
      for (const item of batch) item.reject(new StoreUnusableError(`The database ${this.path} is closed.`));
      return;
    }
    let committed: { result: Outcome[]; callbacks: Array<() => void> };
    try {
      committed = this.commitUnsynced(() => {
        try {
          return this.commitOuter(() => batch.map((item): Outcome => ({ ok: true, value: item.fn() })));
        } catch (error) {
          // One write failed and took the group's transaction with it. Writes rarely fail once their
          // input is validated, so only then does each get its own savepoint (a savepoint per write
          // would also make FTS5 flush its pending terms once per write instead of once per group).
          if (batch.length === 1) throw error;
          return this.commitOuter(() => batch.map((item) => this.inSavepoint(item.fn)));
        }
      });
    } catch (error) {
      // The shared COMMIT failed (or SQLite dropped the transaction): nothing of the group is saved.
      for (const item of batch) item.reject(error);
      return;
    }
    this.wal.flushed().then(
      () => {
        for (const callback of committed.callbacks) callback();
        batch.forEach((item, i) => {
          const outcome = committed.result[i]!;
          if (outcome.ok) item.resolve(outcome.value);
          else item.reject(outcome.error);
        });
      },
      (error: unknown) => {
        const failure = new StoreUnusableError(
          `The database ${this.path} could not be flushed to disk (${(error as Error).message}); the write may not survive a crash.`,
        );
        for (const item of batch) item.reject(failure);
      },
    );
  }

  private inSavepoint(fn: () => unknown): Outcome {
    const mark = this.queued.mark();
    this.db.exec('SAVEPOINT grouped_write');
    try {
      const value = fn();
      this.queued.runWrites();
      this.db.exec('RELEASE grouped_write');
      return { ok: true, value };
    } catch (error) {
      this.queued.rollBack(mark);
      try {
        this.db.exec('ROLLBACK TO grouped_write');
        this.db.exec('RELEASE grouped_write');
      } catch {
        // SQLite already rolled the whole transaction back (a full disk does): the group fails
        // with the write's own error.
        throw error;
      }
      return { ok: false, error: storageError(error, this.path) };
    }
  }

  /** Resolves once every grouped or unsynced write committed so far is on disk (or failed). */
  async settled(): Promise<void> {
    while (this.groupScheduled || this.wal.busy) {
      if (this.groupScheduled) await new Promise((resolve) => setImmediate(resolve));
      else await this.wal.idle();
    }
  }

  /** Whether a transaction is open: what is read now may yet be rolled back. */
  get inTransaction(): boolean {
    return this.depth > 0;
  }

  /** Defers `callback` until the current transaction commits (or runs it now outside one). */
  onCommit(callback: () => void): void {
    if (this.depth === 0) callback();
    else this.queued.afterCommit(callback);
  }

  /**
   * Runs `write` at the end of the current transaction, after its other writes (now, outside one):
   * FTS5 index writes, which a later write of the same transaction would otherwise flush to a
   * segment of their own (transactionQueues.ts). Whatever reads what it writes runs `deferredWrites` first.
   */
  deferWrite(write: () => void): void {
    if (this.depth === 0) write();
    else this.queued.deferWrite(write);
  }

  /** Runs the writes deferred so far in this transaction (before reading the tables they write). */
  deferredWrites(): void {
    this.queued.runWrites();
  }

  integrityCheck(): string {
    const rows = this.db.prepare('PRAGMA integrity_check').all() as Array<{ integrity_check: string }>;
    return rows.map((r) => r.integrity_check).join('; ');
  }

  close(): void {
    if (!this.db.isOpen) return;
    // The statistics worker's connection closes first; the checkpoint process's too when
    // stopCheckpoints() was awaited (else it closes moments later, and its close empties the WAL).
    this.statistics?.dispose();
    this.checkpoints?.dispose();
    this.statements.clear();
    try {
      this.db.exec('PRAGMA optimize');
    } catch {
      // Best effort only.
    }
    this.db.close();
  }
}
