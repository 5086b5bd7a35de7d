/**
 * Whether a connection can take SQLite's write lock now, without waiting: another connection (the
 * import process, mid-batch) may hold it, and a write that waited in SQLite's busy handler would
 * hold the event loop meanwhile. The lock is not kept.
 */
import type { DatabaseSync } from 'node:sqlite';
import { SQLITE_BUSY, sqliteCode } from './storageErrors.ts';

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
