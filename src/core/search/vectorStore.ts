/** The `asset_vectors` table (vectorSchema.ts): reads and writes of stored asset vectors. */
import type { Database } from '../store/database.ts';

export interface StoredVector {
  readonly assetId: string;
  readonly vector: Float32Array;
}

/** Assets whose vector is missing, outdated by a write, or made by another model (or dimension). */
const PENDING = `SELECT a.rowid AS rowid, a.id AS id FROM assets a LEFT JOIN asset_vectors v ON v.asset_id = a.id
  WHERE (v.asset_id IS NULL OR v.stale = 1 OR v.model != ? OR v.dimension != ?)`;

export class VectorStore {
  private readonly database: Database;

  constructor(database: Database) {
    this.database = database;
  }

  /** In an asset write's transaction: the asset's vector no longer matches it. */
  markStale(assetId: string): void {
    this.database.prepare('UPDATE asset_vectors SET stale = 1 WHERE asset_id = ? AND stale = 0').run(assetId);
  }

  /** In an asset delete's transaction. */
  delete(assetId: string): void {
    this.database.prepare('DELETE FROM asset_vectors WHERE asset_id = ?').run(assetId);
  }

  /**
   * Up to `limit` pending assets after `afterRowid`, in rowid order: their ids and the last rowid
   * read. The rowid cursor keeps each batch's read short however many assets are already done.
   */
  pending(model: string, dimension: number, afterRowid: number, limit: number): { ids: string[]; last: number } {
    const rows = this.database
      .prepare(`${PENDING} AND a.rowid > ? ORDER BY a.rowid LIMIT ?`)
      .all(model, dimension, afterRowid, limit) as Array<{ rowid: number; id: string }>;
    return { ids: rows.map((row) => row.id), last: rows.length > 0 ? rows[rows.length - 1]!.rowid : afterRowid };
  }

  pendingCount(model: string, dimension: number): number {
    return (this.database.prepare(`SELECT COUNT(*) AS n FROM (${PENDING})`).get(model, dimension) as { n: number }).n;
  }

  /** The digest of the text the asset's vector of `model` was made from, if it has one. */
  sourceOf(assetId: string, model: string, dimension: number): string | undefined {
    const row = this.database
      .prepare('SELECT source FROM asset_vectors WHERE asset_id = ? AND model = ? AND dimension = ?')
      .get(assetId, model, dimension) as { source: string } | undefined;
    return row?.source;
  }

  /**
   * Stores vectors made by `model` in one transaction that is bookkeeping, not an acknowledged
   * write: a vector lost in a crash is made again by the next back-fill. An asset deleted while
   * its vector was being made gets none. Returns the ids written.
   */
  write(model: string, entries: ReadonlyArray<{ assetId: string; source: string; vector: Float32Array }>): string[] {
    const written: string[] = [];
    this.database.unsyncedTransaction(() => {
      const exists = this.database.prepare('SELECT 1 FROM assets WHERE id = ?');
      const put = this.database.prepare(
        `INSERT INTO asset_vectors (asset_id, model, dimension, source, stale, vector) VALUES (?, ?, ?, ?, 0, ?)
         ON CONFLICT (asset_id) DO UPDATE SET model = excluded.model, dimension = excluded.dimension,
           source = excluded.source, stale = 0, vector = excluded.vector`,
      );
      for (const entry of entries) {
        if (exists.get(entry.assetId) === undefined) continue;
        put.run(entry.assetId, model, entry.vector.length, entry.source, bytesOf(entry.vector));
        written.push(entry.assetId);
      }
    });
    return written;
  }

  /** Marks vectors current again: each was made from the text its asset has now. */
  confirm(assetIds: readonly string[], model: string): void {
    if (assetIds.length === 0) return;
    this.database.unsyncedTransaction(() => {
      const update = this.database.prepare('UPDATE asset_vectors SET stale = 0 WHERE asset_id = ? AND model = ?');
      for (const id of assetIds) update.run(id, model);
    });
  }

  /** Up to `limit` vectors of `model` after `afterRowid` (the table's rowid), with the last rowid read. */
  vectors(model: string, dimension: number, afterRowid: number, limit: number): { vectors: StoredVector[]; last: number } {
    const rows = this.database
      .prepare('SELECT rowid, asset_id, vector FROM asset_vectors WHERE rowid > ? AND model = ? AND dimension = ? ORDER BY rowid LIMIT ?')
      .all(afterRowid, model, dimension, limit) as Array<{ rowid: number; asset_id: string; vector: Uint8Array }>;
    return {
      vectors: rows.map((row) => ({ assetId: row.asset_id, vector: vectorOf(row.vector) })),
      last: rows.length > 0 ? rows[rows.length - 1]!.rowid : afterRowid,
    };
  }


  /** The ordinary assets among `ids` (in scope), with their rowids, in the order given. */
  eligible(ids: readonly string[], includePseudo: boolean): Array<{ id: string; rowid: number }> {
    return this.database
      .prepare(
        `SELECT a.id AS id, a.rowid AS rowid FROM json_each(?) j CROSS JOIN assets a ON a.id = j.value
         WHERE a.suggested = 0 AND (a.pseudo = 0 OR ?) ORDER BY j.key`,
      )
      .all(JSON.stringify(ids), includePseudo ? 1 : 0) as Array<{ id: string; rowid: number }>;
  }

  /** The asset's name, or undefined when there is no such asset. */
  nameOf(assetId: string): string | undefined {
    return (this.database.prepare('SELECT name FROM assets WHERE id = ?').get(assetId) as { name: string } | undefined)?.name;
  }
}

function bytesOf(vector: Float32Array): Uint8Array {
  return new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength);
}

function vectorOf(bytes: Uint8Array): Float32Array {
  // A copy: the blob's buffer may not be 4-byte aligned.
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return new Float32Array(copy.buffer);
}
