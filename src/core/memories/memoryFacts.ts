/**
 * Each memory's facts (memories/schema.ts): the project it was written in, the files it cites with
 * what each held then, and its links. An asset with a row is a memory; one without is a snippet.
 */
import type { Database } from '../store/database.ts';

/** A cited path as it was when the memory was written. */
export interface MemoryFile {
  /** Absolute, as the agent gave it (or resolved against the project). */
  readonly path: string;
  /** What was there: a file, a folder, or nothing (cited before it existed, or by mistake). */
  readonly kind: 'file' | 'folder' | 'missing';
  /** sha256 of a file's bytes, or of a folder's sorted entry names; absent when missing. */
  readonly hash?: string | undefined;
  /** The last git commit that touched the path, when it lies in a git work tree. */
  readonly commit?: string | undefined;
}

export interface MemoryFacts {
  /** The project's root (absolute), when given. */
  readonly project?: string | undefined;
  readonly files: readonly MemoryFile[];
  /** URLs and other references, as given (the http ones are also the asset's websites). */
  readonly links: readonly string[];
  /** The agent that wrote it, as it named itself (`connected_client`). */
  readonly client?: string | undefined;
}

type Row = { asset_id: string; project: string | null; files: string; links: string; client: string | null };

export class MemoryFactsStore {
  private readonly database: Database;

  constructor(database: Database) {
    this.database = database;
  }

  /** The facts of a memory; undefined when the asset is not one. */
  get(assetId: string): MemoryFacts | undefined {
    const row = this.database.prepare('SELECT asset_id, project, files, links, client FROM memories WHERE asset_id = ?').get(assetId) as Row | undefined;
    return row ? factsOf(row) : undefined;
  }

  /** The facts of those of `assetIds` that are memories, read with one query. */
  getMany(assetIds: readonly string[]): Map<string, MemoryFacts> {
    if (assetIds.length === 0) return new Map();
    const rows = this.database
      .prepare('SELECT m.asset_id, m.project, m.files, m.links, m.client FROM json_each(?) j CROSS JOIN memories m ON m.asset_id = j.value')
      .all(JSON.stringify(assetIds)) as Row[];
    return new Map(rows.map((row) => [row.asset_id, factsOf(row)]));
  }

  /** Which of `assetIds` are memories. */
  memoriesAmong(assetIds: readonly string[]): Set<string> {
    if (assetIds.length === 0) return new Set();
    const rows = this.database.prepare('SELECT m.asset_id FROM json_each(?) j CROSS JOIN memories m ON m.asset_id = j.value').all(JSON.stringify(assetIds)) as Array<{ asset_id: string }>;
    return new Set(rows.map((row) => row.asset_id));
  }

  /**
   * Live memories (not in the trash, not suggestions), newest first, at most `limit`; `created`
   * and `updated` bound their times (ISO strings, either end open).
   */
  newest(limit: number, window: TimeWindow = {}): string[] {
    const rows = this.database
      .prepare(
        `SELECT a.id FROM memories m JOIN assets a ON a.id = m.asset_id
         WHERE a.suggested = 0 AND a.pseudo = 0
           AND (?1 IS NULL OR a.created >= ?1) AND (?2 IS NULL OR a.created <= ?2)
           AND (?3 IS NULL OR a.updated >= ?3) AND (?4 IS NULL OR a.updated <= ?4)
         ORDER BY a.created DESC LIMIT ?5`,
      )
      .all(window.createdFrom ?? null, window.createdTo ?? null, window.updatedFrom ?? null, window.updatedTo ?? null, limit) as Array<{ id: string }>;
    return rows.map((row) => row.id);
  }

  /** Writes the facts inside the caller's transaction (undefined: the asset is no memory). */
  put(assetId: string, facts: MemoryFacts | undefined): void {
    if (facts === undefined) {
      this.database.prepare('DELETE FROM memories WHERE asset_id = ?').run(assetId);
      return;
    }
    this.database
      .prepare(
        `INSERT INTO memories (asset_id, project, files, links, client) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (asset_id) DO UPDATE SET project = excluded.project, files = excluded.files, links = excluded.links, client = excluded.client`,
      )
      .run(assetId, facts.project ?? null, JSON.stringify(facts.files), JSON.stringify(facts.links), facts.client ?? null);
  }
}

/** Bounds on a memory's times, ISO 8601 (either end open). */
export interface TimeWindow {
  readonly createdFrom?: string | undefined;
  readonly createdTo?: string | undefined;
  readonly updatedFrom?: string | undefined;
  readonly updatedTo?: string | undefined;
}

function factsOf(row: Row): MemoryFacts {
  return {
    ...(row.project !== null ? { project: row.project } : {}),
    files: filesOf(JSON.parse(row.files)),
    links: stringsOf(JSON.parse(row.links)),
    ...(row.client !== null ? { client: row.client } : {}),
  };
}

function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** Files as stored (or as a synced record carries them): entries that are not well-formed are dropped. */
export function filesOf(value: unknown): MemoryFile[] {
  if (!Array.isArray(value)) return [];
  const out: MemoryFile[] = [];
  for (const item of value) {
    if (typeof item !== 'object' || item === null) continue;
    const { path, kind, hash, commit } = item as Record<string, unknown>;
    if (typeof path !== 'string' || path === '') continue;
    const known = kind === 'file' || kind === 'folder' || kind === 'missing' ? kind : 'missing';
    out.push({ path, kind: known, ...(typeof hash === 'string' && hash !== '' ? { hash } : {}), ...(typeof commit === 'string' && commit !== '' ? { commit } : {}) });
  }
  return out;
}
