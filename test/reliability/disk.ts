/**
 * Disk conditions for the fault tests: a small tmpfs (a real full disk) and a read-only directory.
 * Mounting needs root with CAP_SYS_ADMIN; without it, callers use the fallbacks each test names.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, closeSync, openSync, readFileSync, readdirSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export function canMount(): boolean {
  return process.getuid?.() === 0;
}

function run(command: string, args: string[]): { ok: boolean; output: string } {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  return { ok: result.status === 0, output: `${result.stdout ?? ''}${result.stderr ?? ''}${result.error?.message ?? ''}` };
}

/** Mounts a tmpfs of `sizeKb` on `dir`; false when this process may not mount. */
export function mountTmpfs(dir: string, sizeKb: number): boolean {
  if (!canMount()) return false;
  return run('mount', ['-t', 'tmpfs', '-o', `size=${sizeKb}k,mode=0755`, 'tmpfs', dir]).ok;
}

export function remount(dir: string, mode: 'ro' | 'rw'): void {
  const result = run('mount', ['-o', `remount,${mode}`, dir]);
  if (!result.ok) throw new Error(`remount ${mode} of ${dir} failed: ${result.output}`);
}

export function unmount(dir: string): void {
  run('umount', ['-l', dir]);
}

/**
 * Makes `dir` read-only for this process: a read-only remount of a tmpfs when root (permission bits
 * do not stop root), else mode bits. Returns how, and a function that undoes it.
 */
export function makeReadOnly(dir: string, mounted: boolean): { how: string; undo: () => void } {
  if (mounted) {
    remount(dir, 'ro');
    return { how: 'read-only mount', undo: () => remount(dir, 'rw') };
  }
  if (canMount()) throw new Error('running as root without a mount: no way to make a directory read-only for this process');
  const files = readdirSync(dir);
  for (const file of files) chmodSync(join(dir, file), 0o444);
  chmodSync(dir, 0o555);
  return {
    how: 'permission bits',
    undo: () => {
      chmodSync(dir, 0o755);
      for (const file of files) chmodSync(join(dir, file), 0o644);
    },
  };
}

/** Every file of `dir` with its bytes, to prove a refused open changed nothing. */
export function snapshotFiles(dir: string, names?: readonly string[]): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const name of names ?? readdirSync(dir)) files.set(name, readFileSync(join(dir, name)));
  return files;
}

/** Writes `path` until its disk has no byte left (another program filling the disk). */
export function fillDisk(path: string): void {
  const fd = openSync(path, 'w');
  try {
    for (const size of [1 << 20, 4096, 512, 1]) {
      try {
        for (;;) writeSync(fd, Buffer.alloc(size));
      } catch (error) {
        // Full at this granularity (try a smaller one); any other failure is the test's own.
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      }
    }
  } finally {
    closeSync(fd);
  }
}
