/**
 * Reading and writing agents' config files safely: the original is copied beside itself first,
 * the new text is written whole to a temporary file in the same folder, synced, and renamed over
 * the original (an agent reading meanwhile sees the old file or the new one, never half of one).
 * A file that changed since its preview is not overwritten.
 */
import { constants } from 'node:fs';
import { copyFile, mkdir, open, readFile, realpath, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ConflictError } from '../errors.ts';
import type { ConfigChange } from './connectPlan.ts';

/** A config file's text, or undefined when it does not exist. */
export async function readConfigText(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

export interface WrittenChange {
  readonly file: string;
  /** The copy of the original, when there was one. */
  readonly backup: string | undefined;
}

/** Writes `change.after` over `change.file`, keeping a copy of the original beside it. */
export async function writeConfigChange(change: ConfigChange, now: Date = new Date()): Promise<WrittenChange> {
  // A dotfile manager's symlink stays a symlink: the file it points to is the one replaced.
  const target = await realpath(change.file).catch(() => change.file);
  const current = await readConfigText(target);
  if (current !== change.before) {
    throw new ConflictError(`${change.file} changed since the preview; nothing was written. Run the command again to see the change on what it holds now.`);
  }
  let backup: string | undefined;
  let mode = 0o600;
  if (current !== undefined) {
    mode = (await stat(target)).mode & 0o777;
    backup = join(dirname(target), `${basename(target)}.satchel-backup-${stampOf(now)}`);
    await copyFile(target, backup, constants.COPYFILE_EXCL);
  } else {
    await mkdir(dirname(target), { recursive: true });
  }
  await writeAtomically(target, change.after, mode);
  return { file: change.file, backup };
}

async function writeAtomically(file: string, text: string, mode: number): Promise<void> {
  const partial = join(dirname(file), `.${basename(file)}.${process.pid}.satchel-partial`);
  try {
    const handle = await open(partial, 'w', mode);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(partial, file);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  try {
    const folder = await open(dirname(file), 'r');
    try {
      await folder.sync();
    } finally {
      await folder.close();
    }
  } catch {
    // Folders cannot be opened for syncing on every platform (Windows); the rename still stands.
  }
}

/** 2026-11-28T19-05-03-123 (no colons: Windows file names cannot hold them). */
function stampOf(date: Date): string {
  return date.toISOString().slice(0, 23).replaceAll(/[:.]/g, '-');
}

function isMissing(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === 'ENOENT';
}
