/**
 * A consistent copy of a store that is in use, without holding the event loop.
 *
 * SQLite's online backup (node:sqlite's `backup()`, Node 22.16+) copies pages a step at a time on
 * libuv's thread pool through the store's own connection: writes that connection makes meanwhile
 * are carried into the copy as they commit, so the copy is the store as it stood when the last step
 * ran, whole transactions only. Measured on this project's machine, a 164 MB store took 0.63 s in
 * 401 steps while 100 writes/s went on, the event loop never held longer than a write's own commit.
 * A write from another connection (an import's process) makes SQLite start the copy again, so a
 * copy that keeps restarting, or a runtime without `backup()` (older Electron builds of VS Code),
 * falls back to `VACUUM INTO` in a process with a connection of its own (copyProcess.ts): one
 * read transaction, so a snapshot as of its start, that never blocks writers (WAL). It took the
 * same 0.63 s.
 */
import type { DatabaseSync } from 'node:sqlite';
import { sqlite, type SqliteModule } from '../store/sqlite.ts';
import { ensurePrivateFile } from '../store/privateFiles.ts';
import { removeBackupFile } from './backupFiles.ts';
import { finishInProcess, type CopyProgress } from './copyProcess.ts';
import type { StoreSummary } from './storeFile.ts';

export type { CopyProgress } from './copyProcess.ts';

export interface CopyOptions {
  readonly signal?: AbortSignal | undefined;
  readonly onProgress?: ((progress: CopyProgress) => void) | undefined;
  /** Pages per step of the online backup (default 256: 1 MiB of 4 KiB pages). */
  readonly pagesPerStep?: number | undefined;
  /** Restarts (another connection wrote) before the copy is taken with VACUUM INTO instead. */
  readonly maxRestarts?: number | undefined;
  /** Steps in a row that copy nothing before the same (default MAX_STALLED_STEPS). */
  readonly maxStalledSteps?: number | undefined;
  /** Skip the online backup (tests of the fallback; runtimes without it skip it anyway). */
  readonly vacuum?: boolean | undefined;
}

const PAGES_PER_STEP = 256;
const MAX_RESTARTS = 3;
/**
 * Steps in a row that copied nothing: one finds the store's connection mid-transaction now and
 * then (SQLite answers busy and the step is retried), every one does when another connection writes
 * between every two steps.
 */
const MAX_STALLED_STEPS = 20;

class TooManyRestarts extends Error {}

/**
 * Copies the store open on `source` (file `sourcePath`) to `target`, a new file made private
 * first, and answers what the copy holds. The copy is a rollback-journal database: one
 * self-contained file. Rejects with the signal's reason when cancelled, after removing what was written.
 */
export async function copyLiveStore(source: DatabaseSync, sourcePath: string, target: string, options: CopyOptions = {}): Promise<StoreSummary> {
  options.signal?.throwIfAborted();
  // Typed as possibly missing: node:sqlite gained backup() in Node 22.16.
  const runtime: Partial<Pick<SqliteModule, 'backup'>> = sqlite();
  const online = options.vacuum === true ? undefined : runtime.backup;
  try {
    let copied = false;
    if (online) {
      try {
        await onlineBackup(online, source, target, options);
        copied = true;
      } catch {
        options.signal?.throwIfAborted();
        // Restarting without end, or failing: node:sqlite reports some step failures as
        // "not an error" (errcode 0, read from the target after the step's own code was lost) when
        // the store's connection writes meanwhile (a search-index merge step, measured). The copy
        // is then taken the other way, which does not share the connection.
      }
    }
    if (!copied) fresh(target);
    return await finishInProcess(target, copied ? undefined : sourcePath, options);
  } catch (error) {
    removeBackupFile(target);
    throw options.signal?.aborted ? options.signal.reason : error;
  }
}

/** The same copy on the calling thread (a store being opened, before anyone can use it). */
export function vacuumInto(source: DatabaseSync, target: string): void {
  fresh(target);
  try {
    source.exec(`VACUUM INTO '${target.replaceAll("'", "''")}'`);
  } catch (error) {
    removeBackupFile(target);
    throw error;
  }
}

async function onlineBackup(backup: SqliteModule['backup'], source: DatabaseSync, target: string, options: CopyOptions): Promise<void> {
  fresh(target);
  const pageSize = Number((source.prepare('PRAGMA page_size').get() as { page_size: number }).page_size);
  let restarts = 0;
  let stalled = 0;
  let lastDone = 0;
  const total = await backup(source, target, {
    rate: options.pagesPerStep ?? PAGES_PER_STEP,
    progress: ({ totalPages, remainingPages }) => {
      // Throwing here is how a backup stops between steps (node:sqlite rejects with it).
      options.signal?.throwIfAborted();
      const done = totalPages - remainingPages;
      // A restart shows as pages done going back, or (when every step restarts) never moving on.
      stalled = done > lastDone ? 0 : stalled + 1;
      if (done < lastDone) restarts++;
      if (restarts > (options.maxRestarts ?? MAX_RESTARTS) || stalled > (options.maxStalledSteps ?? MAX_STALLED_STEPS)) throw new TooManyRestarts();
      lastDone = done;
      options.onProgress?.({ bytesDone: done * pageSize, bytesTotal: totalPages * pageSize });
    },
  });
  options.onProgress?.({ bytesDone: total * pageSize, bytesTotal: total * pageSize });
}

/** An empty private file at `path` (SQLite writes into it and keeps its mode, for the journal too). */
function fresh(path: string): void {
  removeBackupFile(path);
  ensurePrivateFile(path);
}
