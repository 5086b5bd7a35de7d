/**
 * Schema migrations: each area numbers its own in a disjoint series (2, 102, 202… for assets), and
 * a store records the set it has applied. A store that records one this version does not know was
 * written by a newer Satchel and is refused untouched.
 */
import type { DatabaseSync } from 'node:sqlite';
import { StoreUnusableError } from '../errors.ts';

export interface Migration {
  /** Strictly increasing across all migrations; never reuse or renumber a released one. */
  readonly version: number;
  readonly name: string;
  up(db: DatabaseSync): void;
}

/**
 * Applies every migration not yet recorded, each in its own transaction (`transaction`). A later
 * release may add a version below one already applied: what was applied is a set, not a
 * high-water mark. `beforeUpgrade` runs first when a store that already holds a schema is about
 * to be migrated (not for a new store); if it throws, nothing is migrated.
 */
export function applyMigrations(
  db: DatabaseSync,
  path: string,
  migrations: readonly Migration[],
  transaction: (fn: () => void) => void,
  beforeUpgrade?: (pending: readonly Migration[]) => void,
): void {
  const sorted = [...migrations].sort((a, b) => a.version - b.version);
  db.exec('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL, name TEXT NOT NULL, applied TEXT NOT NULL)');
  const rows = db.prepare('SELECT version FROM schema_version').all() as Array<{ version: number }>;
  const applied = new Set(rows.map((row) => row.version));
  const known = new Set(sorted.map((migration) => migration.version));
  const unknown = [...applied].filter((version) => !known.has(version));
  if (unknown.length > 0) {
    throw new StoreUnusableError(
      `The database ${path} was written by a newer version of Satchel (schema ${Math.max(...unknown)}; this version knows ${sorted.at(-1)?.version ?? 0}). ` +
        'Update Satchel to open it. The file was left untouched.',
    );
  }
  const pending = sorted.filter((migration) => !applied.has(migration.version));
  if (applied.size > 0 && pending.length > 0) beforeUpgrade?.(pending);
  for (const migration of pending) {
    transaction(() => {
      migration.up(db);
      db.prepare('INSERT INTO schema_version (version, name, applied) VALUES (?, ?, ?)').run(migration.version, migration.name, new Date().toISOString());
    });
  }
}

/** The highest migration a store has applied (0 for a new one). */
export function schemaVersion(db: DatabaseSync): number {
  const row = db.prepare('SELECT MAX(version) AS v FROM schema_version').get() as { v: number | null };
  return row.v ?? 0;
}
