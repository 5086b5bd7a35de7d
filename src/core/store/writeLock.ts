/**
 * Whether a connection can take SQLite's write lock now, without waiting: another connection (the
 * import process, mid-batch) may hold it, and a write that waited in SQLite's busy handler would
 * hold the event loop meanwhile. The lock is not kept.
 */
import type { DatabaseSync } from 'node:sqlite';
import { SQLITE_BUSY, sqliteCode } from './storageErrors.ts';
import { toDisposable, type Disposable } from '../lifecycle.ts';

export function writeLockFree(db: DatabaseSync, busyTimeoutMs: number): boolean {
  db.exec('PRAGMA busy_timeout = 0');
  try {
    db.exec('BEGIN IMMEDIATE');
  } catch (error) {
    // SQLITE_BUSY (or an extended code of it): another connection holds it. Anything else is the real write's to report.
    return sqliteCode(error) !== SQLITE_BUSY;
  } finally {
    db.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
  }
  db.exec('ROLLBACK');
  return true;
}

/** How often writes waiting for another connection's write lock look again. */
export const LOCK_RETRY_MS = 5;

/**
 * Other connections expected to write (an import process's batch, the statistics worker's
 * ANALYZE, up to a second or two each): while one is announced, this connection's writes look for
 * the lock first and wait between turns of the event loop, rather than in SQLite's busy handler at
 * BEGIN, which would hold the loop (and health) until that writer is done. Past the busy timeout a
 * write is tried as any write is.
 */
export class OtherWriters {
  private count = 0;
  /** Since when grouped writes have been waiting for the lock. */
  private groupWaitingSince: number | undefined;

  private readonly db: DatabaseSync;
  private readonly busyTimeoutMs: () => number;

  constructor(db: DatabaseSync, busyTimeoutMs: () => number) {
    this.db = db;
    this.busyTimeoutMs = busyTimeoutMs;
  }

  /** Until disposed, another connection may hold the write lock for a while. */
  expect(): Disposable {
    this.count++;
    return toDisposable(() => void this.count--);
  }

  /** Whether the next group of writes (if any is `pending`) should wait a while longer (see above). */
  groupShouldWait(pending: boolean): boolean {
    if (pending && this.count > 0 && this.db.isOpen && !writeLockFree(this.db, this.busyTimeoutMs())) {
      this.groupWaitingSince ??= performance.now();
      if (performance.now() - this.groupWaitingSince < this.busyTimeoutMs()) return true;
    }
    this.groupWaitingSince = undefined;
    return false;
  }

  /** Resolves once the write lock looks free, for a long run of ungrouped transactions to call before each. */
  async ready(): Promise<void> {
    const since = performance.now();
    while (this.count > 0 && this.db.isOpen && performance.now() - since < this.busyTimeoutMs() && !writeLockFree(this.db, this.busyTimeoutMs())) {
      await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_MS));
    }
  }
}
