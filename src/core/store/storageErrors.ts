/** SQLite's storage failures as domain errors (a full disk, a read-only or failing file). */
import { InsufficientResourcesError, StoreUnusableError } from '../errors.ts';

// SQLite result codes (primary code = extended code & 0xff).
export const SQLITE_BUSY = 5;
export const SQLITE_LOCKED = 6;
const SQLITE_READONLY = 8;
const SQLITE_IOERR = 10;
const SQLITE_FULL = 13;

/** The primary SQLite result code of a node:sqlite error (0 for anything else). */
export function sqliteCode(error: unknown): number {
  const errcode = (error as { errcode?: unknown } | null)?.errcode;
  return typeof errcode === 'number' ? errcode & 0xff : 0;
}

/** Turns storage failures into domain errors; anything else passes through unchanged. */
export function storageError(error: unknown, path: string): unknown {
  if (typeof (error as { errcode?: unknown } | null)?.errcode !== 'number') return error;
  switch (sqliteCode(error)) {
    case SQLITE_FULL:
      return new InsufficientResourcesError(`The disk holding ${path} is full; the write was not saved. Free some space and retry.`);
    case SQLITE_READONLY:
      return new StoreUnusableError(`The database ${path} has become read-only; the write was not saved.`);
    case SQLITE_IOERR:
      return new StoreUnusableError(`The database ${path} could not be written (I/O error); the write was not saved.`);
    default:
      return error;
  }
}
