/**
 * "Exactly one process serves a data directory." The lock is an exclusive SQLite lock on a small
 * side file, held for the life of the connection: the operating system drops it when the holder
 * exits or is killed, so a dead host never blocks a successor and no stale lock needs cleaning.
 */
import type { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import type { Disposable } from '../events.ts';
import { StoreUnusableError } from '../errors.ts';
import { ensurePrivateDir, ensurePrivateFile, tightenIfPresent } from './privateFiles.ts';
import { sqlite } from './sqlite.ts';
import { DATABASE_FILE } from './database.ts';
import { SQLITE_BUSY, SQLITE_LOCKED, sqliteCode } from './storageErrors.ts';

export const LOCK_FILE = 'host.lock';

export class HostLock implements Disposable {
  private readonly db: DatabaseSync;

  private constructor(db: DatabaseSync) {
    this.db = db;
  }

  /**
   * The lock, or undefined when another process (or another holder here) has it. `file` names
   * another lock of the same kind in the directory (the windows' lead lock, hosting/leadLock.ts).
   */
  static tryAcquire(dataDir: string, file = LOCK_FILE): HostLock | undefined {
    // The database names a data directory; the lock file alone may be a probe's.
    ensurePrivateDir(dataDir, DATABASE_FILE);
    const path = join(dataDir, file);
    ensurePrivateFile(path);
    // A holder killed mid-transaction leaves its journal (given the lock file's mode then: an older Satchel's 0644).
    tightenIfPresent(`${path}-journal`);
    const { DatabaseSync } = sqlite();
    const db = new DatabaseSync(path, { timeout: 0 });
    try {
      takeFileLock(db);
    } catch (error) {
      db.close();
      const code = sqliteCode(error);
      if (code === SQLITE_BUSY || code === SQLITE_LOCKED) return undefined;
      // Anything else (a full disk before the lock file ever existed) is not another host: waiting
      // for one would wait forever.
      throw new StoreUnusableError(`Cannot take the host lock in ${dataDir}: ${(error as Error).message}`);
    }
    try {
      // Who holds it, for a person reading the file. Best effort: on a full disk this write fails,
      // and a host that could not take its lock would wait for itself forever.
      db.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER NOT NULL, since TEXT NOT NULL)');
      db.exec('DELETE FROM holder');
      db.prepare('INSERT INTO holder (pid, since) VALUES (?, ?)').run(process.pid, new Date().toISOString());
      db.exec('COMMIT');
    } catch {
      try {
        if (db.isTransaction) db.exec('ROLLBACK');
        // An open transaction keeps the exclusive lock whatever the locking mode does after a rollback.
        db.exec('BEGIN EXCLUSIVE');
      } catch {
        db.close();
        return undefined;
      }
    }
    return new HostLock(db);
  }

  /** Polls until the lock is free (or `signal` aborts); a standby host waits here. */
  /** `onWaiting` is told once, when the lock is first found held: this process is then a standby. */
  static async acquire(dataDir: string, signal?: AbortSignal, pollMs = 250, onWaiting?: () => void, file = LOCK_FILE): Promise<HostLock> {
    for (let tries = 0; ; tries++) {
      signal?.throwIfAborted();
      const lock = HostLock.tryAcquire(dataDir, file);
      if (lock) return lock;
      if (tries === 0) onWaiting?.();
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }

  dispose(): void {
    if (this.db.isOpen) this.db.close();
  }
}

/**
 * The lock is the operating system's lock on the file, not anything written in it; the holder row is
 * for a person reading the file. So nothing here waits for the disk: with SQLite's default fsyncs,
 * taking the windows' lead lock held VS Code's extension host 20–40 ms (up to 69 in bench:day) while
 * another process wrote to the same disk, and 0.1 ms without them. A process that dies mid-write
 * leaves its journal for the next holder to roll back, as ever; only a power cut can spoil the row.
 * Throws SQLite's busy error when another connection holds the file.
 */
export function takeFileLock(db: DatabaseSync): void {
  db.exec('PRAGMA locking_mode = EXCLUSIVE');
  // Reads the schema, so it is refused (busy) on a file another process holds, like BEGIN below.
  db.exec('PRAGMA synchronous = OFF');
  db.exec('BEGIN EXCLUSIVE');
}
