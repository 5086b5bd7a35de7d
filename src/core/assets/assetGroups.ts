/**
 * The Assets tree's groups, read a page at a time: how many ordinary snippets each language or tag
 * holds, and one page of a group's assets after a cursor. An editor shows a library of
 * 100k snippets by asking for the counts and for the pages the user opens, instead of holding a
 * record per snippet. Memories (the `memories` table) are listed apart, so they are left out here.
 *
 * Every statement walks an index: `assets_groups` (suggested, pseudo, language, created, id) for
 * languages, newest first, so a snippet just saved is on the first page; the links' primary key from
 * the tag's side (tag → asset) for tags, in asset-id order (links keep no date). Counts are linear in
 * the store; a page is linear in its size (plus, for "untagged", the tagged ids it skips).
 */
import type { StoreContext } from '../context.ts';
import { InvalidInputError } from '../errors.ts';

export type GroupBy = 'language' | 'tag';

export interface AssetGroupCount {
  /** The language (classification `specific`, '' for none) or the tag's id ('' for untagged). */
  readonly key: string;
  /** The tag's text (tags only). */
  readonly label?: string;
  readonly count: number;
}

export interface AssetGroupCounts {
  readonly by: GroupBy;
  readonly groups: readonly AssetGroupCount[];
  /** Ordinary assets that are not memories (a snippet with two tags counts once). */
  readonly total: number;
}

/** A page of one group; `next` is the cursor of the following page (opaque), absent on the last. */
export interface AssetGroupIds {
  readonly ids: readonly string[];
  readonly next?: string;
}

const NOT_MEMORY = 'NOT EXISTS (SELECT 1 FROM memories m WHERE m.asset_id = a.id)';
const ORDINARY = `a.suggested = 0 AND a.pseudo = 0 AND ${NOT_MEMORY}`;
const UNTAGGED = "NOT EXISTS (SELECT 1 FROM links u WHERE u.a_kind = 'asset' AND u.a_id = a.id AND u.b_kind = 'tag')";

export const SQL = {
  languageCounts: `SELECT a.language AS key, COUNT(*) AS n FROM assets a WHERE ${ORDINARY} GROUP BY a.language`,
  total: `SELECT COUNT(*) AS n FROM assets a WHERE ${ORDINARY}`,
  tagCounts: `SELECT l.a_id AS key, COUNT(*) AS n FROM links l JOIN assets a ON a.id = l.b_id
    WHERE l.a_kind = 'tag' AND l.b_kind = 'asset' AND ${ORDINARY} GROUP BY l.a_id`,
  tagText: "SELECT json_extract(data, '$.text') AS text FROM records WHERE kind = 'tag' AND id = ?",
  untaggedCount: `SELECT COUNT(*) AS n FROM assets a WHERE ${ORDINARY} AND ${UNTAGGED}`,
  languageFirst: `SELECT a.id AS id, a.created AS created FROM assets a WHERE a.suggested = 0 AND a.pseudo = 0 AND a.language = ? AND ${NOT_MEMORY}
    ORDER BY a.created DESC, a.id DESC LIMIT ?`,
  languageNext: `SELECT a.id AS id, a.created AS created FROM assets a WHERE a.suggested = 0 AND a.pseudo = 0 AND a.language = ? AND (a.created, a.id) < (?, ?)
    AND ${NOT_MEMORY} ORDER BY a.created DESC, a.id DESC LIMIT ?`,
  tagPage: `SELECT l.b_id AS id FROM links l JOIN assets a ON a.id = l.b_id
    WHERE l.a_kind = 'tag' AND l.a_id = ? AND l.b_kind = 'asset' AND l.b_id > ? AND ${ORDINARY} ORDER BY l.b_id LIMIT ?`,
  untaggedPage: `SELECT a.id AS id FROM assets a WHERE a.id > ? AND ${ORDINARY} AND ${UNTAGGED} ORDER BY a.id LIMIT ?`,
} as const;

export class AssetGroups {
  private readonly context: StoreContext;

  constructor(context: StoreContext) {
    this.context = context;
  }

  counts(by: GroupBy): AssetGroupCounts {
    const db = this.context.database;
    const total = (db.prepare(SQL.total).get() as { n: number }).n;
    if (by === 'language') {
      const rows = db.prepare(SQL.languageCounts).all() as Array<{ key: string; n: number }>;
      return { by, total, groups: rows.map((row) => ({ key: row.key, count: row.n })) };
    }
    const text = db.prepare(SQL.tagText);
    const rows = db.prepare(SQL.tagCounts).all() as Array<{ key: string; n: number }>;
    const groups: AssetGroupCount[] = rows.map((row) => {
      const label = (text.get(row.key) as { text: unknown } | undefined)?.text;
      return { key: row.key, label: typeof label === 'string' ? label : row.key, count: row.n };
    });
    const untagged = (db.prepare(SQL.untaggedCount).get() as { n: number }).n;
    if (untagged > 0) groups.push({ key: '', count: untagged });
    return { by, total, groups };
  }

  /**
   * The ids of one group after the cursor `after` ('' from the start), at most `limit` of them:
   * languages newest first (the cursor is the last one's creation time and id), tags in id order
   * (the cursor is the last id).
   */
  page(by: GroupBy, key: string, after: string, limit: number): AssetGroupIds {
    // The door bounds it (wire/snippets.ts GROUP_PAGE_MAX); core only refuses what cannot be a page.
    if (!Number.isInteger(limit) || limit < 1) throw new InvalidInputError('limit must be a positive integer');
    const db = this.context.database;
    // One more than asked says whether another page follows without a second query.
    if (by === 'language') {
      const cursor = after === '' ? undefined : languageCursor(after);
      const rows = (cursor ? db.prepare(SQL.languageNext).all(key, cursor.created, cursor.id, limit + 1) : db.prepare(SQL.languageFirst).all(key, limit + 1)) as Array<{ id: string; created: string }>;
      const last = rows.length > limit ? rows[limit - 1] : undefined;
      return { ids: rows.slice(0, limit).map((row) => row.id), ...(last ? { next: `${last.created} ${last.id}` } : {}) };
    }
    const rows = (key === '' ? db.prepare(SQL.untaggedPage).all(after, limit + 1) : db.prepare(SQL.tagPage).all(key, after, limit + 1)) as Array<{ id: string }>;
    const ids = rows.slice(0, limit).map((row) => row.id);
    return rows.length > limit ? { ids, next: ids.at(-1)! } : { ids };
  }
}

/** A language page's cursor: the creation time and id of the last asset of the page before. */
function languageCursor(after: string): { created: string; id: string } {
  const space = after.indexOf(' ');
  if (space <= 0 || space === after.length - 1) throw new InvalidInputError('after must be the cursor a page answered with');
  return { created: after.slice(0, space), id: after.slice(space + 1) };
}
