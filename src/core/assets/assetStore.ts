/**
 * The SQL of the assets table (and of asset_formats, which maps a format to its asset): every
 * statement the assets area runs on them lives here, so a reader sees the table's use in one place.
 */
import type { StoreContext } from '../context.ts';
import { NotFoundError } from '../errors.ts';
import { AssetHeads, originalContent } from './assetHeads.ts';
import { COUNT_TAGGED, TAGGED_BY_LINKS, WALK_FROM } from './taggedSql.ts';
import type { StoredAsset } from './render.ts';

/** Stored documents a page may hold (one larger document makes a page alone). */
export const PAGE_BYTES = 4 * 1024 * 1024;

/** Rows a listing statement reads at a time (see `AssetStore.newestFirst`). */
const LISTING_CHUNK = 1024;

/** A listed asset: where it is stored and how many bytes its document takes. */
export type StoredRow = {
  readonly rowid: number;
  readonly size: number;
};

type Row = {
  rowid: number;
  id: string;
  pseudo: number;
  suggested: number;
  data: string;
};

/** What recommendations rank an asset by. */
export interface RankingFacts {
  readonly id: string;
  /** ms since the epoch */
  readonly updated: number;
  readonly favorited: boolean;
  /** Reuses, updates, references, searches and priority bumps. */
  readonly use: number;
}

/** What a new asset's row holds besides its document. */
export interface NewRow {
  readonly doc: StoredAsset;
  readonly suggested: boolean;
  readonly language: string;
  readonly keywords: string;
  readonly formatId: string;
}

export { CONTENT_FREE_DATA } from './assetHeads.ts';

/** The text of the asset's original format ('' for binary content). */
export function textOf(doc: StoredAsset): string {
  return originalContent(doc).text;
}

/** A class of rows the listing index keeps together. */
type Kind = { readonly suggested: 0 | 1; readonly pseudo: 0 | 1 };

/** The kinds a listing reads: ordinary or suggested assets, with the pseudo ones of that kind when asked. */
function kindsOf(suggested: boolean, pseudo: boolean): Kind[] {
  const kind = suggested ? 1 : 0;
  return pseudo ? [{ suggested: kind, pseudo: 0 }, { suggested: kind, pseudo: 1 }] : [{ suggested: kind, pseudo: 0 }];
}

/** Where a listed row sorts: newest first by creation, then by rowid. */
type ListedRow = { readonly rowid: number; readonly created: string };

/** Two newest-first sequences as one. */
function* mergeNewestFirst<T extends ListedRow>(a: Iterator<T>, b: Iterator<T>): Generator<T> {
  let left = a.next();
  let right = b.next();
  while (!left.done && !right.done) {
    const l = left.value;
    const r = right.value;
    if (l.created > r.created || (l.created === r.created && l.rowid > r.rowid)) {
      yield l;
      left = a.next();
    } else {
      yield r;
      right = b.next();
    }
  }
  for (; !left.done; left = a.next()) yield left.value;
  for (; !right.done; right = b.next()) yield right.value;
}

/** Each page of `pages` mapped member by member, a page at a time. */
export function* mapPages<T, U>(pages: Iterable<readonly T[]>, map: (item: T) => U): Generator<U[]> {
  for (const page of pages) yield page.map(map);
}

export class AssetStore {
  private readonly context: StoreContext;
  /** The openings of large texts, kept in step by every write here. */
  readonly heads: AssetHeads;

  constructor(context: StoreContext) {
    this.context = context;
    this.heads = new AssetHeads(context);
  }

  // ---------------------------------------------------------------- single assets

  /** The asset's row, its document read as `column` makes it (the content left out by CONTENT_FREE_DATA). */
  private row(id: string, column = 'data'): Row | undefined {
    return this.context.database.prepare(`SELECT rowid, id, pseudo, suggested, ${column} AS data FROM assets WHERE id = ?`).get(id) as Row | undefined;
  }

  /** One index probe: the document (whose content may span many pages) is not read. */
  exists(id: string): boolean {
    return this.context.database.prepare('SELECT 1 FROM assets WHERE id = ?').get(id) !== undefined;
  }

  /** Whether an asset appears in ordinary snapshots and streams (neither pseudo nor suggested). */
  isOrdinary(id: string): boolean {
    const row = this.row(id, "''");
    return row !== undefined && row.pseudo === 0 && row.suggested === 0;
  }

  /** A row's id, language column (its original format's classification), creation time and whether it is ordinary. */
  facts(rowid: number): { id: string; language: string; created: string; ordinary: number } | undefined {
    return this.context.database.prepare('SELECT id, language, created, suggested = 0 AND pseudo = 0 AS ordinary FROM assets WHERE rowid = ?').get(rowid) as
      | { id: string; language: string; created: string; ordinary: number }
      | undefined;
  }

  /** The text of an asset's original format, or undefined when there is no such asset. */
  text(id: string): string | undefined {
    const row = this.row(id);
    return row ? textOf(JSON.parse(row.data) as StoredAsset) : undefined;
  }

  load(id: string, column = 'data'): { rowid: number; doc: StoredAsset } {
    const row = this.row(id, column);
    if (!row) throw new NotFoundError('asset', id);
    return { rowid: row.rowid, doc: JSON.parse(row.data) as StoredAsset };
  }

  /** The asset's row for its delete to keep in the trash: its document parsed and as written. */
  stored(id: string): { rowid: number; doc: StoredAsset; data: string; suggested: boolean } {
    const row = this.row(id);
    if (!row) throw new NotFoundError('asset', id);
    return { rowid: row.rowid, doc: JSON.parse(row.data) as StoredAsset, data: row.data, suggested: row.suggested === 1 };
  }

  /** The stored document (`column`: see `row`). */
  doc(id: string, column = 'data'): StoredAsset {
    return this.load(id, column).doc;
  }

  docOfFormat(formatId: string): StoredAsset {
    const row = this.context.database.prepare('SELECT asset_id FROM asset_formats WHERE id = ?').get(formatId) as
      | { asset_id: string }
      | undefined;
    if (!row) throw new NotFoundError('format', formatId);
    return this.doc(row.asset_id);
  }

  // ---------------------------------------------------------------- many assets

  /** Every stored asset, suggested and pseudo ones included (what indexers see). */
  count(): number {
    return (this.context.database.prepare('SELECT COUNT(*) AS n FROM assets').get() as { n: number }).n;
  }

  *allTexts(): Iterable<{ id: string; text: string }> {
    const rows = this.context.database.prepare('SELECT data FROM assets ORDER BY rowid').all() as Array<{ data: string }>;
    for (const row of rows) {
      const doc = JSON.parse(row.data) as StoredAsset;
      yield { id: doc.id, text: textOf(doc) };
    }
  }

  /**
   * Ids of ordinary assets (and pseudo ones when asked, or only pseudo ones), newest first, in pages
   * read as the caller iterates (see `newestFirst`): one statement for all of them held the event
   * loop 10 s at 1M assets.
   */
  *identifierPages(options: { pseudo?: boolean; onlyPseudo?: boolean } = {}, pageSize = 4096): Generator<string[]> {
    const kinds: Kind[] = options.onlyPseudo ? [{ suggested: 0, pseudo: 1 }] : kindsOf(false, options.pseudo ?? false);
    let page: string[] = [];
    for (const row of this.newestFirst<{ id: string }>(kinds, 'id')) {
      page.push(row.id);
      if (page.length === pageSize) {
        yield page;
        page = [];
      }
    }
    if (page.length > 0) yield page;
  }

  /** Ids of ordinary assets (neither suggested nor pseudo), in storage order. */
  ordinaryIds(): string[] {
    return (this.context.database.prepare('SELECT id FROM assets WHERE suggested = 0 AND pseudo = 0').all() as Array<{ id: string }>).map((row) => row.id);
  }

  /**
   * Ids of the newest ordinary assets, of one language when given (by creation: the listing index
   * has that order; the language column is read without the documents).
   */
  newest(limit: number, language?: string): string[] {
    const rows = (
      language === undefined
        ? this.context.database.prepare('SELECT id FROM assets WHERE suggested = 0 AND pseudo = 0 ORDER BY created DESC, rowid DESC LIMIT ?').all(limit)
        : this.context.database
            .prepare('SELECT id FROM assets WHERE suggested = 0 AND pseudo = 0 AND language = ? ORDER BY created DESC, rowid DESC LIMIT ?')
            .all(language, limit)
    ) as Array<{ id: string }>;
    return rows.map((row) => row.id);
  }

  /** The ordinary (neither suggested nor pseudo) assets among `keys`, in that order. */
  ordinaryDocs(column: 'id' | 'rowid', keys: readonly (string | number)[]): StoredAsset[] {
    const rows = this.context.database
      .prepare(
        `SELECT a.data AS data FROM json_each(?) j CROSS JOIN assets a ON a.${column} = j.value
         WHERE a.suggested = 0 AND a.pseudo = 0 ORDER BY j.key`,
      )
      .all(JSON.stringify(keys)) as Array<{ data: string }>;
    return rows.map((row) => JSON.parse(row.data) as StoredAsset);
  }

  /**
   * The ordinary assets among `ids`, in that order, with their stored sizes (no document read):
   * a statement on one table per id, so each is an index lookup whatever the statistics say.
   */
  rowsOf(ids: readonly string[]): StoredRow[] {
    const find = this.context.database.prepare('SELECT rowid, octet_length(data) AS size FROM assets WHERE id = ? AND suggested = 0 AND pseudo = 0');
    return ids.flatMap((id) => (find.get(id) as StoredRow | undefined) ?? []);
  }

  /** The rows among `rowids` that still exist, with their sizes from the record header (no document read). */
  sizes(rowids: readonly number[]): StoredRow[] {
    const sizeOf = this.context.database.prepare('SELECT octet_length(data) AS size FROM assets WHERE rowid = ?');
    const rows: StoredRow[] = [];
    for (const rowid of rowids) {
      const row = sizeOf.get(rowid) as { size: number } | undefined;
      if (row) rows.push({ rowid, size: row.size });
    }
    return rows;
  }

  /**
   * Rowids and stored sizes of the non-suggested assets (pseudo ones when asked) carrying every tag
   * of `tagIds`, in `language` (the original format's) when given, newest first, read as the caller
   * iterates; no document is read. A tag on at most WALK_FROM assets is read from its links in one
   * statement; a more common one walking the listing index from the newest, `chunkRows` at a time
   * (see `newestFirst`), each asset's tags checked by their links' keys. So a caller that wants a
   * few stops early, and no step costs more than a chunk: sorting the 10k snippets of a tag first
   * took 80 ms a search, and 200 concurrent searches held health for seconds.
   */
  *carrying(tagIds: readonly string[], includePseudo: boolean, language?: string, chunkRows = LISTING_CHUNK): Generator<StoredRow & { id: string }> {
    const [first] = tagIds;
    if (first === undefined) return;
    const database = this.context.database;
    if ((database.prepare(COUNT_TAGGED).get(first, WALK_FROM + 1) as { n: number }).n <= WALK_FROM) {
      const others = JSON.stringify(tagIds.slice(1));
      yield* database.prepare(TAGGED_BY_LINKS).all(first, includePseudo ? 1 : 0, language ?? null, others) as Array<StoredRow & { id: string }>;
      return;
    }
    const carries = database.prepare("SELECT 1 FROM links WHERE a_kind = 'asset' AND a_id = ? AND b_kind = 'tag' AND b_id = ?");
    const columns = 'id, language, octet_length(data) AS size';
    for (const row of this.newestFirst<StoredRow & { id: string; language: string }>(kindsOf(false, includePseudo), columns, chunkRows)) {
      if (language !== undefined && row.language !== language) continue;
      if (tagIds.every((tag) => carries.get(row.id, tag) !== undefined)) yield { rowid: row.rowid, id: row.id, size: row.size };
    }
  }

  /**
   * Rowids and stored sizes of ordinary assets (or suggested ones; pseudo ones only when asked),
   * newest first, read as the caller iterates (see `newestFirst`): the first page of a listing
   * costs what a page does, where reading every row first held the event loop 4.8 s at 1M assets.
   */
  listed(options: { suggested?: boolean; pseudo?: boolean } = {}): Iterable<StoredRow> {
    // octet_length reads the size from the record header, not the document's overflow pages.
    return this.newestFirst<StoredRow>(kindsOf(options.suggested ?? false, options.pseudo ?? false), 'octet_length(data) AS size');
  }

  /**
   * `columns` (and rowid, created) of the assets of `kinds`, newest first (by creation, then
   * rowid), read `chunkRows` (LISTING_CHUNK) rows per statement along the listing index from where the last
   * statement stopped, so no statement reads more than a chunk however large the store is. Two
   * kinds are read side by side and merged. The set is the assets that exist when the first row is
   * read: rows inserted later have larger rowids and are left out; one deleted before it is
   * reached is left out.
   */
  private *newestFirst<T extends object>(kinds: readonly Kind[], columns: string, chunkRows = LISTING_CHUNK): Generator<T & ListedRow> {
    const last = (this.context.database.prepare('SELECT MAX(rowid) AS n FROM assets').get() as { n: number | null }).n ?? 0;
    const select = `SELECT rowid, created, ${columns} FROM assets WHERE suggested = ? AND pseudo = ? AND rowid <= ?`;
    const first = this.context.database.prepare(`${select} ORDER BY created DESC, rowid DESC LIMIT ?`);
    const next = this.context.database.prepare(`${select} AND (created, rowid) < (?, ?) ORDER BY created DESC, rowid DESC LIMIT ?`);
    const readers = kinds.map(function* ({ suggested, pseudo }): Generator<T & ListedRow> {
      let chunk = first.all(suggested, pseudo, last, chunkRows) as Array<T & ListedRow>;
      while (chunk.length > 0) {
        yield* chunk;
        if (chunk.length < chunkRows) return;
        const end = chunk[chunk.length - 1]!;
        chunk = next.all(suggested, pseudo, last, end.created, end.rowid, chunkRows) as Array<T & ListedRow>;
      }
    });
    yield* readers.length === 1 ? readers[0]! : mergeNewestFirst(readers[0]!, readers[1]!);
  }

  /**
   * The documents of `rows` in pages of at most `pageSize` documents and `pageBytes` of stored
   * bytes, or one larger document alone, read one row per statement. Each step a caller takes
   * between two pages is thus bounded by what it reads, whatever `column` makes of the document:
   * without content SQLite still reads every page of it (1.2 s in one statement at 9 × 60 MB).
   * A row deleted since `rows` were listed is left out.
   */
  storedPages(rows: Iterable<StoredRow>, column: string, pageSize?: number, pageBytes?: number): Generator<StoredAsset[]>;
  storedPages(rows: Iterable<StoredRow>, column: string, pageSize: number, pageBytes: number, withRowids: true): Generator<Array<{ rowid: number; doc: StoredAsset }>>;
  *storedPages(
    rows: Iterable<StoredRow>,
    column: string,
    pageSize = 64,
    pageBytes = PAGE_BYTES,
    withRowids = false,
  ): Generator<StoredAsset[] | Array<{ rowid: number; doc: StoredAsset }>> {
    const read = this.context.database.prepare(`SELECT ${column} AS data FROM assets WHERE rowid = ?`);
    let page: number[] = [];
    let bytes = 0;
    const take = (): StoredAsset[] | Array<{ rowid: number; doc: StoredAsset }> => {
      const docs = page.flatMap((rowid) => {
        const row = read.get(rowid) as { data: string } | undefined;
        return row ? [{ rowid, doc: JSON.parse(row.data) as StoredAsset }] : [];
      });
      return withRowids ? docs : docs.map((entry) => entry.doc);
    };
    for (const row of rows) {
      if (page.length > 0 && (page.length >= pageSize || bytes + row.size > pageBytes)) {
        yield take();
        page = [];
        bytes = 0;
      }
      page.push(row.rowid);
      bytes += row.size;
    }
    if (page.length > 0) yield take();
  }

  /** What recommendations rank ordinary assets by (all of them, or those among `ids`), newest first. */
  rankingFacts(ids: readonly string[] | undefined): RankingFacts[] {
    const facts = `a.id AS id, a.updated AS updated, json_extract(a.data, '$.favorited') AS favorited,
      json_extract(a.data, '$.score.reuse') AS reuse, json_extract(a.data, '$.score.update') AS "update",
      json_extract(a.data, '$.score.reference') AS reference, json_extract(a.data, '$.score.searched') AS searched,
      json_extract(a.data, '$.score.priority') AS priority`;
    const rows = (
      ids === undefined
        ? this.context.database
            .prepare(`SELECT ${facts} FROM assets a WHERE a.suggested = 0 AND a.pseudo = 0 ORDER BY a.created DESC, a.rowid DESC`)
            .all()
        : this.context.database
            .prepare(`SELECT ${facts} FROM json_each(?) j CROSS JOIN assets a ON a.id = j.value WHERE a.suggested = 0 AND a.pseudo = 0 ORDER BY j.key`)
            .all(JSON.stringify(ids))
    ) as Array<{ id: string; updated: string; favorited: number | null } & Record<'reuse' | 'update' | 'reference' | 'searched' | 'priority', number | null>>;
    return rows.map((row) => ({
      id: row.id,
      updated: Date.parse(row.updated),
      favorited: row.favorited === 1,
      use: (row.reuse ?? 0) + (row.update ?? 0) + (row.reference ?? 0) + (row.searched ?? 0) + (row.priority ?? 0),
    }));
  }

  // ---------------------------------------------------------------- writes (callers hold the transaction)

  /** Inserts a new asset's row (its keywords in the INSERT: a second UPDATE would write all of a large text again); returns its rowid. */
  insert(row: NewRow): number {
    return this.put(row, JSON.stringify(row.doc), [row.formatId]);
  }

  /** Puts a trashed asset's row back under its id (a new rowid: its old one may be taken), its document as it was written. */
  reinsert(row: Omit<NewRow, 'formatId'> & { readonly data: string }): number {
    return this.put(row, row.data, row.doc.formats.iterable.map((format) => format.id));
  }

  private put(row: Omit<NewRow, 'formatId'>, data: string, formatIds: readonly string[]): number {
    const { doc } = row;
    const result = this.context.database
      .prepare(
        `INSERT INTO assets (id, created, updated, pseudo, suggested, name, language, data, keywords)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(doc.id, doc.created.value, doc.updated.value, doc.pseudo ? 1 : 0, row.suggested ? 1 : 0, doc.name ?? '', row.language, data, row.keywords);
    const mapFormat = this.context.database.prepare('INSERT INTO asset_formats (id, asset_id) VALUES (?, ?)');
    for (const formatId of formatIds) mapFormat.run(formatId, doc.id);
    const rowid = Number(result.lastInsertRowid);
    this.heads.written(rowid, doc, data);
    return rowid;
  }

  /**
   * Writes the document; `keywords` null keeps the stored ones. The language column follows the
   * original format, whichever write changed its classification.
   */
  write(rowid: number, doc: StoredAsset, keywords: string | null): void {
    const language = (doc.formats.iterable.find((f) => f.id === doc.original.id) ?? doc.formats.iterable[0])?.classification.specific ?? null;
    const data = JSON.stringify(doc);
    this.context.database
      .prepare('UPDATE assets SET updated = ?, pseudo = ?, name = ?, data = ?, keywords = COALESCE(?, keywords), language = COALESCE(?, language) WHERE rowid = ?')
      .run(doc.updated.value, doc.pseudo ? 1 : 0, doc.name ?? '', data, keywords, language, rowid);
    this.heads.written(rowid, doc, data);
  }

  /** The creation time a record made elsewhere fixes (exactRecords.ts); a write never changes it otherwise. */
  setCreated(rowid: number, created: string): void {
    this.context.database.prepare('UPDATE assets SET created = ? WHERE rowid = ?').run(created, rowid);
  }

  setKeywords(rowid: number, keywords: string): void {
    this.context.database.prepare('UPDATE assets SET keywords = ? WHERE rowid = ?').run(keywords, rowid);
  }

  remove(rowid: number, id: string): void {
    this.context.database.prepare('DELETE FROM asset_formats WHERE asset_id = ?').run(id);
    this.context.database.prepare('DELETE FROM assets WHERE rowid = ?').run(rowid);
    this.heads.removed(rowid);
  }
}
