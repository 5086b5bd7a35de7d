/** The `models` table: custom models, and the download state and digest of every model. */
import type { Database } from '../store/database.ts';
import type { Model } from '../piecesTypes.ts';

/**
 * `interrupted`: a download stopped by a shutdown or a crash; its partial file resumes on the next
 * download. A model counts as downloaded only in state `downloaded` with its file on disk.
 */
export type DownloadState = 'none' | 'downloading' | 'interrupted' | 'downloaded' | 'failed' | 'canceled';

export interface ModelRow {
  readonly id: string;
  readonly custom: boolean;
  /** A custom model's stored wire fields (derived fields excluded). */
  readonly data?: Model;
  /** Where a custom model downloads from: an http(s) URL, a file: URL or an absolute path. */
  readonly source?: string;
  readonly sha256?: string;
  readonly state: DownloadState;
  /** File name inside the model's folder. */
  readonly file?: string;
  /** Size of the file: final when downloaded, expected while downloading. */
  readonly bytes?: number;
  readonly error?: string;
}

type Row = {
  id: string;
  custom: number;
  data: string | null;
  source: string | null;
  sha256: string | null;
  state: string;
  file: string | null;
  bytes: number | null;
  error: string | null;
};

function fromRow(row: Row): ModelRow {
  return {
    id: row.id,
    custom: row.custom === 1,
    state: row.state as DownloadState,
    ...(row.data !== null ? { data: JSON.parse(row.data) as Model } : {}),
    ...(row.source !== null ? { source: row.source } : {}),
    ...(row.sha256 !== null ? { sha256: row.sha256 } : {}),
    ...(row.file !== null ? { file: row.file } : {}),
    ...(row.bytes !== null ? { bytes: Number(row.bytes) } : {}),
    ...(row.error !== null ? { error: row.error } : {}),
  };
}

export class ModelStore {
  private readonly database: Database;

  constructor(database: Database) {
    this.database = database;
  }

  get(id: string): ModelRow | undefined {
    const row = this.database.prepare('SELECT * FROM models WHERE id = ?').get(id) as Row | undefined;
    return row ? fromRow(row) : undefined;
  }

  customs(): ModelRow[] {
    const rows = this.database.prepare('SELECT * FROM models WHERE custom = 1 ORDER BY rowid').all() as Row[];
    return rows.map(fromRow);
  }

  /** Writes the whole row (a missing optional field is stored as absent). */
  put(row: ModelRow): void {
    this.database
      .prepare(
        `INSERT INTO models (id, custom, data, source, sha256, state, file, bytes, error, updated)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET custom = excluded.custom, data = excluded.data, source = excluded.source,
           sha256 = excluded.sha256, state = excluded.state, file = excluded.file, bytes = excluded.bytes,
           error = excluded.error, updated = excluded.updated`,
      )
      .run(
        row.id,
        row.custom ? 1 : 0,
        row.data ? JSON.stringify(row.data) : null,
        row.source ?? null,
        row.sha256 ?? null,
        row.state,
        row.file ?? null,
        row.bytes ?? null,
        row.error ?? null,
        new Date().toISOString(),
      );
  }

  delete(id: string): void {
    this.database.prepare('DELETE FROM models WHERE id = ?').run(id);
  }

  /** At startup nothing downloads yet: what was downloading was cut off and can resume. */
  interruptDownloads(): void {
    this.database.prepare(`UPDATE models SET state = 'interrupted' WHERE state = 'downloading'`).run();
  }
}
