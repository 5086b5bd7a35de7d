/**
 * Which asset an import made from which snippet of which file (schema.ts). Read while an import
 * gathers its batches, written in each batch's transaction.
 */
import type { Database } from '../store/database.ts';

export class ImportOrigins {
  private readonly database: Database;

  constructor(database: Database) {
    this.database = database;
  }

  /** The asset an earlier import made from `source`, while that asset exists. */
  assetOf(source: string): string | undefined {
    const row = this.database
      .prepare('SELECT o.asset_id AS id FROM import_origins o JOIN assets a ON a.id = o.asset_id WHERE o.source = ?')
      .get(source) as { id: string } | undefined;
    return row?.id;
  }

  /** Remembers that `assetId` was made (or last updated) from `source`; the caller holds the transaction. */
  record(source: string, assetId: string): void {
    this.database
      .prepare('INSERT INTO import_origins (source, asset_id) VALUES (?, ?) ON CONFLICT (source) DO UPDATE SET asset_id = excluded.asset_id')
      .run(source, assetId);
  }
}
