/**
 * A small reserve file in the data directory, given back when the disk is full. Opening a WAL
 * database needs room for its shared-memory and WAL files; on a disk another program filled to the
 * last byte, a host that stopped cleanly (and so removed them) could not start again. The reserve
 * is deleted before opening on a full disk, and made again once there is room.
 */
import { closeSync, existsSync, openSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { PRIVATE_FILE_MODE, tightenIfPresent } from './privateFiles.ts';

const RESERVE_FILE = 'space.reserve';
const RESERVE_BYTES = 2 * 1024 * 1024;

/** Free bytes on the disk holding `dir` (Infinity when the platform cannot tell). */
export function freeBytes(dir: string): number {
  try {
    const info = statfsSync(dir);
    return Number(info.bavail) * Number(info.bsize);
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

/** Whether the disk holding `dir` has less room left than the reserve holds. */
export function diskFull(dir: string): boolean {
  return freeBytes(dir) < RESERVE_BYTES;
}

/** Deletes the reserve when the disk has less than it left; returns whether it did. */
export function releaseReserveIfFull(dir: string): boolean {
  const path = join(dir, RESERVE_FILE);
  if (!existsSync(path) || !diskFull(dir)) return false;
  rmSync(path, { force: true });
  return true;
}

/** Makes the reserve when it is missing and the disk has ample room; never fails. */
export function keepReserve(dir: string): void {
  const path = join(dir, RESERVE_FILE);
  if (existsSync(path)) {
    tightenIfPresent(path);
    return;
  }
  if (freeBytes(dir) < RESERVE_BYTES * 4) return;
  let fd: number | undefined;
  try {
    // Written, not truncated to size: a sparse file would reserve nothing.
    fd = openSync(path, 'w', PRIVATE_FILE_MODE);
    writeSync(fd, Buffer.alloc(RESERVE_BYTES));
  } catch {
    rmSync(path, { force: true });
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
