/**
 * The backups folder of a data directory: `<dataDir>/backups/<reason>-<time>.db`, private to its
 * user like the store. A copy is written beside its final name as `.partial` and renamed once whole
 * and on disk, so a name in the folder is always a complete store; partials a crash left are
 * removed before the next backup. Each reason keeps its own last few (an import every hour does not
 * push out the copy taken before an upgrade).
 */
import { closeSync, existsSync, fsyncSync, openSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidInputError } from '../errors.ts';
import { ensurePrivateDir } from '../store/privateFiles.ts';

export const BACKUPS_DIR = 'backups';
/** Copies kept per reason unless a setting says otherwise. */
export const DEFAULT_KEEP = 5;
export const MAX_KEEP = 100;

/**
 * Why a copy was taken: asked for (`manual`), or automatically before something that changes much
 * of the store (`before-delete-<what>` names the deleting operation).
 */
export type BackupReason = 'manual' | 'before-migration' | 'before-import' | 'before-restore' | 'before-forget-secret' | `before-delete-${string}`;

export interface BackupFile {
  readonly name: string;
  readonly path: string;
  readonly reason: string;
  readonly taken: Date;
  readonly bytes: number;
}

const REASON = /^[a-z][a-z0-9-]{0,47}$/;
// Colons are not allowed in Windows file names: 2026-05-01T10-20-30-123Z.
const NAME = /^([a-z][a-z0-9-]*?)-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z(?:-(\d+))?\.db$/;
const SIDE_FILES = ['-wal', '-shm', '-journal'];

export function backupsDir(dataDir: string): string {
  return join(dataDir, BACKUPS_DIR);
}

/** Checks a reason given by other code (a mass delete names itself). */
export function checkReason(reason: string): BackupReason {
  if (!REASON.test(reason)) throw new InvalidInputError(`A backup reason is lowercase letters, digits and dashes, not ${JSON.stringify(reason)}.`);
  return reason as BackupReason;
}

/** The reason and time a backup's file name carries, or undefined for a name Satchel did not give. */
export function parseBackupName(name: string): { reason: string; taken: Date } | undefined {
  const match = NAME.exec(name);
  if (!match) return undefined;
  const [, reason, day, hours, minutes, seconds, millis] = match;
  const taken = new Date(`${day}T${hours}:${minutes}:${seconds}.${millis}Z`);
  return Number.isNaN(taken.getTime()) ? undefined : { reason: reason!, taken };
}

/** Where a new backup goes (a name no other backup has) and the partial file it is written as first. */
export function newBackupPath(dataDir: string, reason: BackupReason, now = new Date()): { final: string; partial: string; name: string } {
  const dir = backupsDir(dataDir);
  ensurePrivateDir(dir, '');
  const stamp = now.toISOString().replace(/:/g, '-').replace('.', '-');
  for (let n = 0; ; n++) {
    const name = `${reason}-${stamp}${n === 0 ? '' : `-${n}`}.db`;
    const final = join(dir, name);
    if (!existsSync(final) && !existsSync(`${final}.partial`)) return { final, partial: `${final}.partial`, name };
  }
}

/** The backups in the folder, newest first. */
export function listBackups(dataDir: string): BackupFile[] {
  const dir = backupsDir(dataDir);
  if (!existsSync(dir)) return [];
  const found: BackupFile[] = [];
  for (const name of readdirSync(dir)) {
    const parsed = parseBackupName(name);
    if (!parsed) continue;
    const path = join(dir, name);
    try {
      found.push({ name, path, ...parsed, bytes: statSync(path).size });
    } catch {
      // Removed meanwhile (another process's retention).
    }
  }
  return found.sort((a, b) => b.taken.getTime() - a.taken.getTime() || (b.name < a.name ? -1 : b.name > a.name ? 1 : 0));
}

/** Removes all but the newest `keep` backups of `reason` (at least the newest one stays); returns the names removed. */
export function pruneBackups(dataDir: string, reason: string, keep: number): string[] {
  const removed: string[] = [];
  for (const old of listBackups(dataDir).filter((backup) => backup.reason === reason).slice(Math.max(1, keep))) {
    removeBackupFile(old.path);
    removed.push(old.name);
  }
  return removed;
}

/**
 * Partial copies an interrupted backup left behind. One that cannot be removed is left for the next
 * backup: on Windows, the copy process of a host that was killed may still hold its file open, and
 * a new backup, under another name, must not fail for it.
 */
export function removePartials(dataDir: string): void {
  const dir = backupsDir(dataDir);
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    if (!/\.partial(-wal|-shm|-journal)?$/.test(name)) continue;
    try {
      rmSync(join(dir, name), { force: true });
    } catch {
      // In use or not a file: left, and tried again at the next backup.
    }
  }
}

/** A database file with its side files. */
export function removeBackupFile(path: string): void {
  rmSync(path, { force: true });
  for (const side of SIDE_FILES) rmSync(`${path}${side}`, { force: true });
}

/** Makes a finished copy durable under its final name: the file synced, renamed, the folder synced. */
export function publishCopy(partial: string, final: string): void {
  syncFile(partial);
  renameSync(partial, final);
  syncDir(join(final, '..'));
}

export function syncFile(path: string): void {
  const fd = openSync(path, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export function syncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Directories cannot be opened for fsync on every platform (Windows); the rename still stands.
  }
}
