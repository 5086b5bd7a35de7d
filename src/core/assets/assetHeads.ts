/**
 * What is read of a large asset instead of its document, kept beside it in `asset_heads`: the
 * opening of its text and its document without content. A summary's preview, a similarity and
 * get_snippet read only the first characters of a text, and a reply without transferables none of
 * it; getting either out of a 60 MB document meant reading and parsing all of it: 0.1–0.5 s a
 * document, in SQLite or in JSON.parse. A document of at most LARGE_DOCUMENT_CHARS has no head:
 * reading it whole costs about what reading a head does.
 */
import type { DatabaseSync } from 'node:sqlite';
import type { StoreContext } from '../context.ts';
import { contentOf } from './content.ts';
import { withoutContent, type StoredAsset } from './storedAsset.ts';

/**
 * Characters of a text a head keeps: what any reader of an opening needs (get_snippet shows 256 KiB,
 * similarity counts 64 KiB, a preview 240 characters), and one more, so that cutting the head where
 * the whole text is cut (`indexedPrefix` looks back from the limit for a break) sees the same
 * characters, and a reader can tell the text goes on.
 */
export const HEAD_CHARS = 256 * 1024 + 1;
/** Stored documents longer than a head (in characters of JSON) have one; a shorter one is read whole. */
export const LARGE_DOCUMENT_CHARS = HEAD_CHARS;

/** The opening of an asset's text, and what the rest of it would say. */
export interface TextHead {
  readonly rowid: number;
  readonly id: string;
  readonly name: string;
  /** The first characters of the text of the asset's original format (as many as asked for, at most HEAD_CHARS). */
  readonly text: string;
  /** Characters of the whole text. */
  readonly chars: number;
  /** The original format holds bytes that are not text (an image): `text` is then ''. */
  readonly binary: boolean;
}

/** The text of the asset's original format ('' for binary content) and whether it is binary. */
export function originalContent(doc: StoredAsset): { text: string; binary: boolean } {
  const original = doc.formats.iterable.find((f) => f.id === doc.original.id) ?? doc.formats.iterable[0];
  const content = original ? contentOf(original) : undefined;
  return { text: content?.text ?? '', binary: content?.bytes !== undefined && content.text === '' };
}

/**
 * The head row of a document of `documentChars` characters, or undefined when it needs none: the
 * opening of its text, the text's length, whether it is binary, and the document without the
 * content of any format (what CONTENT_FREE_DATA reads).
 */
function headOf(doc: StoredAsset, documentChars: number): [head: string, chars: number, binary: number, bare: string] | undefined {
  if (documentChars <= LARGE_DOCUMENT_CHARS) return undefined;
  const { text, binary } = originalContent(doc);
  const bare: StoredAsset = { ...doc, formats: { iterable: doc.formats.iterable.map(withoutContent) } };
  return [text.slice(0, HEAD_CHARS), text.length, binary ? 1 : 0, JSON.stringify(bare)];
}

const PUT = 'INSERT OR REPLACE INTO asset_heads (rowid, head, chars, binary, bare) VALUES (?, ?, ?, ?, ?)';

/** SQLite's json_remove of the content of a document's first eight formats (assets have one to three). */
const WITHOUT_CONTENT = `json_remove(data, ${Array.from({ length: 8 }, (_, i) =>
  ['fragment.string', 'fragment.bytes', 'file.string', 'file.bytes'].map((path) => `'$.formats.iterable[${i}].${path}'`),
)
  .flat()
  .join(', ')})`;

/**
 * The stored document without its content: a large asset's is kept beside it, so its 60 MB are
 * not read (COALESCE evaluates its second argument, and reads `data`, only without a head); other
 * documents lose the content of their first eight formats in one json_remove. It only saves
 * work: rendering with transferables=false strips every format again (`withoutContent`), so a
 * ninth format's content never leaks.
 */
export const CONTENT_FREE_DATA = `COALESCE((SELECT bare FROM asset_heads WHERE asset_heads.rowid = assets.rowid), ${WITHOUT_CONTENT})`;

/**
 * The table, and a head for each large asset already stored (their sizes come from the record
 * headers, so small ones are not read). SQLite takes each large document apart itself, one at a
 * time, in one statement (so it parses it once): parsed in JavaScript, ten 60 MB documents left
 * the host at a 1.1 GB peak after opening. A document whose original text SQLite cannot read as
 * a plain string in the first format (base64, bytes, another format) is parsed in JavaScript.
 */
export function createHeads(db: DatabaseSync): void {
  db.exec('CREATE TABLE asset_heads (rowid INTEGER PRIMARY KEY, head TEXT NOT NULL, chars INTEGER NOT NULL, binary INTEGER NOT NULL, bare TEXT NOT NULL)');
  const large = db.prepare('SELECT rowid FROM assets WHERE octet_length(data) > ?').all(LARGE_DOCUMENT_CHARS) as Array<{ rowid: number }>;
  const first = "'$.formats.iterable[0].fragment.string.raw'";
  const parts = db.prepare(
    `SELECT ${WITHOUT_CONTENT} AS bare, json_extract(data, '$.original.id') = json_extract(data, '$.formats.iterable[0].id') AS isFirst,
       substr(json_extract(data, ${first}), 1, ?) AS head, length(json_extract(data, ${first})) AS chars
     FROM assets WHERE rowid = ?`,
  );
  const read = db.prepare('SELECT data FROM assets WHERE rowid = ?');
  const put = db.prepare(PUT);
  for (const { rowid } of large) {
    const row = parts.get(HEAD_CHARS, rowid) as { bare: string; isFirst: number | null; head: string | null; chars: number | null };
    if (row.isFirst === 1 && row.head !== null && row.chars !== null) {
      const doc = JSON.parse(row.bare) as StoredAsset;
      put.run(rowid, row.head.slice(0, HEAD_CHARS), row.chars, 0, JSON.stringify({ ...doc, formats: { iterable: doc.formats.iterable.map(withoutContent) } }));
      continue;
    }
    const { data } = read.get(rowid) as { data: string };
    const head = headOf(JSON.parse(data) as StoredAsset, data.length);
    if (head) put.run(rowid, ...head);
  }
}

export class AssetHeads {
  private readonly context: StoreContext;

  constructor(context: StoreContext) {
    this.context = context;
  }

  /** Inside the write that stores `data`, the JSON of `doc`: keeps the row's head in step. */
  written(rowid: number, doc: StoredAsset, data: string): void {
    const head = headOf(doc, data.length);
    if (head) this.context.database.prepare(PUT).run(rowid, ...head);
    else this.context.database.prepare('DELETE FROM asset_heads WHERE rowid = ?').run(rowid);
  }

  removed(rowid: number): void {
    this.context.database.prepare('DELETE FROM asset_heads WHERE rowid = ?').run(rowid);
  }

  /**
   * The first `chars` characters (at most HEAD_CHARS) of the texts of the non-suggested assets
   * among `keys` (by id or rowid), in that order; pseudo ones only when asked; those missing are
   * left out. A small document is read whole, a large one only through its head. Statements on
   * one table each: every lookup is then an index search whatever the table statistics say (a
   * join planned on statistics from when the store was small scans a table once per key).
   */
  of(column: 'id' | 'rowid', keys: readonly (string | number)[], chars: number, includePseudo = false): TextHead[] {
    const database = this.context.database;
    const find = database.prepare(`SELECT rowid, id, name FROM assets WHERE ${column} = ? AND suggested = 0 AND (pseudo = 0 OR ?)`);
    const stored = database.prepare('SELECT substr(head, 1, ?) AS head, chars, binary FROM asset_heads WHERE rowid = ?');
    const read = database.prepare('SELECT data FROM assets WHERE rowid = ?');
    const wanted = Math.min(chars, HEAD_CHARS);
    const out: TextHead[] = [];
    for (const key of keys) {
      const row = find.get(key, includePseudo ? 1 : 0) as { rowid: number; id: string; name: string } | undefined;
      if (!row) continue;
      const head = stored.get(wanted, row.rowid) as { head: string; chars: number; binary: number } | undefined;
      if (head) {
        out.push({ ...row, text: head.head, chars: head.chars, binary: head.binary === 1 });
        continue;
      }
      // No head: a small document (or a large one another tool wrote to SQLite, read whole as before).
      const { data } = read.get(row.rowid) as { data: string };
      const { text, binary } = originalContent(JSON.parse(data) as StoredAsset);
      out.push({ ...row, text: text.length > wanted ? text.slice(0, wanted) : text, chars: text.length, binary });
    }
    return out;
  }
}
