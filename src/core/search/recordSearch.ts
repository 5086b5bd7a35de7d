/**
 * Words looked for in the records that have no search index of their own (tags, websites,
 * annotations, anchors, conversations, messages, workstream summaries): what the Pieces MCP
 * full-text tools ask of Satchel. Each kind names the fields its text is read from; SQLite scans
 * them (LIKE, in C, no document parsed in JavaScript) for any of the query's words, at most
 * CANDIDATES rows, and each candidate is scored by the share of the words it holds (`exact`: it
 * holds the whole query as typed). Linear in the records of the kind, bounded in what it returns.
 */
import type { Database } from '../store/database.ts';
import { parseQuery } from './query.ts';

/** Rows a scan hands back at most before they are scored. */
const CANDIDATES = 5_000;
/** Words of a query looked for (the rest only narrows). */
const MAX_WORDS = 8;

export type SearchedKind = 'tag' | 'website' | 'annotation' | 'anchor' | 'conversation' | 'workstream_summary';

/** The text of each kind's record, as an SQL expression over `data`. */
const TEXT_OF: Readonly<Record<SearchedKind, string>> = {
  tag: "coalesce(json_extract(data, '$.text'), '')",
  website: "coalesce(json_extract(data, '$.url'), '') || ' ' || coalesce(json_extract(data, '$.name'), '')",
  annotation: "coalesce(json_extract(data, '$.text'), '')",
  anchor: "coalesce(json_extract(data, '$.name'), '') || ' ' || coalesce(json_extract(data, '$.fullpath'), '')",
  conversation: "coalesce(json_extract(data, '$.name'), '')",
  workstream_summary: "coalesce(json_extract(data, '$.name'), '')",
};

/** Time bounds (ISO 8601, either end open) on what is found. */
export interface Window {
  readonly createdFrom?: string | undefined;
  readonly createdTo?: string | undefined;
  readonly updatedFrom?: string | undefined;
  readonly updatedTo?: string | undefined;
}

export interface RecordHit {
  readonly id: string;
  /** The share of the query's words it holds, 0–1. */
  readonly score: number;
  /** It holds the whole query as typed (case aside). */
  readonly exact: boolean;
  readonly created: string;
  readonly updated: string;
}

type Row = { id: string; text: string; created: string | null; updated: string | null };

export class RecordSearch {
  private readonly database: Database;

  constructor(database: Database) {
    this.database = database;
  }

  /** The records of `kind` holding any of the query's words, best first, at most `limit`; `where` narrows (annotation type). */
  search(kind: SearchedKind, query: string, limit: number, window: Window = {}, annotationType?: string): RecordHit[] {
    const words = wordsOf(query);
    if (words.length === 0) return [];
    const text = TEXT_OF[kind];
    const typed = annotationType !== undefined ? " AND json_extract(data, '$.type') = ?" : '';
    const sql =
      `SELECT id, ${text} AS text, coalesce(json_extract(data, '$.created.value'), created) AS created, ` +
      `coalesce(json_extract(data, '$.updated.value'), updated) AS updated FROM records ` +
      `WHERE kind = ?${typed} AND (${words.map(() => `${text} LIKE ? ESCAPE '\\'`).join(' OR ')}) LIMIT ${CANDIDATES}`;
    const params = [kind, ...(annotationType !== undefined ? [annotationType] : []), ...words.map(like)];
    const rows = this.database.prepare(sql).all(...params) as Row[];
    return ranked(rows, query, words, limit, window);
  }

  /** Messages whose text holds any of the query's words, best first, at most `limit`. */
  messages(query: string, limit: number, window: Window = {}): Array<RecordHit & { readonly conversation: string }> {
    const words = wordsOf(query);
    if (words.length === 0) return [];
    const text = "coalesce(json_extract(data, '$.fragment.string.raw'), '')";
    const rows = this.database
      .prepare(
        `SELECT id, conversation, ${text} AS text, created, coalesce(json_extract(data, '$.updated.value'), created) AS updated FROM conversation_messages ` +
          `WHERE ${words.map(() => `${text} LIKE ? ESCAPE '\\'`).join(' OR ')} ORDER BY created DESC LIMIT ${CANDIDATES}`,
      )
      .all(...words.map(like)) as Array<Row & { conversation: string }>;
    const conversations = new Map(rows.map((row) => [row.id, row.conversation]));
    return ranked(rows, query, words, limit, window).map((hit) => ({ ...hit, conversation: conversations.get(hit.id)! }));
  }

  /** Ids of the records of `kind` in `window`, newest first, at most `limit`. */
  ids(kind: SearchedKind | 'range', limit: number, window: Window = {}): string[] {
    const rows = this.database
      .prepare(
        `SELECT id, coalesce(json_extract(data, '$.created.value'), created) AS created, coalesce(json_extract(data, '$.updated.value'), updated) AS updated
         FROM records WHERE kind = ? ORDER BY created DESC, rowid DESC`,
      )
      .iterate(kind) as Iterable<Omit<Row, 'text'>>;
    const out: string[] = [];
    for (const row of rows) {
      if (out.length >= limit) break;
      if (within(row.created ?? '', row.updated ?? '', window)) out.push(row.id);
    }
    return out;
  }

  /** The anchor each of `points` belongs to (an anchor has one point, kept in its record). */
  anchorsOfPoints(points: readonly string[]): Map<string, string> {
    if (points.length === 0) return new Map();
    const rows = this.database
      .prepare("SELECT id, json_extract(data, '$.pointId') AS point FROM records WHERE kind = 'anchor' AND json_extract(data, '$.pointId') IN (SELECT value FROM json_each(?))")
      .all(JSON.stringify(points)) as Array<{ id: string; point: string }>;
    return new Map(rows.map((row) => [row.point, row.id]));
  }

  /** Ids of anchor points in `window`, newest first, at most `limit`. */
  pointIds(limit: number, window: Window = {}): string[] {
    const anchors = this.ids('anchor', limit, window);
    const rows = this.database
      .prepare("SELECT id, json_extract(data, '$.pointId') AS point FROM records WHERE kind = 'anchor' AND id IN (SELECT value FROM json_each(?))")
      .all(JSON.stringify(anchors)) as Array<{ id: string; point: string | null }>;
    const points = new Map(rows.map((row) => [row.id, row.point]));
    return anchors.map((id) => points.get(id)).filter((point): point is string => typeof point === 'string');
  }

  /** Ids of messages in `window`, newest first, at most `limit`. */
  messageIds(limit: number, window: Window = {}): string[] {
    const rows = this.database.prepare('SELECT id, created FROM conversation_message_heads ORDER BY created DESC').iterate() as Iterable<{ id: string; created: string }>;
    const out: string[] = [];
    for (const row of rows) {
      if (out.length >= limit) break;
      if (within(row.created, row.created, window)) out.push(row.id);
    }
    return out;
  }
}

function wordsOf(query: string): string[] {
  const { phrases, terms } = parseQuery(query);
  return [...phrases.map((phrase) => phrase.toLowerCase()), ...terms].filter((word) => word !== '').slice(0, MAX_WORDS);
}

function like(word: string): string {
  return `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function ranked(rows: readonly Row[], query: string, words: readonly string[], limit: number, window: Window): RecordHit[] {
  const whole = query.trim().toLowerCase();
  const hits: RecordHit[] = [];
  for (const row of rows) {
    const created = row.created ?? '';
    const updated = row.updated ?? created;
    if (!within(created, updated, window)) continue;
    const text = row.text.toLowerCase();
    const held = words.filter((word) => text.includes(word)).length;
    if (held === 0) continue;
    hits.push({ id: row.id, score: held / words.length, exact: whole !== '' && text.includes(whole), created, updated });
  }
  hits.sort((a, b) => Number(b.exact) - Number(a.exact) || b.score - a.score || (a.updated < b.updated ? 1 : a.updated > b.updated ? -1 : 0));
  return hits.slice(0, limit);
}

/** Whether times fall in the window (ISO strings compare as times when both are UTC `Z` forms; parsed otherwise). */
export function within(created: string, updated: string, window: Window): boolean {
  const at = (iso: string): number => Date.parse(iso);
  const c = at(created);
  const u = at(updated);
  if (window.createdFrom !== undefined && !(c >= at(window.createdFrom))) return false;
  if (window.createdTo !== undefined && !(c <= at(window.createdTo))) return false;
  if (window.updatedFrom !== undefined && !(u >= at(window.updatedFrom))) return false;
  if (window.updatedTo !== undefined && !(u <= at(window.updatedTo))) return false;
  return true;
}
