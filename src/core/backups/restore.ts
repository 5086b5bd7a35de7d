/**
 * Puts a backup back as a data directory's store. The caller holds the host lock, so no host has
 * the store open and none can open it meanwhile. In order, so that a crash at any point leaves a
 * working store:
 *   1. the file (and a WAL beside it, for a raw copy of a live store) is copied into the data
 *      directory as `satchel.db.restoring` and checked there: healthy, Satchel's, not newer;
 *   2. the current store is copied to the backups folder (`before-restore-…`);
 *   3. its side files are removed and the checked copy is renamed over it (one atomic rename).
 * A store from an older Satchel is restored as it is; the next open upgrades it, with a backup first.
 */
import { copyFileSync, existsSync, rmSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { StoreUnusableError } from '../errors.ts';
import { sqlite } from '../store/sqlite.ts';
import { ensurePrivateFile } from '../store/privateFiles.ts';
import { DATABASE_FILE } from '../store/database.ts';
import type { Migration } from '../store/migrations.ts';
import { backupsDir, newBackupPath, parseBackupName, publishCopy, pruneBackups, removeBackupFile, removePartials, syncDir } from './backupFiles.ts';
import { copyLiveStore } from './storeCopy.ts';
import { openCheckedStore, type StoreSummary } from './storeFile.ts';

export interface RestoreOptions {
  readonly dataDir: string;
  /** A backup's path, or the name of one in the backups folder. */
  readonly file: string;
  readonly migrations: readonly Migration[];
  /** Copies kept of the stores restores replaced. */
  readonly keep: number;
}

export interface RestoreResult {
  readonly file: string;
  /** When the backup was taken (from its name; else the file's modification time). */
  readonly taken: string;
  readonly summary: StoreSummary;
  /** The copy of the store it replaced (none when the data directory had no store). */
  readonly previous: string | undefined;
}

const STAGED = `${DATABASE_FILE}.restoring`;
const SIDES = ['-wal', '-shm', '-journal'];

/** The backup a restore names: a path, or a name in the backups folder. */
export function findBackup(dataDir: string, file: string): string {
  if (existsSync(file)) return resolve(file);
  const named = join(backupsDir(dataDir), file);
  if (existsSync(named)) return named;
  throw new StoreUnusableError(`No backup ${file}: neither a file nor a name in ${backupsDir(dataDir)}.`);
}

export async function restoreStore(options: RestoreOptions): Promise<RestoreResult> {
  const { dataDir, migrations } = options;
  const source = findBackup(dataDir, options.file);
  const store = join(dataDir, DATABASE_FILE);
  const staged = join(dataDir, STAGED);
  removeBackupFile(staged);
  let summary: StoreSummary;
  try {
    stage(source, staged);
    const checked = openCheckedStore(staged, migrations);
    summary = checked.summary;
    checked.db.close();
  } catch (error) {
    removeBackupFile(staged);
    throw error;
  }
  let previous: string | undefined;
  try {
    previous = existsSync(store) ? await keepCurrent(dataDir, store, options.keep) : undefined;
    for (const side of SIDES) rmSync(`${store}${side}`, { force: true });
    publishCopy(staged, store);
  } catch (error) {
    removeBackupFile(staged);
    throw error;
  }
  syncDir(dataDir);
  return { file: source, taken: takenAt(source), summary, previous };
}

/** The backup copied in beside the store, private, with its WAL if it has one. */
function stage(source: string, staged: string): void {
  privateCopy(source, staged);
  if (existsSync(`${source}-wal`)) privateCopy(`${source}-wal`, `${staged}-wal`);
}

/** A copy readable by this user only, whatever the original's mode (copying takes the original's). */
function privateCopy(from: string, to: string): void {
  copyFileSync(from, to);
  ensurePrivateFile(to);
}

/**
 * The store about to be replaced, copied to the backups folder. A store too damaged to copy as a
 * database (often why one restores) is kept as its files are, WAL included.
 */
async function keepCurrent(dataDir: string, store: string, keep: number): Promise<string> {
  removePartials(dataDir);
  const { final, partial, name } = newBackupPath(dataDir, 'before-restore');
  const { DatabaseSync } = sqlite();
  let db;
  try {
    db = new DatabaseSync(store);
    await copyLiveStore(db, store, partial);
  } catch {
    removeBackupFile(partial);
    privateCopy(store, partial);
    for (const side of ['-wal', '-journal']) {
      if (existsSync(`${store}${side}`)) privateCopy(`${store}${side}`, `${final}${side}`);
    }
  } finally {
    // The last connection's close folds the WAL into the store, which is about to be replaced anyway.
    if (db?.isOpen) db.close();
  }
  publishCopy(partial, final);
  pruneBackups(dataDir, 'before-restore', Math.max(1, keep));
  return name;
}

function takenAt(path: string): string {
  return (parseBackupName(basename(path))?.taken ?? statSync(path).mtime).toISOString();
}
