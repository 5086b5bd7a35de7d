/**
 * The listings of the assets table, newest first along its listing index (created, rowid): ids
 * and stored sizes read a chunk of rows per statement as the caller iterates, so no statement
 * reads more than a chunk however large the store is. No document is read here (AssetStore's
 * `storedPages` reads the documents of what a listing yields).
 */
import type { StoreContext } from '../context.ts';
import { COUNT_TAGGED, TAGGED_BY_LINKS, WALK_FROM } from './taggedSql.ts';

/** Rows a listing statement reads at a time (see `newestFirst`). */
const LISTING_CHUNK = 1024;

/** A listed asset: where it is stored and how many bytes its document takes. */
export type StoredRow = {
  readonly rowid: number;
  readonly size: number;
};

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

export class AssetListing {
  private readonly context: StoreContext;

  constructor(context: StoreContext) {
    this.context = context;
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

  /** How many ordinary assets (neither suggested nor pseudo) there are. */
  ordinaryCount(): number {
    return (this.context.database.prepare('SELECT COUNT(*) AS n FROM assets WHERE suggested = 0 AND pseudo = 0').get() as { n: number }).n;
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
}
