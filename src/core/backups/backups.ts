/**
 * The backups a running store takes: on request (`satchel backup`, POST /satchel/backup) and
 * automatically before an import and before any operation that deletes a large share of the
 * library (its code calls `beforeMassDelete` first and deletes nothing if that fails). The copy
 * before a schema migration is taken where the store opens (beforeMigration.ts). One copy runs at a
 * time, in steps off the event loop (storeCopy.ts), with progress and cancellation.
 *
 * Automatic copies are skipped when there is nothing to lose (an empty store) or when `keep` is 0
 * (the user turned them off); an automatic copy that fails stops the operation it guards.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { silentLogger, type Logger } from '../context.ts';
import { sqlite } from '../store/sqlite.ts';
import { DATABASE_FILE } from '../store/database.ts';
import type { Disposable } from '../lifecycle.ts';
import { ConflictError, InsufficientResourcesError, NotFoundError } from '../errors.ts';
import { freeBytes } from '../store/diskReserve.ts';
import { checkReason, listBackups, newBackupPath, publishCopy, pruneBackups, removePartials, type BackupFile, type BackupReason } from './backupFiles.ts';
import { copyLiveStore, type CopyProgress } from './storeCopy.ts';
import { holdsData, type StoreSummary } from './storeFile.ts';
import { mib } from '../byteSizes.ts';

/** A delete is a mass delete from this share of the library, and above this many assets. */
export const MASS_DELETE = { share: 0.1, atLeast: 21 } as const;

/**
 * Imports starting this soon after the last copy taken before one share it: a client sends a large
 * import as several requests, and each must not push an older copy out.
 */
export const IMPORT_BACKUP_WINDOW_MS = 10 * 60_000;

/** Room left on the disk beyond the copy itself. */
const SPARE_BYTES = 16 * 1024 * 1024;

export interface BackupResult {
  readonly name: string;
  readonly path: string;
  readonly reason: string;
  /** When the copy started: it holds every write acknowledged before then. */
  readonly taken: string;
  readonly bytes: number;
  readonly elapsedMs: number;
  readonly summary: StoreSummary;
}

export interface BackupOptions {
  readonly signal?: AbortSignal | undefined;
  readonly onProgress?: ((progress: CopyProgress) => void) | undefined;
}

/** The store copied: a connection to it (a Database, or one opened for the copy alone) and its file. */
export interface BackupSource {
  readonly db: DatabaseSync;
  readonly path: string;
}

export interface BackupsDeps {
  readonly source: BackupSource;
  readonly dataDir: string;
  /** Copies kept per reason; 0 turns automatic copies off. */
  readonly keep: number;
  readonly logger: Logger;
  /** Skip the online backup and copy with VACUUM INTO (tests of the fallback). */
  readonly vacuum?: boolean;
}

/** Whether deleting `deleting` of `total` assets is a mass delete (see MASS_DELETE). */
export function isMassDelete(deleting: number, total: number): boolean {
  return deleting >= MASS_DELETE.atLeast && total > 0 && deleting / total >= MASS_DELETE.share;
}

export class Backups implements Disposable {
  private readonly deps: BackupsDeps;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly closing = new AbortController();
  private requested = false;

  constructor(deps: BackupsDeps) {
    this.deps = deps;
  }

  /** The copies in the backups folder, newest first. */
  list(): BackupFile[] {
    return listBackups(this.deps.dataDir);
  }

  /** Takes a copy now (after any under way); the last `keep` of its reason are kept. */
  take(reason: BackupReason, options: BackupOptions = {}): Promise<BackupResult> {
    const run = this.queue.then(() => this.copy(reason, options));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * A copy someone asked for (the CLI, POST /satchel/backup). One at a time: asking again while one
   * is under way is refused, so requests cannot queue up copies.
   */
  async takeOnRequest(options: BackupOptions = {}): Promise<BackupResult> {
    if (this.requested) throw new ConflictError('A backup is already being taken; wait for it to finish.');
    this.requested = true;
    try {
      return await this.take('manual', options);
    } finally {
      this.requested = false;
    }
  }

  /** The copy taken as an import starts, unless one was taken for an import in the last few minutes. */
  async beforeImport(signal?: AbortSignal): Promise<BackupResult | undefined> {
    if (!this.automatic()) return undefined;
    const last = this.list().find((backup) => backup.reason === 'before-import');
    if (last && Date.now() - last.taken.getTime() < IMPORT_BACKUP_WINDOW_MS) return undefined;
    return this.take('before-import', { signal });
  }

  /**
   * Call before deleting `deleting` of the library's `total` assets: takes a copy named for `what`
   * (lowercase words and dashes, e.g. `empty-trash`) when that is a mass delete. Resolves with the
   * copy (undefined when none was needed); if it rejects, delete nothing. `confirmed`: the caller's
   * own guard already judged it a mass delete the user confirmed (a sync's), a copy whatever the size.
   */
  async beforeMassDelete(what: string, deleting: number, total: number, signal?: AbortSignal, confirmed = false): Promise<BackupResult | undefined> {
    const reason = checkReason(`before-delete-${what}`);
    if (!(confirmed ? deleting > 0 : isMassDelete(deleting, total)) || !this.automatic()) return undefined;
    return this.take(reason, { signal });
  }

  /** Stops a copy under way (its partial file is removed) and waits for it. */
  async close(): Promise<void> {
    this.closing.abort(new Error('The store is closing.'));
    await this.queue;
  }

  dispose(): void {
    void this.close();
  }

  /** Whether an automatic copy is due at all: turned on, and something to lose. */
  private automatic(): boolean {
    if (this.deps.keep === 0 || !this.deps.source.db.isOpen) return false;
    return holdsData(this.deps.source.db);
  }

  private async copy(reason: BackupReason, options: BackupOptions): Promise<BackupResult> {
    const { source, dataDir, logger } = this.deps;
    const signal = options.signal ? AbortSignal.any([options.signal, this.closing.signal]) : this.closing.signal;
    signal.throwIfAborted();
    removePartials(dataDir);
    const needed = statSync(source.path).size + SPARE_BYTES;
    const free = freeBytes(dataDir);
    if (free < needed) {
      throw new InsufficientResourcesError(
        `Not enough free disk space for a backup of ${source.path}: it needs ${mib(needed)} MB, ${mib(free)} MB are free.` +
          (reason === 'manual' ? '' : ' Free some space, or set the number of backups kept to 0 to go on without one.'),
      );
    }
    const started = new Date();
    const clock = performance.now();
    const { final, partial, name } = newBackupPath(dataDir, reason, started);
    const summary = await copyLiveStore(source.db, source.path, partial, { signal, onProgress: options.onProgress, vacuum: this.deps.vacuum });
    publishCopy(partial, final);
    const removed = pruneBackups(dataDir, reason, this.deps.keep);
    const result: BackupResult = {
      name,
      path: final,
      reason,
      taken: started.toISOString(),
      bytes: statSync(final).size,
      elapsedMs: Math.round(performance.now() - clock),
      summary,
    };
    logger.info(
      `Backup ${name}: ${summary.assets} assets, ${summary.conversations} conversations, ${mib(result.bytes)} MB in ${result.elapsedMs} ms` +
        (removed.length > 0 ? ` (removed the older ${removed.join(', ')})` : ''),
    );
    return result;
  }
}

/**
 * A copy of the store of a data directory no host has open (the caller holds the host lock), taken
 * as a host would take one on request; the store is copied as it is, not opened as a Satchel
 * (which would migrate it).
 */
export async function backupStoreAt(dataDir: string, keep: number, options: BackupOptions = {}, logger: Logger = silentLogger): Promise<BackupResult> {
  const path = join(dataDir, DATABASE_FILE);
  if (!existsSync(path)) throw new NotFoundError('store', path);
  const { DatabaseSync } = sqlite();
  const db = new DatabaseSync(path);
  try {
    return await new Backups({ source: { db, path }, dataDir, keep, logger }).takeOnRequest(options);
  } finally {
    db.close();
  }
}
