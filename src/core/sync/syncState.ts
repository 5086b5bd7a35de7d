/**
 * The sync area's rows (schema.ts): settings and the last synced commit in `sync_state`, the assets
 * changed since (`sync_dirty`, filled by triggers), and the assets whose base is their own
 * (`sync_base`). Every statement the area runs on them lives here.
 */
import type { Database } from '../store/database.ts';
import type { SyncKindName } from './syncKinds.ts';
import { remoteIdentity } from './remoteIdentity.ts';

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
  /** The user named the branch; otherwise a first sync with an empty remote takes the branch its HEAD names. */
  readonly branchChosen?: boolean | undefined;
}

export const DEFAULT_BRANCH = 'main';

const BRANCH = /^(?!-)(?!.*\.\.)[A-Za-z0-9._/-]{1,100}$/;

/** A branch name sync takes (a remote's HEAD's too): no option, no `..`, nothing git would read otherwise. */
export function validBranch(branch: string): boolean {
  return BRANCH.test(branch);
}

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
    return remote === undefined ? undefined : { remote, branch: this.get('branch') ?? DEFAULT_BRANCH, branchChosen: this.get('branch-chosen') === '1' };
  }

  /**
   * Sets the remote, and the branch when one is given (none given: the one it had for this
   * remote, else the default). The URL is kept as typed (git is given it); whether it is another
   * remote is told by what it names (remoteIdentity.ts). Another remote or branch than before starts over: nothing is taken
   * as synced, so the first sync with it merges the whole library with what it holds.
   */
  configure(remote: string, branch?: string): SyncSettings {
    return this.database.transaction(() => {
      const before = this.settings();
      // The same repository spelled otherwise (a trailing slash, file://, SSH against HTTPS) is not another remote.
      const same = before !== undefined && remoteIdentity(before.remote) === remoteIdentity(remote);
      const next = branch ?? (same ? before.branch : DEFAULT_BRANCH);
      if (!same || before.branch !== next) {
        this.set('synced', undefined);
        this.set('pending', undefined);
        this.database.prepare('DELETE FROM sync_base').run();
        this.database.prepare('DELETE FROM sync_dirty').run();
      }
      this.set('remote', remote);
      this.set('branch', next);
      this.set('branch-chosen', branch !== undefined || (same && before.branchChosen === true) ? '1' : undefined);
      return this.settings()!;
    });
  }

  /** Takes the branch an empty remote's HEAD names (nothing is synced yet: nothing starts over). */
  followBranch(branch: string): void {
    this.database.transaction(() => this.set('branch', branch));
  }

  /** Stops syncing: the triggers stop noting changes. */
  forget(): void {
    this.database.transaction(() => {
      for (const key of ['remote', 'branch', 'branch-chosen', 'synced', 'pending', 'last']) this.set(key, undefined);
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

  /** The records of each kind changed since the last sync, and the last change's seq (what a sync read them at). */
  dirty(): { ids: ReadonlyMap<SyncKindName, string[]>; seq: number } {
    return this.database.transaction(() => {
      const ids = new Map<SyncKindName, string[]>([['asset', []], ['conversation', []]]);
      for (const row of this.database.prepare('SELECT kind, id FROM sync_dirty').all() as Array<{ kind: SyncKindName; id: string }>) ids.get(row.kind)?.push(row.id);
      return { ids, seq: this.seq() };
    });
  }

  /** The last change's seq. */
  seq(): number {
    return (this.database.prepare('SELECT coalesce(max(seq), 0) AS seq FROM sync_dirty').get() as { seq: number }).seq;
  }

  /** Records (snippets and conversations) changed since the last sync. */
  dirtyCount(): number {
    return (this.database.prepare('SELECT COUNT(*) AS n FROM sync_dirty').get() as { n: number }).n;
  }

  /** Whether the record changed after `seq`. */
  changedAfter(kind: SyncKindName, id: string, seq: number): boolean {
    return this.database.prepare('SELECT 1 FROM sync_dirty WHERE kind = ? AND id = ? AND seq > ?').get(kind, id, seq) !== undefined;
  }

  /** The records are to be sent again at the next sync (what they send changed, not they themselves). In the caller's transaction. */
  touch(kind: SyncKindName, ids: readonly string[]): void {
    const mark = this.database.prepare('INSERT OR REPLACE INTO sync_dirty (kind, id) VALUES (?, ?)');
    for (const id of ids) mark.run(kind, id);
  }

  /** The record is synced: its note goes. */
  clean(kind: SyncKindName, id: string): void {
    this.database.prepare('DELETE FROM sync_dirty WHERE kind = ? AND id = ?').run(kind, id);
  }

  /** Records of a kind whose base is their own folder (`''`: absent), by id. */
  bases(kind: SyncKindName): Map<string, string> {
    const rows = this.database.prepare('SELECT id, tree FROM sync_base WHERE kind = ?').all(kind) as Array<{ id: string; tree: string }>;
    return new Map(rows.map((row) => [row.id, row.tree]));
  }

  setBase(kind: SyncKindName, id: string, tree: string | undefined): void {
    this.database
      .prepare('INSERT INTO sync_base (kind, id, tree) VALUES (?, ?, ?) ON CONFLICT (kind, id) DO UPDATE SET tree = excluded.tree')
      .run(kind, id, tree ?? '');
  }

  dropBase(kind: SyncKindName, id: string): void {
    this.database.prepare('DELETE FROM sync_base WHERE kind = ? AND id = ?').run(kind, id);
  }
}
