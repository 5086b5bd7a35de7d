/**
 * The checks a database file passes before Satchel writes to it: a data directory it may write in,
 * and a healthy SQLite file (a full quick_check when small, a structural check when large, so
 * start-up does not grow with the store) that is a Satchel database, never another program's.
 */
import type { DatabaseSync } from 'node:sqlite';
import { statSync, openSync, readSync, closeSync, existsSync, accessSync, constants } from 'node:fs';
import { StoreUnusableError } from '../errors.ts';
import { join } from 'node:path';
import { ensurePrivateDir } from './privateFiles.ts';

/**
 * Makes the data directory (private) if it is missing and refuses one Satchel cannot write in, or
 * a database `file` in it this user cannot read and write; gives the file's path and whether it existed.
 */
export function checkDataDir(dataDir: string, file: string): { path: string; existed: boolean } {
  try {
    ensurePrivateDir(dataDir, file);
  } catch (error) {
    throw new StoreUnusableError(`Cannot create the data directory ${dataDir}: ${(error as Error).message}`);
  }
  const path = join(dataDir, file);
  const existed = existsSync(path);
  try {
    // WAL needs to create its side files next to the database.
    accessSync(dataDir, constants.W_OK);
  } catch {
    throw new StoreUnusableError(`The data directory ${dataDir} is not writable (read-only file system or permissions).`);
  }
  if (existed) {
    try {
      accessSync(path, constants.R_OK | constants.W_OK);
    } catch {
      throw new StoreUnusableError(`The database ${path} is not readable and writable by this user.`);
    }
  }
  return { path, existed };
}

/** Refuses a file that is not a healthy SQLite database before anything writes to it. */
export function checkReadable(db: DatabaseSync, path: string, fullCheckMaxBytes: number): void {
  let result: string;
  try {
    result = statSync(path).size <= fullCheckMaxBytes ? quickCheck(db) : structuralCheck(db, path);
  } catch (error) {
    throw new StoreUnusableError(
      `The database ${path} is damaged or is not a Satchel database (${(error as Error).message}). ` +
        'It was left untouched; move it aside to start with an empty store, or restore a backup.',
    );
  }
  if (result !== 'ok') {
    throw new StoreUnusableError(
      `The database ${path} failed its integrity check (${result}). It was left untouched; ` +
        'move it aside to start with an empty store, or restore a backup.',
    );
  }
  const tables = db
    .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    .all() as Array<{ name: string }>;
  if (tables.length > 0 && !tables.some((table) => table.name === 'schema_version')) {
    // Another program's database: never migrate into it.
    throw new StoreUnusableError(
      `The file ${path} is a SQLite database but not a Satchel database. It was left untouched; ` +
        'point Satchel at another data directory.',
    );
  }
}

function quickCheck(db: DatabaseSync): string {
  const row = db.prepare('PRAGMA quick_check').get() as { quick_check?: string } | undefined;
  return row?.quick_check ?? 'no answer';
}

/**
 * For large stores quick_check reads every page (seconds at 100k assets, on every start). This
 * reads the schema and checks the file is as long as its header says, which catches garbage,
 * foreign files and truncation, the damage a crash or a bad copy leaves.
 */
function structuralCheck(db: DatabaseSync, path: string): string {
  db.prepare('SELECT COUNT(*) FROM sqlite_schema').get();
  const header = Buffer.alloc(100);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, header, 0, 100, 0);
  } finally {
    closeSync(fd);
  }
  const pageSize = header.readUInt16BE(16) === 1 ? 65536 : header.readUInt16BE(16);
  const pages = header.readUInt32BE(28);
  const sizeValid = header.readUInt32BE(24) === header.readUInt32BE(92);
  if (sizeValid && statSync(path).size < pages * pageSize) return `the file is shorter than its ${pages} pages`;
  return 'ok';
}
