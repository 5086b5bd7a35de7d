/**
 * The data directory holds every snippet and conversation in clear text, so it is private to its
 * user whatever the umask: the directory 0700, the files Satchel creates in it 0600. Other
 * platforms' permission models (Windows ACLs) are left to their defaults.
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

const posix = process.platform !== 'win32';

/**
 * Creates `dir` (and missing parents) private to this user. An existing directory is tightened
 * only when it is ours and empty or already holds `marker` (a Satchel data directory from before),
 * so pointing --data-dir at a shared directory never changes that directory's mode.
 */
export function ensurePrivateDir(dir: string, marker: string): void {
  const existed = existsSync(dir);
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (!posix) return;
  try {
    const info = statSync(dir);
    if ((info.mode & 0o077) === 0) return;
    const ours = process.getuid === undefined || info.uid === process.getuid();
    const sticky = (info.mode & 0o1000) !== 0;
    const satchels = !existed || existsSync(join(dir, marker)) || readdirSync(dir).length === 0;
    if (ours && !sticky && satchels) chmodSync(dir, PRIVATE_DIR_MODE);
  } catch {
    // A directory we may not chmod (another owner, a read-only mount) is used as it is.
  }
}

/** Creates `path` empty with mode 0600 when missing, or takes group and other access away from it. */
export function ensurePrivateFile(path: string): void {
  if (!posix) return;
  try {
    if (!existsSync(path)) {
      closeSync(openSync(path, 'a', PRIVATE_FILE_MODE));
      return;
    }
    if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, PRIVATE_FILE_MODE);
  } catch {
    // Read-only or foreign files: the open that follows reports what is wrong.
  }
}

/** Takes group and other access away from `path` if it exists (side files SQLite made earlier). */
export function tightenIfPresent(path: string): void {
  if (posix && existsSync(path)) ensurePrivateFile(path);
}
