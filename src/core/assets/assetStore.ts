/**
 * The SQL of the assets table (and of asset_formats, which maps a format to its asset): every
 * statement the assets area runs on them lives here, so a reader sees the table's use in one place;
 * the newest-first listings along its listing index are assetListing.ts's (`listing`).
 */
import type { StoreContext } from '../context.ts';
import { NotFoundError } from '../errors.ts';
import { AssetHeads, originalContent } from './assetHeads.ts';
import { originalTextIn, type OriginalText } from './originalText.ts';
import { AssetListing, type StoredRow } from './assetListing.ts';
import type { StoredAsset } from './storedAsset.ts';

/** Stored documents a page may hold (one larger document makes a page alone). */
export const PAGE_BYTES = 4 * 1024 * 1024;

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

/** Each page of `pages` mapped member by member, a page at a time. */
export function* mapPages<T, U>(pages: Iterable<readonly T[]>, map: (item: T) => U): Generator<U[]> {
  for (const page of pages) yield page.map(map);
}

export class AssetStore {
  private readonly context: StoreContext;
  /** The openings of large texts, kept in step by every write here. */
  readonly heads: AssetHeads;
  /** Ids and stored sizes, newest first, a chunk of rows per statement (what `storedPages` reads the documents of). */
  readonly listing: AssetListing;

  constructor(context: StoreContext) {
    this.context = context;
    this.heads = new AssetHeads(context);
    this.listing = new AssetListing(context);
  }

  // ---------------------------------------------------------------- single assets

  /** The asset's row, its document read as `column` makes it (the content left out by CONTENT_FREE_DATA). */
  private row(id: string, column = 'data'): Row | undefined {
    return this.context.database.prepare(`SELECT rowid, id, pseudo, suggested, ${column} AS data FROM assets WHERE id = ?`).get(id) as Row | undefined;
  }

  /** The text of the asset's original format, whether it is binary and its name, read without parsing a large document (originalText.ts). */
  originalText(id: string): OriginalText | undefined {
    return originalTextIn(this.context.database, id);
  }

  /** The bytes of the asset's stored document (its record header says: the document is not read), or undefined when there is no such asset. */
  documentBytes(id: string): number | undefined {
    return (this.context.database.prepare('SELECT octet_length(data) AS size FROM assets WHERE id = ?').get(id) as { size: number } | undefined)?.size;
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

  /** The document of an ordinary asset, or undefined when there is no such asset or it is pseudo or suggested: one read. */
  ordinaryDoc(id: string): StoredAsset | undefined {
    const row = this.row(id);
    return row === undefined || row.pseudo !== 0 || row.suggested !== 0 ? undefined : (JSON.parse(row.data) as StoredAsset);
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
   * The documents of `rows` in pages of at most `pageSize` documents and `pageBytes` of stored
   * bytes, or one larger document alone, read one row per statement. Each step a caller takes
   * between two pages is thus bounded by what it reads, whatever `column` makes of the document:
   * without content SQLite still reads every page of it (1.2 s in one statement at 9 × 60 MB).
   * A row deleted since `rows` were listed is left out. A page may be empty: a turn between
   * reading a large document and parsing it.
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
    const texts = (): Array<{ rowid: number; data: string }> =>
      page.flatMap((rowid) => {
        const row = read.get(rowid) as { data: string } | undefined;
        return row ? [{ rowid, data: row.data }] : [];
      });
    const parsed = (rows: ReadonlyArray<{ rowid: number; data: string }>): StoredAsset[] | Array<{ rowid: number; doc: StoredAsset }> => {
      const docs = rows.map(({ rowid, data }) => ({ rowid, doc: JSON.parse(data) as StoredAsset }));
      return withRowids ? docs : docs.map((entry) => entry.doc);
    };
    function* take(): Generator<StoredAsset[] | Array<{ rowid: number; doc: StoredAsset }>> {
      const fetched = texts();
      // A page over the byte bound is one larger document alone. At 60 MB, reading its row (SQLite
      // follows 15,000 overflow pages) takes 0.5 s and parsing it 0.2 s more: an empty page between
      // the two gives whoever sends the pages a turn for the event loop there (jsonEncode.ts).
      if (bytes > pageBytes) yield [];
      yield parsed(fetched);
    }
    for (const row of rows) {
      if (page.length > 0 && (page.length >= pageSize || bytes + row.size > pageBytes)) {
        yield* take();
        page = [];
        bytes = 0;
      }
      page.push(row.rowid);
      bytes += row.size;
    }
    if (page.length > 0) yield* take();
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
