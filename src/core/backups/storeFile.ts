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

/** Counts read from an open store; tables an older schema lacks count as empty. */
export function summarize(db: DatabaseSync): StoreSummary {
  const count = (sql: string): number => {
    try {
      return Number((db.prepare(sql).get() as { n: number | null } | undefined)?.n ?? 0);
    } catch {
      return 0;
    }
  };
  let lastChange: string | undefined;
  try {
    lastChange = (db.prepare('SELECT MAX(updated) AS v FROM assets').get() as { v: string | null }).v ?? undefined;
  } catch {
    lastChange = undefined;
  }
  return {
    assets: count('SELECT COUNT(*) AS n FROM assets WHERE suggested = 0 AND pseudo = 0'),
    conversations: count("SELECT COUNT(*) AS n FROM records WHERE kind = 'conversation'"),
    schemaVersion: count('SELECT MAX(version) AS n FROM schema_version'),
    lastChange,
  };
}

/** The summary of the store file at `path` (a copy just written). */
export function summarizeFile(path: string): StoreSummary {
  const { DatabaseSync } = sqlite();
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return summarize(db);
  } finally {
    db.close();
  }
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
