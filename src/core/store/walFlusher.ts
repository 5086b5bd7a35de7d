/**
 * Flushes the WAL to disk for commits made with synchronous=NORMAL (grouped and unsynced writes,
 * database.ts): an fdatasync on libuv's thread pool instead of inside the COMMIT on the event loop.
 */
import { open as openFile } from 'node:fs/promises';

export class WalFlusher {
  private readonly walPath: string;
  private readonly flushes = new Set<Promise<void>>();
  private syncing: Promise<void> | undefined;
  private syncAgain: Promise<void> | undefined;

  constructor(databasePath: string) {
    this.walPath = `${databasePath}-wal`;
  }

  /** Resolves once every commit made so far is on disk. */
  flushed(): Promise<void> {
    const flush = this.syncWal();
    this.flushes.add(flush);
    const forget = () => void this.flushes.delete(flush);
    flush.then(forget, forget);
    return flush;
  }

  /** Whether a flush is under way. */
  get busy(): boolean {
    return this.flushes.size > 0;
  }

  /** Resolves (never rejects) when the flushes under way have ended. */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.flushes]);
  }

  /**
   * One fdatasync of the WAL covering every COMMIT made before it starts. Calls that arrive while
   * one is running share the next one, so a burst of groups costs two flushes, not one each.
   */
  private syncWal(): Promise<void> {
    if (!this.syncing) {
      this.syncing = flushFile(this.walPath).finally(() => {
        this.syncing = undefined;
      });
      return this.syncing;
    }
    this.syncAgain ??= this.syncing
      .catch(() => {})
      .then(() => {
        this.syncAgain = undefined;
        return this.syncWal();
      });
    return this.syncAgain;
  }
}

async function flushFile(path: string): Promise<void> {
  let handle;
  try {
    handle = await openFile(path, 'r');
  } catch (error) {
    // No WAL: the last connection checkpointed it into the database file, which SQLite synced.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    await handle.datasync();
  } finally {
    await handle.close();
  }
}
