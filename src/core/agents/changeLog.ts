/**
 * The SQL of the agent changes area: every statement on `agent_changes` lives here (schema.ts
 * says what a row is). Callers hold the transaction; nothing here decides what is marked,
 * proposed, accepted or reverted (agentChanges.ts does).
 */
import type { Database } from '../store/database.ts';
import { authorOf, isAuthorKind, type Author } from '../history/authors.ts';

export type AgentChangeKind = 'created' | 'changed' | 'deleted';

/** One row of `agent_changes`, without its proposal's JSON (read apart: it may hold 4 Mi characters). */
export interface ChangeRow {
  readonly seq: number;
  readonly id: string;
  /** null for a proposed create (no asset exists yet). */
  readonly assetId: string | null;
  readonly kind: AgentChangeKind;
  /** It waits for review and does not count yet. */
  readonly proposed: boolean;
  readonly author: Author;
  readonly name: string;
  /** A mark's revision before the agent's first write; a proposal's revision it was proposed against. */
  readonly base: string | null;
  /** A mark's revision after the agent's last write (null once deleted, and for proposals). */
  readonly after: string | null;
  /** The agent writes a mark covers (consecutive writes of one agent to one asset share it). */
  readonly writes: number;
  /** ms since the epoch. */
  readonly created: number;
  readonly updated: number;
}

export type NewChange = Omit<ChangeRow, 'seq' | 'writes' | 'updated'> & { readonly proposal: string | null };

type Row = {
  seq: number;
  id: string;
  asset_id: string | null;
  kind: AgentChangeKind;
  proposed: number;
  author_kind: string;
  author_name: string;
  name: string;
  base: string | null;
  after: string | null;
  writes: number;
  created: number;
  updated: number;
};

const COLUMNS = 'seq, id, asset_id, kind, proposed, author_kind, author_name, name, base, after, writes, created, updated';

/** The user's last choice of whether agent writes wait for review, kept in `meta` so every host of the store honours it. */
const REVIEW_KEY = 'agent_changes.review';

export class ChangeLog {
  private readonly database: Database;

  constructor(database: Database) {
    this.database = database;
  }

  insert(change: NewChange): void {
    this.database
      .prepare(
        `INSERT INTO agent_changes (id, asset_id, kind, proposed, author_kind, author_name, name, base, after, proposal, created, updated)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        change.id,
        change.assetId,
        change.kind,
        change.proposed ? 1 : 0,
        change.author.kind,
        change.author.name,
        change.name,
        change.base,
        change.after,
        change.proposal,
        change.created,
        change.created,
      );
  }

  get(id: string): ChangeRow | undefined {
    const row = this.database.prepare(`SELECT ${COLUMNS} FROM agent_changes WHERE id = ?`).get(id) as Row | undefined;
    return row ? fromRow(row) : undefined;
  }

  /** A proposal's write, as JSON (null for a proposed delete). */
  proposal(id: string): string | null {
    const row = this.database.prepare('SELECT proposal FROM agent_changes WHERE id = ?').get(id) as { proposal: string | null } | undefined;
    return row?.proposal ?? null;
  }

  /** Newest first, at most `limit`. */
  list(limit: number): ChangeRow[] {
    const rows = this.database.prepare(`SELECT ${COLUMNS} FROM agent_changes ORDER BY seq DESC LIMIT ?`).all(limit) as Row[];
    return rows.map(fromRow);
  }

  count(): number {
    return (this.database.prepare('SELECT count(*) AS n FROM agent_changes').get() as { n: number }).n;
  }

  /** Ids of every change, newest first, at most `limit`. */
  ids(limit: number): string[] {
    const rows = this.database.prepare('SELECT id FROM agent_changes ORDER BY seq DESC LIMIT ?').all(limit) as Array<{ id: string }>;
    return rows.map((row) => row.id);
  }

  /** The mark an agent's next write to an asset continues: its last write left the asset at `after`. */
  markEndingAt(assetId: string, after: string, author: Author): ChangeRow | undefined {
    const row = this.database
      .prepare(`SELECT ${COLUMNS} FROM agent_changes WHERE asset_id = ? AND proposed = 0 AND after = ? AND author_kind = ? AND author_name = ? ORDER BY seq DESC LIMIT 1`)
      .get(assetId, after, author.kind, author.name) as Row | undefined;
    return row ? fromRow(row) : undefined;
  }

  /** An agent's newest mark of an asset. */
  markOf(assetId: string, author: Author): ChangeRow | undefined {
    const row = this.database
      .prepare(`SELECT ${COLUMNS} FROM agent_changes WHERE asset_id = ? AND proposed = 0 AND author_kind = ? AND author_name = ? ORDER BY seq DESC LIMIT 1`)
      .get(assetId, author.kind, author.name) as Row | undefined;
    return row ? fromRow(row) : undefined;
  }

  /** An agent's proposal of a kind for an asset against `base` (its next one of the same kind is merged into it). */
  proposalOf(assetId: string, kind: AgentChangeKind, base: string, author: Author): ChangeRow | undefined {
    const row = this.database
      .prepare(`SELECT ${COLUMNS} FROM agent_changes WHERE asset_id = ? AND proposed = 1 AND kind = ? AND base = ? AND author_kind = ? AND author_name = ? ORDER BY seq DESC LIMIT 1`)
      .get(assetId, kind, base, author.kind, author.name) as Row | undefined;
    return row ? fromRow(row) : undefined;
  }

  /** A mark continued by another write of its agent. */
  extendMark(id: string, change: { kind: AgentChangeKind; after: string | null; name: string; updated: number }): void {
    this.database
      .prepare('UPDATE agent_changes SET kind = ?, after = ?, name = ?, writes = writes + 1, updated = ? WHERE id = ?')
      .run(change.kind, change.after, change.name, change.updated, id);
  }

  /** A proposal replaced by its agent's later one (merged). */
  replaceProposal(id: string, change: { proposal: string; name: string; updated: number }): void {
    this.database.prepare('UPDATE agent_changes SET proposal = ?, name = ?, writes = writes + 1, updated = ? WHERE id = ?').run(change.proposal, change.name, change.updated, id);
  }

  /** Removes a change; whether there was one. */
  remove(id: string): boolean {
    return Number(this.database.prepare('DELETE FROM agent_changes WHERE id = ?').run(id).changes) > 0;
  }

  /** Removes every mark of an asset (proposals stay); their ids. */
  removeMarks(assetId: string): string[] {
    const rows = this.database.prepare('DELETE FROM agent_changes WHERE asset_id = ? AND proposed = 0 RETURNING id').all(assetId) as Array<{ id: string }>;
    return rows.map((row) => row.id);
  }

  /** Removes every mark (proposals stay); their ids. */
  removeAllMarks(): string[] {
    const rows = this.database.prepare('DELETE FROM agent_changes WHERE proposed = 0 RETURNING id').all() as Array<{ id: string }>;
    return rows.map((row) => row.id);
  }

  /** The revisions of an asset its changes name (before and after): history keeps them while they are listed. */
  revisionsOf(assetId: string): Set<string> {
    const rows = this.database.prepare('SELECT base, after FROM agent_changes WHERE asset_id = ?').all(assetId) as Array<{ base: string | null; after: string | null }>;
    return new Set(rows.flatMap((row) => [row.base, row.after]).filter((id): id is string => id !== null));
  }

  /** Whether agent writes wait for review, as last chosen; undefined when it never was. */
  reviewSetting(): boolean | undefined {
    const row = this.database.prepare('SELECT value FROM meta WHERE key = ?').get(REVIEW_KEY) as { value: string } | undefined;
    return row === undefined ? undefined : row.value === '1';
  }

  saveReviewSetting(on: boolean): void {
    this.database.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(REVIEW_KEY, on ? '1' : '0');
  }

  /** Ids of every proposal, oldest first (the order they are accepted in). */
  proposalIds(): string[] {
    const rows = this.database.prepare('SELECT id FROM agent_changes WHERE proposed = 1 ORDER BY seq').all() as Array<{ id: string }>;
    return rows.map((row) => row.id);
  }
}

function fromRow(row: Row): ChangeRow {
  return {
    seq: row.seq,
    id: row.id,
    assetId: row.asset_id,
    kind: row.kind,
    proposed: row.proposed === 1,
    author: isAuthorKind(row.author_kind) ? authorOf(row.author_kind, row.author_name) : authorOf('unknown', row.author_name),
    name: row.name,
    base: row.base,
    after: row.after,
    writes: row.writes,
    created: row.created,
    updated: row.updated,
  };
}
