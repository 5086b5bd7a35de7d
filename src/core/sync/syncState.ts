/**
 * The sync area's rows (schema.ts): settings and the last synced commit in `sync_state`, the assets
 * changed since (`sync_dirty`, filled by triggers), and the assets whose base is their own
 * (`sync_base`). Every statement the area runs on them lives here.
 */
import type { Database } from '../store/database.ts';

/** A sync that pushed and had not yet recorded its result: finished by the next run when its commit reached the remote. */
export interface PendingSync {
  /** The commit last synced when it began (its base). */
  readonly base: string | undefined;
  /** What it read of this machine: the base's tree with the local changes. */
  readonly local: string;
  /** What it pushed. */
  readonly merged: string;
}

export interface SyncSettings {
  readonly remote: string;
  readonly branch: string;
}

export const DEFAULT_BRANCH = 'main';

export class SyncState {
  private readonly database: Database;

  constructor(database: Database) {
    this.database = database;
  }

  private get(key: string): string | undefined {
    return (this.database.prepare('SELECT value FROM sync_state WHERE key = ?').get(key) as { value: string } | undefined)?.value;
  }

  private set(key: string, value: string | undefined): void {
    if (value === undefined) this.database.prepare('DELETE FROM sync_state WHERE key = ?').run(key);
    else this.database.prepare('INSERT INTO sync_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
  }

  settings(): SyncSettings | undefined {
    const remote = this.get('remote');
    return remote === undefined ? undefined : { remote, branch: this.get('branch') ?? DEFAULT_BRANCH };
  }

  /**
   * Sets the remote (and branch). Another remote than before starts over: nothing is taken as
   * synced, so the first sync with it merges the whole library with what it holds.
   */
  configure(settings: SyncSettings): void {
    this.database.transaction(() => {
      const before = this.settings();
      if (before?.remote !== settings.remote || before.branch !== settings.branch) {
        this.set('synced', undefined);
        this.set('pending', undefined);
        this.database.prepare('DELETE FROM sync_base').run();
        this.database.prepare('DELETE FROM sync_dirty').run();
      }
      this.set('remote', settings.remote);
      this.set('branch', settings.branch);
    });
  }

  /** Stops syncing: the triggers stop noting changes. */
  forget(): void {
    this.database.transaction(() => {
      for (const key of ['remote', 'branch', 'synced', 'pending', 'last']) this.set(key, undefined);
      this.database.prepare('DELETE FROM sync_base').run();
      this.database.prepare('DELETE FROM sync_dirty').run();
    });
  }

  synced(): string | undefined {
    return this.get('synced');
  }

  pending(): PendingSync | undefined {
    const text = this.get('pending');
    return text === undefined ? undefined : (JSON.parse(text) as PendingSync);
  }

  /** Durable before the push it announces (a write with synchronous=FULL). */
  setPending(pending: PendingSync | undefined): void {
    this.database.transaction(() => this.set('pending', pending === undefined ? undefined : JSON.stringify(pending)));
  }

  /** The sync's result is recorded: the merged commit is the new base, nothing is pending. In the caller's transaction. */
  finished(merged: string, summary: string): void {
    this.set('synced', merged);
    this.set('pending', undefined);
    this.set('last', summary);
  }

  /** What the last sync did (its summary as JSON), for status. */
  last(): string | undefined {
    return this.get('last');
  }

  /** The assets changed since the last sync, and the last change's seq (what a sync read them at). */
  dirty(): { ids: string[]; seq: number } {
    return this.database.transaction(() => {
      const ids = (this.database.prepare("SELECT id FROM sync_dirty WHERE kind = 'asset'").all() as Array<{ id: string }>).map((row) => row.id);
      return { ids, seq: this.seq() };
    });
  }

  /** The last change's seq. */
  seq(): number {
    return (this.database.prepare('SELECT coalesce(max(seq), 0) AS seq FROM sync_dirty').get() as { seq: number }).seq;
  }

  dirtyCount(): number {
    return (this.database.prepare("SELECT COUNT(*) AS n FROM sync_dirty WHERE kind = 'asset'").get() as { n: number }).n;
  }

  /** Whether the asset changed after `seq`. */
  changedAfter(id: string, seq: number): boolean {
    return this.database.prepare("SELECT 1 FROM sync_dirty WHERE kind = 'asset' AND id = ? AND seq > ?").get(id, seq) !== undefined;
  }

  /** The asset is synced: its note goes (only one made by `seq`, when given: a later change stays noted). */
  clean(id: string, upTo?: number): void {
    if (upTo === undefined) this.database.prepare("DELETE FROM sync_dirty WHERE kind = 'asset' AND id = ?").run(id);
    else this.database.prepare("DELETE FROM sync_dirty WHERE kind = 'asset' AND id = ? AND seq <= ?").run(id, upTo);
  }

  /** Assets whose base is their own folder (`''`: absent), by id. */
  bases(): Map<string, string> {
    const rows = this.database.prepare("SELECT id, tree FROM sync_base WHERE kind = 'asset'").all() as Array<{ id: string; tree: string }>;
    return new Map(rows.map((row) => [row.id, row.tree]));
  }

  setBase(id: string, tree: string | undefined): void {
    this.database
      .prepare("INSERT INTO sync_base (kind, id, tree) VALUES ('asset', ?, ?) ON CONFLICT (kind, id) DO UPDATE SET tree = excluded.tree")
      .run(id, tree ?? '');
  }

  dropBase(id: string): void {
    this.database.prepare("DELETE FROM sync_base WHERE kind = 'asset' AND id = ?").run(id);
  }
}
