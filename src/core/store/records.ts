/**
 * A JSON document per record, keyed by kind and id: the wire shape of the record as last written.
 * Areas whose records need no dedicated table (tags, websites, annotations, sessions, …) use this
 * directly; relations between records live in `links`, never inside the documents.
 */
import type { Database } from './database.ts';
import type { RecordKind } from '../events.ts';

export interface StoredRecord<T> {
  readonly id: string;
  readonly data: T;
}

export class Records {
  private readonly database: Database;

  constructor(database: Database) {
    this.database = database;
  }

  get<T>(kind: RecordKind, id: string): T | undefined {
    const row = this.database.prepare('SELECT data FROM records WHERE kind = ? AND id = ?').get(kind, id) as
      | { data: string }
      | undefined;
    return row ? (JSON.parse(row.data) as T) : undefined;
  }

  /**
   * The records of `kind` among `ids` (those missing left out), read with one query. The index is
   * named: a store's first close leaves statistics saying `records` holds a row or two, and the
   * planner then scans the whole table once per id until the next close (21 ms for a page of 64
   * conversations at 2k conversations, against 2 ms with the index).
   */
  getMany<T>(kind: RecordKind, ids: readonly string[]): Map<string, T> {
    const rows = this.database
      .prepare(
        `SELECT r.id AS id, r.data AS data FROM json_each(?) j
         CROSS JOIN records r INDEXED BY sqlite_autoindex_records_1 ON r.kind = ? AND r.id = j.value`,
      )
      .all(JSON.stringify(ids), kind) as Array<{ id: string; data: string }>;
    return new Map(rows.map((row) => [row.id, JSON.parse(row.data) as T]));
  }

  has(kind: RecordKind, id: string): boolean {
    return this.database.prepare('SELECT 1 FROM records WHERE kind = ? AND id = ?').get(kind, id) !== undefined;
  }

  /**
   * Inserts or replaces; call inside `database.transaction` when it is part of a larger write.
   * `lookup` is the record's natural key (see `find`), if its kind has one.
   */
  put<T>(kind: RecordKind, id: string, data: T, lookup?: string): void {
    const now = new Date().toISOString();
    this.database
      .prepare(
        `INSERT INTO records (kind, id, created, updated, data, lookup) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (kind, id) DO UPDATE SET updated = excluded.updated, data = excluded.data, lookup = excluded.lookup`,
      )
      .run(kind, id, now, now, JSON.stringify(data), lookup ?? null);
  }

  /** The record of `kind` whose natural key is `lookup` (an index lookup, not a scan). */
  find<T>(kind: RecordKind, lookup: string): StoredRecord<T> | undefined {
    const row = this.database.prepare('SELECT id, data FROM records WHERE kind = ? AND lookup = ? ORDER BY rowid LIMIT 1').get(kind, lookup) as
      | { id: string; data: string }
      | undefined;
    return row ? { id: row.id, data: JSON.parse(row.data) as T } : undefined;
  }

  /** Returns whether a record was deleted. Does not touch links: see `Links.removeAll`. */
  delete(kind: RecordKind, id: string): boolean {
    const result = this.database.prepare('DELETE FROM records WHERE kind = ? AND id = ?').run(kind, id);
    return Number(result.changes) > 0;
  }

  /** All records of a kind in insertion order. */
  list<T>(kind: RecordKind): Array<StoredRecord<T>> {
    const rows = this.database.prepare('SELECT id, data FROM records WHERE kind = ? ORDER BY rowid').all(kind) as Array<{
      id: string;
      data: string;
    }>;
    return rows.map((row) => ({ id: row.id, data: JSON.parse(row.data) as T }));
  }

  /** All records of a kind in insertion order, `size` at a time (one page in memory, whatever the count). */
  *pages<T>(kind: RecordKind, size: number): Generator<Array<StoredRecord<T>>> {
    const read = this.database.prepare('SELECT rowid AS at, id, data FROM records WHERE kind = ? AND rowid > ? ORDER BY rowid LIMIT ?');
    let after = 0;
    for (;;) {
      const rows = read.all(kind, after, size) as Array<{ at: number; id: string; data: string }>;
      if (rows.length === 0) return;
      yield rows.map((row) => ({ id: row.id, data: JSON.parse(row.data) as T }));
      if (rows.length < size) return;
      after = rows[rows.length - 1]!.at;
    }
  }

  ids(kind: RecordKind): string[] {
    const rows = this.database.prepare('SELECT id FROM records WHERE kind = ? ORDER BY rowid').all(kind) as Array<{ id: string }>;
    return rows.map((row) => row.id);
  }

  /** Ids of the `limit` records of a kind written last, newest first (one sort of ids, no document read). */
  newest(kind: RecordKind, limit: number): string[] {
    const rows = this.database.prepare('SELECT id FROM records WHERE kind = ? ORDER BY updated DESC, rowid DESC LIMIT ?').all(kind, limit) as Array<{
      id: string;
    }>;
    return rows.map((row) => row.id);
  }

  count(kind: RecordKind): number {
    const row = this.database.prepare('SELECT COUNT(*) AS n FROM records WHERE kind = ?').get(kind) as { n: number };
    return row.n;
  }
}
