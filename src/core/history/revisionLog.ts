/**
 * The SQL of the history area: every statement on `revisions` and `revision_texts` lives here.
 * Callers hold the transaction; nothing here decides what a revision is (revisionTracker.ts does).
 */
import { createHash } from 'node:crypto';
import type { Database } from '../store/database.ts';
import { authorOf, isAuthorKind, type Author } from './authors.ts';
import type { RevisionContent } from './state.ts';
import { PACK_FROM_BYTES, decodeContent, decodeContentOffLoop, encodeContent, type EncodedText } from './revisionTexts.ts';

/** One stored revision. */
export interface RevisionRow {
  /** Order within the asset (and the store): the asset's highest is its current revision. */
  readonly seq: number;
  readonly id: string;
  readonly assetId: string;
  /** ms since the epoch. */
  readonly created: number;
  readonly author: Author;
  /** CHANGE_BITS of what this revision changed from the one before. */
  readonly changes: number;
  readonly name: string;
  readonly language: string;
  readonly tags: readonly string[];
  readonly contentHash: string;
  /** Content size in bytes. */
  readonly size: number;
  readonly descriptionHash: string | null;
  /** The revision this one restored, when it was a restore. */
  readonly restoredFrom: string | null;
}

export type NewRevision = Omit<RevisionRow, 'seq'>;

type Row = {
  seq: number;
  id: string;
  asset_id: string;
  created: number;
  author_kind: string;
  author_name: string;
  changes: number;
  name: string;
  language: string;
  tags: string;
  content_hash: string;
  size: number;
  description_hash: string | null;
  restored_from: string | null;
};

const COLUMNS = 'seq, id, asset_id, created, author_kind, author_name, changes, name, language, tags, content_hash, size, description_hash, restored_from';

/** What compaction reads of a revision. */
export interface CompactionRow {
  readonly seq: number;
  readonly id: string;
  readonly created: number;
  readonly contentHash: string;
  readonly size: number;
  readonly descriptionHash: string | null;
}

/**
 * The id of the first revision of an asset written before revisions were kept. Derived from the
 * asset's id, so the id the asset shows before any write is the one its first revision is stored
 * under once a write makes it real; its time bits are zero, so it sorts before every revision made since.
 */
export function baselineId(assetId: string): string {
  const hex = createHash('sha256').update(assetId).digest('hex');
  return `00000000-0000-7${hex.slice(0, 3)}-${(0x8 | (parseInt(hex[3]!, 16) & 0x3)).toString(16)}${hex.slice(4, 7)}-${hex.slice(7, 19)}`;
}

export class RevisionLog {
  private readonly database: Database;

  constructor(database: Database) {
    this.database = database;
  }

  /** The asset's current revision (its last), or undefined when none was ever recorded. */
  head(assetId: string): RevisionRow | undefined {
    const row = this.database.prepare(`SELECT ${COLUMNS} FROM revisions WHERE asset_id = ? ORDER BY seq DESC LIMIT 1`).get(assetId) as Row | undefined;
    return row ? fromRow(row) : undefined;
  }

  /** Only the current revision's id (one index probe and one row). */
  headId(assetId: string): string | undefined {
    const row = this.database.prepare('SELECT id FROM revisions WHERE asset_id = ? ORDER BY seq DESC LIMIT 1').get(assetId) as { id: string } | undefined;
    return row?.id;
  }

  /** The asset's revisions, newest first. */
  list(assetId: string): RevisionRow[] {
    const rows = this.database.prepare(`SELECT ${COLUMNS} FROM revisions WHERE asset_id = ? ORDER BY seq DESC`).all(assetId) as Row[];
    return rows.map(fromRow);
  }

  get(assetId: string, revisionId: string): RevisionRow | undefined {
    const row = this.database.prepare(`SELECT ${COLUMNS} FROM revisions WHERE id = ? AND asset_id = ?`).get(revisionId, assetId) as Row | undefined;
    return row ? fromRow(row) : undefined;
  }


  append(revision: NewRevision): void {
    this.database
      .prepare(`INSERT INTO revisions (${COLUMNS.slice('seq, '.length)}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(
        revision.id,
        revision.assetId,
        revision.created,
        revision.author.kind,
        revision.author.name,
        revision.changes,
        revision.name,
        revision.language,
        JSON.stringify(revision.tags),
        revision.contentHash,
        revision.size,
        revision.descriptionHash,
        revision.restoredFrom,
      );
  }

  /**
   * Sets what a revision's content really was: a revision's hash names the content its asset held
   * then, and a write that changed the content without a revision would leave it naming another.
   */
  correctContent(seq: number, contentHash: string, size: number): void {
    this.database.prepare('UPDATE revisions SET content_hash = ?, size = ? WHERE seq = ?').run(contentHash, size, seq);
  }

  /** Keeps a text (content or description) under its hash; a text already kept is not written again. */
  keepText(hash: string, text: string): void {
    this.keepContent(hash, { text });
  }

  keepContent(hash: string, content: RevisionContent): void {
    if (this.database.prepare('SELECT 1 FROM revision_texts WHERE hash = ?').get(hash) !== undefined) return;
    const { encoding, data } = encodeContent(content);
    this.database.prepare('INSERT INTO revision_texts (hash, encoding, data) VALUES (?, ?, ?)').run(hash, encoding, data);
  }

  /** A kept content, or undefined when it is not kept (an asset's current content lives in the asset). */
  content(hash: string): RevisionContent | undefined {
    const row = this.database.prepare('SELECT encoding, data FROM revision_texts WHERE hash = ?').get(hash) as { encoding: number; data: Uint8Array } | undefined;
    return row ? decodeContent(row) : undefined;
  }

  text(hash: string): string | undefined {
    return this.content(hash)?.text;
  }

  /** `content`, inflated off the event loop. */
  async contentOffLoop(hash: string): Promise<RevisionContent | undefined> {
    const row = this.database.prepare('SELECT encoding, data FROM revision_texts WHERE hash = ?').get(hash) as EncodedText | undefined;
    return row ? decodeContentOffLoop(row) : undefined;
  }

  // ---------------------------------------------------------------- compaction, packing and purge

  /**
   * Kept texts not yet deflated (nor tried), after `after` (a rowid), each with its size (read from the record
   * header, not its pages); the packer reads their data a few at a time.
   */
  unpacked(after: number, limit: number): Array<{ rowid: number; size: number }> {
    return this.database
      .prepare('SELECT rowid, length(data) AS size FROM revision_texts WHERE rowid > ? AND (encoding & 6) = 0 AND length(data) >= ? ORDER BY rowid LIMIT ?')
      .all(after, PACK_FROM_BYTES, limit) as Array<{ rowid: number; size: number }>;
  }

  /** A kept text as stored, by rowid (undefined once deleted). */
  stored(rowid: number): (EncodedText & { readonly hash: string }) | undefined {
    return this.database.prepare('SELECT hash, encoding, data FROM revision_texts WHERE rowid = ?').get(rowid) as (EncodedText & { hash: string }) | undefined;
  }

  /**
   * Replaces a text by its packed form, unless it changed meanwhile (its encoding is no longer
   * `from`). The row moves to the table's end rather than shrinking in place: texts are appended in
   * rowid order, so a page whose texts have all moved is freed for later ones (an update in place
   * would leave every page as large and mostly empty).
   */
  replacePacked(rowid: number, from: number, packed: EncodedText & { readonly hash: string }): void {
    if (Number(this.database.prepare('DELETE FROM revision_texts WHERE rowid = ? AND encoding = ?').run(rowid, from).changes) === 0) return;
    this.database.prepare('INSERT INTO revision_texts (hash, encoding, data) VALUES (?, ?, ?)').run(packed.hash, packed.encoding, packed.data);
  }


  /** What compaction weighs of an asset's revisions, newest first. */
  compactionRows(assetId: string): CompactionRow[] {
    const rows = this.database
      .prepare('SELECT seq, id, created, content_hash, size, description_hash FROM revisions WHERE asset_id = ? ORDER BY seq DESC')
      .all(assetId) as Array<{ seq: number; id: string; created: number; content_hash: string; size: number; description_hash: string | null }>;
    return rows.map((row) => ({ seq: row.seq, id: row.id, created: row.created, contentHash: row.content_hash, size: row.size, descriptionHash: row.description_hash }));
  }

  /**
   * Deletes revisions, then the texts no remaining revision names (of any asset: texts are shared).
   * Returns how many revisions were deleted.
   */
  remove(seqs: readonly number[]): number {
    if (seqs.length === 0) return 0;
    const hashes = this.database
      .prepare('SELECT content_hash AS a, description_hash AS b FROM json_each(?) j CROSS JOIN revisions r ON r.seq = j.value')
      .all(JSON.stringify(seqs)) as Array<{ a: string; b: string | null }>;
    const removed = Number(this.database.prepare('DELETE FROM revisions WHERE seq IN (SELECT value FROM json_each(?))').run(JSON.stringify(seqs)).changes);
    const candidates = new Set(hashes.flatMap((row) => (row.b === null ? [row.a] : [row.a, row.b])));
    const named = this.database.prepare(
      'SELECT EXISTS (SELECT 1 FROM revisions WHERE content_hash = ?1) OR EXISTS (SELECT 1 FROM revisions WHERE description_hash = ?1) AS named',
    );
    const drop = this.database.prepare('DELETE FROM revision_texts WHERE hash = ?');
    for (const hash of candidates) {
      if ((named.get(hash) as { named: number }).named === 0) drop.run(hash);
    }
    return removed;
  }

  /** Deletes every revision of an asset and the texts only they named (the trash's purge). */
  purge(assetId: string): number {
    const seqs = (this.database.prepare('SELECT seq FROM revisions WHERE asset_id = ?').all(assetId) as Array<{ seq: number }>).map((row) => row.seq);
    return this.remove(seqs);
  }

  /**
   * Assets with revisions, in id order after `after`, each with how many it has: a compaction
   * pass walks them a page at a time (the index holds both, so no revision row is read).
   */
  assetsAfter(after: string, limit: number): Array<{ assetId: string; count: number }> {
    const rows = this.database
      .prepare('SELECT asset_id, count(*) AS n FROM revisions WHERE asset_id > ? GROUP BY asset_id ORDER BY asset_id LIMIT ?')
      .all(after, limit) as Array<{ asset_id: string; n: number }>;
    return rows.map((row) => ({ assetId: row.asset_id, count: row.n }));
  }
}

function fromRow(row: Row): RevisionRow {
  return {
    seq: row.seq,
    id: row.id,
    assetId: row.asset_id,
    created: row.created,
    author: authorOf(isAuthorKind(row.author_kind) ? row.author_kind : 'unknown', row.author_name),
    changes: row.changes,
    name: row.name,
    language: row.language,
    tags: JSON.parse(row.tags) as string[],
    contentHash: row.content_hash,
    size: row.size,
    descriptionHash: row.description_hash,
    restoredFrom: row.restored_from,
  };
}
