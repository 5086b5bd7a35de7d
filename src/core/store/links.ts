/**
 * Symmetric associations between records (asset ↔ tag, conversation ↔ website, …). Each link is
 * stored in both directions, so either side lists its partners with one indexed lookup, and
 * deleting a record removes every link that names it: nothing dangles.
 */
import type { Database } from './database.ts';
import type { RecordKind } from '../events.ts';

export interface LinkEnd {
  readonly kind: RecordKind;
  readonly id: string;
}

export class Links {
  private readonly database: Database;

  constructor(database: Database) {
    this.database = database;
  }

  /** Idempotent: linking twice leaves one link. Returns whether a new link was made. */
  link(a: LinkEnd, b: LinkEnd): boolean {
    const now = new Date().toISOString();
    const insert = this.database.prepare(
      'INSERT OR IGNORE INTO links (a_kind, a_id, b_kind, b_id, created) VALUES (?, ?, ?, ?, ?)',
    );
    return this.database.transaction(() => {
      const made = Number(insert.run(a.kind, a.id, b.kind, b.id, now).changes) > 0;
      insert.run(b.kind, b.id, a.kind, a.id, now);
      return made;
    });
  }

  /**
   * Many links at once (an import's batch): both directions of every pair in one pass, in key
   * order, so the inserts walk the link indexes instead of landing on random pages. Idempotent.
   */
  linkMany(pairs: ReadonlyArray<readonly [LinkEnd, LinkEnd]>): void {
    if (pairs.length === 0) return;
    const now = new Date().toISOString();
    const rows: Array<[string, string, string, string]> = [];
    for (const [a, b] of pairs) rows.push([a.kind, a.id, b.kind, b.id], [b.kind, b.id, a.kind, a.id]);
    rows.sort((x, y) => compareKeys(x, y));
    const insert = this.database.prepare('INSERT OR IGNORE INTO links (a_kind, a_id, b_kind, b_id, created) VALUES (?, ?, ?, ?, ?)');
    this.database.transaction(() => {
      for (const row of rows) insert.run(row[0], row[1], row[2], row[3], now);
    });
  }

  /** Returns whether a link existed. */
  unlink(a: LinkEnd, b: LinkEnd): boolean {
    const remove = this.database.prepare('DELETE FROM links WHERE a_kind = ? AND a_id = ? AND b_kind = ? AND b_id = ?');
    return this.database.transaction(() => {
      const existed = Number(remove.run(a.kind, a.id, b.kind, b.id).changes) > 0;
      remove.run(b.kind, b.id, a.kind, a.id);
      return existed;
    });
  }

  has(a: LinkEnd, b: LinkEnd): boolean {
    return (
      this.database
        .prepare('SELECT 1 FROM links WHERE a_kind = ? AND a_id = ? AND b_kind = ? AND b_id = ?')
        .get(a.kind, a.id, b.kind, b.id) !== undefined
    );
  }

  /** Ids of the records of `kind` linked to `from`, oldest link first. */
  partners(from: LinkEnd, kind: RecordKind): string[] {
    const rows = this.database
      .prepare('SELECT b_id FROM links WHERE a_kind = ? AND a_id = ? AND b_kind = ? ORDER BY rowid')
      .all(from.kind, from.id, kind) as Array<{ b_id: string }>;
    return rows.map((row) => row.b_id);
  }

  /** How many records of `kind` are linked to `from`, counted up to `atMost` (a bound on the work). */
  count(from: LinkEnd, kind: RecordKind, atMost: number): number {
    const row = this.database
      .prepare('SELECT count(*) AS n FROM (SELECT 1 FROM links WHERE a_kind = ? AND a_id = ? AND b_kind = ? LIMIT ?)')
      .get(from.kind, from.id, kind, atMost) as { n: number };
    return row.n;
  }

  /**
   * The partners of each record of `kind` named in `ids`, by the partners' kind, oldest link first:
   * one query for a page of records instead of one per record and partner kind.
   */
  partnersOfEach(kind: RecordKind, ids: readonly string[]): Map<string, Map<RecordKind, string[]>> {
    const out = new Map<string, Map<RecordKind, string[]>>(ids.map((id) => [id, new Map()]));
    const rows = this.database
      .prepare(
        `SELECT l.a_id AS id, l.b_kind AS kind, l.b_id AS partner FROM json_each(?) j
         CROSS JOIN links l ON l.a_kind = ? AND l.a_id = j.value ORDER BY l.rowid`,
      )
      .all(JSON.stringify(ids), kind) as Array<{ id: string; kind: RecordKind; partner: string }>;
    for (const row of rows) {
      const byKind = out.get(row.id)!;
      const partners = byKind.get(row.kind);
      if (partners) partners.push(row.partner);
      else byKind.set(row.kind, [row.partner]);
    }
    return out;
  }

  /** Removes every link of a record; returns the partners it had, so their views can be refreshed. */
  removeAll(end: LinkEnd): LinkEnd[] {
    return this.database.transaction(() => {
      const rows = this.database
        .prepare('SELECT b_kind, b_id FROM links WHERE a_kind = ? AND a_id = ?')
        .all(end.kind, end.id) as Array<{ b_kind: RecordKind; b_id: string }>;
      this.database.prepare('DELETE FROM links WHERE a_kind = ? AND a_id = ?').run(end.kind, end.id);
      this.database.prepare('DELETE FROM links WHERE b_kind = ? AND b_id = ?').run(end.kind, end.id);
      return rows.map((row) => ({ kind: row.b_kind, id: row.b_id }));
    });
  }
}

function compareKeys(x: readonly string[], y: readonly string[]): number {
  for (let i = 0; i < x.length; i++) {
    if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
  }
  return 0;
}
