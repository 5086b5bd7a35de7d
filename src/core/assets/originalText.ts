/**
 * The text of an asset's original format read from a store's connection, without parsing a large
 * document in JavaScript: an asset with a head (a document past LARGE_DOCUMENT_CHARS) has its
 * original format found in its bare document and only that format's content taken out by SQLite. A
 * 60 MB snippet stored three times over in its formats was 180 MB of JSON parsed for one text (the
 * secrets scan of an older store reads every one). Any connection will do: the host's (AssetStore)
 * or the secrets worker's own read-only one (scanWorker.ts), which takes that read off the host's
 * event loop.
 */
import type { StatementSync } from 'node:sqlite';
import { originalContent } from './assetHeads.ts';
import type { StoredAsset } from './storedAsset.ts';

export interface OriginalText {
  readonly text: string;
  readonly binary: boolean;
  readonly name: string | undefined;
}

type Part = StoredAsset['formats']['iterable'][number]['fragment'];

/** A connection to read through: node:sqlite's own, or the store's (which keeps its statements). */
export interface ReadConnection {
  prepare(sql: string): StatementSync;
}

/** The text of the asset's original format, whether it is binary (as originalContent gives them) and its name; undefined when there is no such asset. */
export function originalTextIn(database: ReadConnection, id: string): OriginalText | undefined {
  const head = database.prepare('SELECT h.bare AS bare FROM assets a JOIN asset_heads h ON h.rowid = a.rowid WHERE a.id = ?').get(id) as { bare: string } | undefined;
  if (head === undefined) {
    const row = database.prepare('SELECT data FROM assets WHERE id = ?').get(id) as { data: string } | undefined;
    if (row === undefined) return undefined;
    const doc = JSON.parse(row.data) as StoredAsset;
    return { ...originalContent(doc), name: doc.name };
  }
  const bare = JSON.parse(head.bare) as StoredAsset;
  const index = Math.max(0, bare.formats.iterable.findIndex((format) => format.id === bare.original.id));
  const path = `$.formats.iterable[${index}]`;
  const row = database.prepare(`SELECT json_extract(data, '${path}.fragment') AS fragment, json_extract(data, '${path}.file') AS file FROM assets WHERE id = ?`).get(id) as
    | { fragment: string | null; file: string | null }
    | undefined;
  if (row === undefined) return undefined;
  const part = (json: string | null): Part => (json === null ? undefined : (JSON.parse(json) as Part));
  const content = originalContent({ ...bare, formats: { iterable: [{ ...bare.formats.iterable[index]!, fragment: part(row.fragment), file: part(row.file) }] } });
  return { ...content, name: bare.name };
}
