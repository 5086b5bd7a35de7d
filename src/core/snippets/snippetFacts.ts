/**
 * Each asset's snippet facts (snippets/schema.ts): whether its text is VS Code snippet syntax, and
 * the prefixes that insert it. An asset with no row is plain code with no prefix.
 */
import type { Database } from '../store/database.ts';
import { checkLimit, LIMITS } from '../limits.ts';

export interface SnippetFacts {
  /** The text is VS Code snippet syntax: inserted as it is (tab stops, placeholders, choices). */
  readonly syntax: boolean;
  /** What typed in an editor offers it; each is also one of the asset's tags. */
  readonly prefixes: readonly string[];
}

export const PLAIN_SNIPPET: SnippetFacts = { syntax: false, prefixes: [] };

/** Prefixes as they are kept: trimmed, non-empty, one per text ignoring case (as tags are), within the tag limits. */
export function normalizePrefixes(prefixes: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of prefixes) {
    const prefix = raw.trim();
    const key = prefix.toLowerCase();
    if (prefix === '' || seen.has(key)) continue;
    checkLimit('tagChars', prefix.length);
    seen.add(key);
    out.push(prefix);
  }
  checkLimit('tagsPerAsset', out.length);
  return out;
}

/** Prefixes cut to the tag limits instead of refused: an import keeps the snippet whatever its labels. */
export function boundedPrefixes(prefixes: readonly string[]): string[] {
  return normalizePrefixes(prefixes.map((prefix) => prefix.slice(0, LIMITS.tagChars)).slice(0, LIMITS.tagsPerAsset));
}

type Row = { asset_id: string; syntax: number; prefixes: string };

export class SnippetFactsStore {
  private readonly database: Database;

  constructor(database: Database) {
    this.database = database;
  }

  get(assetId: string): SnippetFacts {
    const row = this.database.prepare('SELECT asset_id, syntax, prefixes FROM snippet_facts WHERE asset_id = ?').get(assetId) as Row | undefined;
    return row ? factsOf(row) : PLAIN_SNIPPET;
  }

  /** The facts of those of `assetIds` that have any, read with one query. */
  getMany(assetIds: readonly string[]): Map<string, SnippetFacts> {
    if (assetIds.length === 0) return new Map();
    const rows = this.database
      .prepare('SELECT f.asset_id, f.syntax, f.prefixes FROM json_each(?) j CROSS JOIN snippet_facts f ON f.asset_id = j.value')
      .all(JSON.stringify(assetIds)) as Row[];
    return new Map(rows.map((row) => [row.asset_id, factsOf(row)]));
  }

  /** Writes the facts inside the caller's transaction (plain facts remove the row). */
  put(assetId: string, facts: SnippetFacts): void {
    if (!facts.syntax && facts.prefixes.length === 0) {
      this.database.prepare('DELETE FROM snippet_facts WHERE asset_id = ?').run(assetId);
      return;
    }
    this.database
      .prepare('INSERT INTO snippet_facts (asset_id, syntax, prefixes) VALUES (?, ?, ?) ON CONFLICT (asset_id) DO UPDATE SET syntax = excluded.syntax, prefixes = excluded.prefixes')
      .run(assetId, facts.syntax ? 1 : 0, JSON.stringify(facts.prefixes));
  }
}

/** The facts of a row read with the assets (a LEFT JOIN: nulls when the asset has none). */
export function factsOfRow(row: { readonly syntax: number | null; readonly prefixes: string | null }): SnippetFacts {
  return row.syntax === null || row.prefixes === null ? PLAIN_SNIPPET : factsOf({ asset_id: '', syntax: row.syntax, prefixes: row.prefixes });
}

function factsOf(row: Row): SnippetFacts {
  const prefixes: unknown = JSON.parse(row.prefixes);
  return { syntax: row.syntax === 1, prefixes: Array.isArray(prefixes) ? prefixes.filter((p): p is string => typeof p === 'string') : [] };
}
