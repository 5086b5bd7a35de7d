/**
 * The SQL of the trash tables (schema.ts): every statement on them lives here, except the moves of
 * a conversation's messages, which the conversations area makes beside its own tables
 * (messageStore.ts). Callers hold the transaction; nothing here decides what goes to the trash
 * (the assets and conversations areas do, in their deletes).
 */
import type { Database } from '../store/database.ts';
import type { LinkEnd } from '../store/links.ts';
import type { RecordKind } from '../events.ts';
import { authorOf, isAuthorKind, type Author } from '../history/authors.ts';

export const TRASH_KINDS = ['asset', 'conversation'] as const;
export type TrashKind = (typeof TRASH_KINDS)[number];

/** What a listing shows of an entry, and where it sorts. */
export interface TrashHead {
  readonly rowid: number;
  readonly id: string;
  readonly kind: TrashKind;
  readonly name: string;
  /** The opening of its text (an asset's content, a conversation's first message). */
  readonly preview: string;
  /** An asset's language (its original format's classification). */
  readonly language: string | undefined;
  /** A conversation's message count. */
  readonly messages: number | undefined;
  /** When it was deleted, ms since the epoch. */
  readonly deleted: number;
  readonly author: Author;
  /** Bytes its entry keeps (documents and messages). */
  readonly size: number;
}

/** An entry whole: its head, the live row's other columns and its document, as stored. */
export interface TrashEntry extends TrashHead {
  /** JSON of the live row's columns besides the document (the area that trashed it reads it). */
  readonly facts: string;
  readonly data: string;
}

export type NewTrashEntry = Omit<TrashEntry, 'rowid'>;

/** A link the record (or one of its messages, or a record deleted with it) had: `a` is the trashed end. */
export interface SavedLink {
  readonly a: LinkEnd;
  readonly b: LinkEnd;
}

/** A record linked to the entry, as the records table held it. */
export interface SavedRecord {
  readonly kind: RecordKind;
  readonly id: string;
  /** Deleted with the entry (and put back with it), rather than a copy of a shared record. */
  readonly owned: boolean;
  readonly data: string;
  readonly lookup: string | null;
}

/** Where a page of a listing starts: after this entry (newest deleted first). */
export interface TrashCursor {
  readonly deleted: number;
  readonly rowid: number;
}

type HeadRow = {
  rowid: number;
  id: string;
  kind: TrashKind;
  name: string;
  preview: string;
  language: string | null;
  messages: number | null;
  deleted: number;
  author_kind: string;
  author_name: string;
  size: number;
};

const HEAD_COLUMNS = 'rowid, id, kind, name, preview, language, messages, deleted, author_kind, author_name, size';

function headOf(row: HeadRow): TrashHead {
  return {
    rowid: row.rowid,
    id: row.id,
    kind: row.kind,
    name: row.name,
    preview: row.preview,
    language: row.language ?? undefined,
    messages: row.messages ?? undefined,
    deleted: row.deleted,
    author: authorOf(isAuthorKind(row.author_kind) ? row.author_kind : 'unknown', row.author_name),
    size: row.size,
  };
}

export class TrashStore {
  private readonly database: Database;
  /**
   * Counts and bytes by kind ('' for all), read once after each change of the trash: summing the
   * sizes read every entry (50 ms at 20k entries), so 200 concurrent listings held health for 4 s.
   */
  private readonly counted = new Map<string, { count: number; bytes: number }>();

  constructor(database: Database) {
    this.database = database;
  }

  // ---------------------------------------------------------------- keeping (inside a delete)

  keep(entry: NewTrashEntry): void {
    this.changed();
    this.database
      .prepare(
        `INSERT INTO trash (id, kind, name, preview, language, messages, deleted, author_kind, author_name, size, facts, data)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        entry.id,
        entry.kind,
        entry.name,
        entry.preview,
        entry.language ?? null,
        entry.messages ?? null,
        entry.deleted,
        entry.author.kind,
        entry.author.name,
        entry.size,
        entry.facts,
        entry.data,
      );
  }

  /** Keeps every link of `from` (the record itself, or one of its messages), in the order they were made. */
  keepLinks(owner: string, from: LinkEnd): void {
    this.database
      .prepare(
        `INSERT INTO trash_links (owner, a_kind, a_id, b_kind, b_id, created)
         SELECT ?, a_kind, a_id, b_kind, b_id, created FROM links WHERE a_kind = ? AND a_id = ? ORDER BY rowid`,
      )
      .run(owner, from.kind, from.id);
  }

  /** Keeps every link of each record of `kind` among `ids` (a conversation's messages), in the order they were made. */
  keepLinksOfEach(owner: string, kind: RecordKind, ids: readonly string[]): void {
    if (ids.length === 0) return;
    this.database
      .prepare(
        `INSERT INTO trash_links (owner, a_kind, a_id, b_kind, b_id, created)
         SELECT ?, l.a_kind, l.a_id, l.b_kind, l.b_id, l.created FROM json_each(?) j
         CROSS JOIN links l ON l.a_kind = ? AND l.a_id = j.value ORDER BY l.rowid`,
      )
      .run(owner, JSON.stringify(ids), kind);
  }

  /**
   * Keeps records of `kind` as they are stored now: `owned` when they are deleted with the entry
   * (put back with it); otherwise a copy to make a shared record again should it be deleted meanwhile.
   */
  keepRecords(owner: string, kind: RecordKind, ids: readonly string[], owned: boolean): void {
    if (ids.length === 0) return;
    this.database
      .prepare(
        `INSERT OR IGNORE INTO trash_records (owner, kind, id, owned, created, updated, data, lookup)
         SELECT ?, r.kind, r.id, ?, r.created, r.updated, r.data, r.lookup FROM json_each(?) j
         CROSS JOIN records r INDEXED BY sqlite_autoindex_records_1 ON r.kind = ? AND r.id = j.value ORDER BY j.key`,
      )
      .run(owner, owned ? 1 : 0, JSON.stringify(ids), kind);
  }

  /** A copy of each tag and website the entry's links name (made again by text or url at restore, if deleted meanwhile). */
  keepShared(owner: string): void {
    this.database
      .prepare(
        `INSERT OR IGNORE INTO trash_records (owner, kind, id, owned, created, updated, data, lookup)
         SELECT l.owner, r.kind, r.id, 0, r.created, r.updated, r.data, r.lookup FROM trash_links l
         CROSS JOIN records r INDEXED BY sqlite_autoindex_records_1 ON r.kind = l.b_kind AND r.id = l.b_id
         WHERE l.owner = ? AND l.b_kind IN ('tag', 'website') ORDER BY l.rowid`,
      )
      .run(owner);
  }

  /** Ids of the records of `kind` linked to `from` and to nothing else: they go with it. */
  onlyLinkedTo(from: LinkEnd, kind: RecordKind): string[] {
    const rows = this.database
      .prepare(
        `SELECT l.b_id AS id FROM links l WHERE l.a_kind = ? AND l.a_id = ? AND l.b_kind = ?
           AND NOT EXISTS (SELECT 1 FROM links o WHERE o.a_kind = l.b_kind AND o.a_id = l.b_id AND NOT (o.b_kind = l.a_kind AND o.b_id = l.a_id))
         ORDER BY l.rowid`,
      )
      .all(from.kind, from.id, kind) as Array<{ id: string }>;
    return rows.map((row) => row.id);
  }

  /** Adds a link to an entry (a record restored meanwhile was linked to it): made when the entry is restored. */
  addLink(owner: string, a: LinkEnd, b: LinkEnd): void {
    const known = this.database
      .prepare('SELECT 1 FROM trash_links WHERE owner = ? AND a_kind = ? AND a_id = ? AND b_kind = ? AND b_id = ?')
      .get(owner, a.kind, a.id, b.kind, b.id);
    if (known !== undefined) return;
    this.database
      .prepare('INSERT INTO trash_links (owner, a_kind, a_id, b_kind, b_id, created) VALUES (?, ?, ?, ?, ?, ?)')
      .run(owner, a.kind, a.id, b.kind, b.id, new Date().toISOString());
  }

  // ---------------------------------------------------------------- reading

  has(id: string): boolean {
    return this.database.prepare('SELECT 1 FROM trash WHERE id = ?').get(id) !== undefined;
  }

  head(id: string): TrashHead | undefined {
    const row = this.database.prepare(`SELECT ${HEAD_COLUMNS} FROM trash WHERE id = ?`).get(id) as HeadRow | undefined;
    return row ? headOf(row) : undefined;
  }

  entry(id: string): TrashEntry | undefined {
    const row = this.database.prepare(`SELECT ${HEAD_COLUMNS}, facts, data FROM trash WHERE id = ?`).get(id) as
      | (HeadRow & { facts: string; data: string })
      | undefined;
    return row ? { ...headOf(row), facts: row.facts, data: row.data } : undefined;
  }

  /** The entry's links, in the order they were made. */
  links(owner: string): SavedLink[] {
    const rows = this.database
      .prepare('SELECT a_kind, a_id, b_kind, b_id FROM trash_links WHERE owner = ? ORDER BY rowid')
      .all(owner) as Array<{ a_kind: RecordKind; a_id: string; b_kind: RecordKind; b_id: string }>;
    return rows.map((row) => ({ a: { kind: row.a_kind, id: row.a_id }, b: { kind: row.b_kind, id: row.b_id } }));
  }

  /** The records kept with the entry: owned ones first, in the order they were kept. */
  records(owner: string): SavedRecord[] {
    const rows = this.database
      .prepare('SELECT kind, id, owned, data, lookup FROM trash_records WHERE owner = ? ORDER BY owned DESC, rowid')
      .all(owner) as Array<{ kind: RecordKind; id: string; owned: number; data: string; lookup: string | null }>;
    return rows.map((row) => ({ kind: row.kind, id: row.id, owned: row.owned === 1, data: row.data, lookup: row.lookup }));
  }

  /**
   * The entry that holds a record: an asset or conversation is its own entry, a message its
   * conversation's; undefined when the record is in no entry.
   */
  ownerOf(end: LinkEnd): string | undefined {
    if (end.kind === 'asset' || end.kind === 'conversation') {
      const row = this.database.prepare('SELECT id FROM trash WHERE id = ? AND kind = ?').get(end.id, end.kind) as { id: string } | undefined;
      return row?.id;
    }
    if (end.kind === 'message') {
      const row = this.database.prepare('SELECT owner FROM trash_messages WHERE id = ?').get(end.id) as { owner: string } | undefined;
      return row?.owner;
    }
    return undefined;
  }

  /**
   * Entries newest deleted first, of one kind when given, after `cursor`: at most `limit`, read by
   * the index (no document is read).
   */
  page(limit: number, kind?: TrashKind, cursor?: TrashCursor): TrashHead[] {
    const of = kind === undefined ? '' : 'kind = ? AND';
    const after = cursor === undefined ? '' : '(deleted, rowid) < (?, ?) AND';
    const args: Array<string | number> = [...(kind === undefined ? [] : [kind]), ...(cursor === undefined ? [] : [cursor.deleted, cursor.rowid]), limit];
    const rows = this.database
      .prepare(`SELECT ${HEAD_COLUMNS} FROM trash WHERE ${of} ${after} 1 ORDER BY deleted DESC, rowid DESC LIMIT ?`)
      .all(...args) as HeadRow[];
    return rows.map(headOf);
  }

  /** How many entries there are (of one kind when given) and the bytes they keep. */
  totals(kind?: TrashKind): { count: number; bytes: number } {
    const known = this.counted.get(kind ?? '');
    if (known !== undefined) return known;
    const row = (
      kind === undefined
        ? this.database.prepare('SELECT count(*) AS n, coalesce(sum(size), 0) AS b FROM trash').get()
        : this.database.prepare('SELECT count(*) AS n, coalesce(sum(size), 0) AS b FROM trash WHERE kind = ?').get(kind)
    ) as { n: number; b: number };
    const totals = { count: row.n, bytes: row.b };
    // Inside a transaction the totals may yet be rolled back: counted, not kept.
    if (!this.database.inTransaction) this.counted.set(kind ?? '', totals);
    return totals;
  }

  /** The trash changes (in a transaction): the totals are counted again when next asked for, after it ends. */
  private changed(): void {
    this.counted.clear();
    this.database.onCommit(() => this.counted.clear());
  }

  /** How many entries were deleted at or before `deleted` (ms), and how many of them are assets. */
  countDeletedBy(deleted: number): { count: number; assets: number } {
    const row = this.database
      .prepare("SELECT count(*) AS n, coalesce(sum(kind = 'asset'), 0) AS a FROM trash WHERE deleted <= ?")
      .get(deleted) as { n: number; a: number };
    return { count: row.n, assets: row.a };
  }

  /** Ids of at most `limit` entries deleted at or before `deleted` (ms), oldest first. */
  deletedBy(deleted: number, limit: number): Array<{ id: string; kind: TrashKind }> {
    return this.database
      .prepare('SELECT id, kind FROM trash WHERE deleted <= ? ORDER BY deleted, rowid LIMIT ?')
      .all(deleted, limit) as Array<{ id: string; kind: TrashKind }>;
  }

  // ---------------------------------------------------------------- removing

  /** Removes an entry and everything kept with it (restored, or deleted for good). */
  remove(owner: string): boolean {
    this.changed();
    const removed = Number(this.database.prepare('DELETE FROM trash WHERE id = ?').run(owner).changes) > 0;
    this.database.prepare('DELETE FROM trash_links WHERE owner = ?').run(owner);
    this.database.prepare('DELETE FROM trash_records WHERE owner = ?').run(owner);
    this.database.prepare('DELETE FROM trash_messages WHERE owner = ?').run(owner);
    return removed;
  }
}
