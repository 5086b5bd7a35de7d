/**
 * What a store file holds, and whether a file may become a data directory's store: a healthy
 * SQLite database (a full integrity check: restoring is rare and a damaged copy must never replace
 * a working store), written by Satchel, at a schema this version knows or an older one.
 */
import type { DatabaseSync } from 'node:sqlite';
import { StoreUnusableError } from '../errors.ts';
import { sqlite } from '../store/sqlite.ts';
import type { Migration } from '../store/migrations.ts';

export interface StoreSummary {
  /** Assets a user sees (suggestions and pseudo assets left out). */
  readonly assets: number;
  readonly conversations: number;
  /** The newest migration the store has applied. */
  readonly schemaVersion: number;
  /** When an asset last changed (ISO), if it holds any. */
  readonly lastChange: string | undefined;
}

/** What a summary is read with: each query answers one value, `v` (copyProcess.ts runs them too). */
export const SUMMARY_QUERIES = {
  assets: 'SELECT COUNT(*) AS v FROM assets WHERE suggested = 0 AND pseudo = 0',
  conversations: "SELECT COUNT(*) AS v FROM records WHERE kind = 'conversation'",
  schemaVersion: 'SELECT MAX(version) AS v FROM schema_version',
  lastChange: 'SELECT MAX(updated) AS v FROM assets',
} as const;

/** The summary from the queries' answers (null where a table an older schema lacks was missing). */
export function summaryOf(values: Readonly<Record<string, unknown>>): StoreSummary {
  const lastChange = values.lastChange;
  return {
    assets: Number(values.assets ?? 0),
    conversations: Number(values.conversations ?? 0),
    schemaVersion: Number(values.schemaVersion ?? 0),
    lastChange: typeof lastChange === 'string' ? lastChange : undefined,
  };
}

/** The summary of an open store, read on this thread (a store a restore checks, not a live one). */
export function summarize(db: DatabaseSync): StoreSummary {
  const values: Record<string, unknown> = {};
  for (const [key, sql] of Object.entries(SUMMARY_QUERIES)) {
    try {
      values[key] = (db.prepare(sql).get() as { v: unknown } | undefined)?.v;
    } catch {
      values[key] = null;
    }
  }
  return summaryOf(values);
}

/**
 * Whether a store holds anything a user would miss (cheap: the first row of each kind). What is in
 * the trash counts: a library deleted whole is still there to restore (a store before the trash's
 * schema has no such table, which reads as none).
 */
export function holdsData(db: DatabaseSync): boolean {
  const exists = (sql: string): boolean => {
    try {
      return db.prepare(`SELECT EXISTS (${sql}) AS v`).get()?.v === 1;
    } catch {
      return false;
    }
  };
  return exists('SELECT 1 FROM assets WHERE suggested = 0 AND pseudo = 0') || exists("SELECT 1 FROM records WHERE kind = 'conversation'") || exists('SELECT 1 FROM trash');
}

/**
 * Opens `path` and checks it can become a store, or throws StoreUnusableError saying why not: not
 * a database, damaged, another program's database, or written by a newer Satchel. The connection
 * is the caller's to close; it is in rollback-journal mode, so closing leaves one self-contained file.
 */
export function openCheckedStore(path: string, migrations: readonly Migration[]): { db: DatabaseSync; summary: StoreSummary } {
  const { DatabaseSync } = sqlite();
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(path);
  } catch (error) {
    throw new StoreUnusableError(`${path} cannot be opened as a database (${(error as Error).message}).`);
  }
  try {
    checkStore(db, path, migrations);
    // A copy of a live store may come with its WAL: this folds it into the file.
    db.exec('PRAGMA journal_mode = DELETE');
    return { db, summary: summarize(db) };
  } catch (error) {
    db.close();
    throw error;
  }
}

function checkStore(db: DatabaseSync, path: string, migrations: readonly Migration[]): void {
  let problems: string;
  try {
    problems = (db.prepare('PRAGMA integrity_check').all() as Array<{ integrity_check: string }>).map((row) => row.integrity_check).join('; ');
  } catch (error) {
    throw new StoreUnusableError(`${path} is not a Satchel store: it is not a SQLite database or is damaged (${(error as Error).message}).`);
  }
  if (problems !== 'ok') throw new StoreUnusableError(`${path} is damaged: its integrity check failed (${problems.slice(0, 500)}).`);
  const hasVersions = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'schema_version'").get() !== undefined;
  const versions = hasVersions ? (db.prepare('SELECT version FROM schema_version').all() as Array<{ version: number }>).map((row) => row.version) : [];
  if (versions.length === 0) throw new StoreUnusableError(`${path} is a SQLite database but not a Satchel store (it records no Satchel schema).`);
  const known = new Set(migrations.map((migration) => migration.version));
  const unknown = versions.filter((version) => !known.has(version));
  if (unknown.length > 0) {
    throw new StoreUnusableError(
      `${path} was written by a newer version of Satchel (schema ${Math.max(...unknown)}; this version knows ${Math.max(...known)}). Update Satchel to restore it.`,
    );
  }
}
