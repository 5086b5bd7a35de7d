/**
 * The copy taken before a schema migration changes a store that already holds data (libraries
 * lost on upgrade are among the most reported failures of snippet tools). It runs where the store
 * opens, before anyone can use it, so on the opening thread: with `VACUUM INTO`, about as long as
 * reading the store once (0.63 s for 164 MB measured), of the same order as the migration itself.
 * If the copy cannot be made, the store is not migrated and not opened.
 */
import type { DatabaseSync } from 'node:sqlite';
import { StoreUnusableError } from '../errors.ts';
import type { Migration } from '../store/migrations.ts';
import { newBackupPath, publishCopy, pruneBackups, removeBackupFile, removePartials } from './backupFiles.ts';
import { vacuumInto } from './storeCopy.ts';
import { holdsData } from './storeFile.ts';

export interface MigrationBackupOptions {
  /** Copies kept; 0 upgrades without one. */
  readonly keep: number;
  /** Told the name of the copy taken. */
  readonly taken?: ((name: string) => void) | undefined;
}

export function backupBeforeMigration(db: DatabaseSync, dataDir: string, pending: readonly Migration[], options: MigrationBackupOptions): void {
  if (options.keep === 0) return;
  if (!holdsData(db)) return;
  removePartials(dataDir);
  const { final, partial, name } = newBackupPath(dataDir, 'before-migration');
  try {
    vacuumInto(db, partial);
    publishCopy(partial, final);
  } catch (error) {
    removeBackupFile(partial);
    throw new StoreUnusableError(
      `Satchel must upgrade its store (${pending.map((migration) => migration.name).join('; ')}) and could not back it up first ` +
        `(${(error as Error).message}). Nothing was changed. Free some disk space, or set the number of backups kept to 0 to upgrade without one.`,
    );
  }
  pruneBackups(dataDir, 'before-migration', options.keep);
  options.taken?.(name);
}
