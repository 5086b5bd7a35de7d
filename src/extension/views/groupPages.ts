/**
 * What a paged tree holds of its groups: for each group the user opened, the pages read so far (in
 * the host's order) and the cursor of the next one. Nothing is held of a closed group, a group not
 * read for a while is let go, and the whole never holds more than `maxHeld` records (the groups used
 * longest ago go first), so the editor's memory follows what is shown, not the library's size.
 * Knows nothing of VS Code.
 */

/** One page of a group as the host answers it: `next` is absent on the last page. */
export interface Page<T> {
  readonly items: readonly T[];
  readonly next?: string;
}

export type PageSource<T> = (key: string, after: string | undefined, limit: number) => Promise<Page<T>>;

/** What is held of one group: its records so far and whether the host has more. */
export interface Held<T> {
  readonly items: readonly T[];
  readonly more: boolean;
}

interface Entry<T> {
  readonly key: string;
  items: T[];
  next: string | undefined;
  usedAt: number;
  /** The read under way (first page, next page or a reload); one at a time per group. */
  busy: Promise<void> | undefined;
}

export interface GroupPagesOptions {
  readonly pageSize: number;
  /** Records held over all groups at most (the group being read is kept even when larger). */
  readonly maxHeld: number;
  readonly now?: () => number;
}

export class GroupPages<T> {
  private readonly source: PageSource<T>;
  private readonly id: (item: T) => string;
  private readonly pageSize: number;
  private readonly maxHeld: number;
  private readonly now: () => number;
  private readonly groups = new Map<string, Entry<T>>();

  constructor(source: PageSource<T>, id: (item: T) => string, options: GroupPagesOptions) {
    this.source = source;
    this.id = id;
    this.pageSize = options.pageSize;
    this.maxHeld = options.maxHeld;
    this.now = options.now ?? Date.now;
  }

  /** What is held of a group now, or undefined when nothing is (it was never opened, or let go). */
  held(key: string): Held<T> | undefined {
    const entry = this.groups.get(key);
    if (!entry) return undefined;
    entry.usedAt = this.now();
    return { items: entry.items, more: entry.next !== undefined };
  }

  /** The group's records: what is held, or its first page read now. */
  async open(key: string): Promise<Held<T>> {
    let entry = this.groups.get(key);
    if (!entry) {
      entry = { key, items: [], next: undefined, usedAt: this.now(), busy: undefined };
      this.groups.set(key, entry);
      const started = entry;
      await this.run(started, () => this.read(started, 1));
    } else if (entry.busy) await entry.busy.catch(() => undefined);
    return this.held(key) ?? { items: [], more: false };
  }

  /** Reads the group's next page (a "Load more…"); nothing when it is not held or has no more. */
  async more(key: string): Promise<void> {
    const entry = this.groups.get(key);
    if (!entry) return;
    await this.run(entry, async () => {
      // The cursor as it is when this read's turn comes (a reload before it may have moved it).
      if (entry.next === undefined || this.groups.get(key) !== entry) return;
      const page = await this.source(key, entry.next, this.pageSize);
      const held = new Set(entry.items.map(this.id));
      entry.items.push(...page.items.filter((item) => !held.has(this.id(item))));
      entry.next = page.next;
    });
  }

  /** Lets a group go. */
  close(key: string): void {
    this.groups.delete(key);
  }

  /** Lets a group go unless it was read after `since` (collapsed, then opened or revealed again). */
  closeIfUnreadSince(key: string, since: number): boolean {
    const entry = this.groups.get(key);
    if (!entry || entry.usedAt > since || entry.busy) return false;
    this.groups.delete(key);
    return true;
  }

  /** Lets go every group not read since `idleMs` ago; returns their keys. */
  evictIdle(idleMs: number): string[] {
    const before = this.now() - idleMs;
    const gone = [...this.groups].filter(([, entry]) => entry.usedAt < before && !entry.busy).map(([key]) => key);
    for (const key of gone) this.groups.delete(key);
    return gone;
  }

  /**
   * Reads the given groups again from their start, as many pages as they held (a change touched
   * them); groups not held are left alone. Returns the keys read again.
   */
  async reload(keys: Iterable<string>): Promise<string[]> {
    const read: string[] = [];
    await Promise.all(
      [...new Set(keys)].map(async (key) => {
        const entry = this.groups.get(key);
        if (!entry) return;
        await this.run(entry, async () => {
          if (this.groups.get(key) !== entry) return;
          // As many pages as it holds when this read's turn comes ("Load more…" before it counts).
          await this.read(entry, Math.max(1, Math.ceil(entry.items.length / this.pageSize)));
          read.push(key);
        });
      }),
    );
    return read;
  }

  /** The keys of the held groups holding any of `ids`. */
  holding(ids: ReadonlySet<string>): string[] {
    return [...this.groups].filter(([, entry]) => entry.items.some((item) => ids.has(this.id(item)))).map(([key]) => key);
  }

  /** A held record by id (any group). */
  find(id: string): T | undefined {
    for (const entry of this.groups.values()) {
      const found = entry.items.find((item) => this.id(item) === id);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  /** Every held record, once. */
  all(): T[] {
    const seen = new Map<string, T>();
    for (const entry of this.groups.values()) for (const item of entry.items) seen.set(this.id(item), item);
    return [...seen.values()];
  }

  get keys(): string[] {
    return [...this.groups.keys()];
  }

  /** Records held over all groups. */
  get size(): number {
    let size = 0;
    for (const entry of this.groups.values()) size += entry.items.length;
    return size;
  }

  clear(): void {
    this.groups.clear();
  }

  /** Replaces the entry's records with the group's first `pages` pages. */
  private async read(entry: Entry<T>, pages: number): Promise<void> {
    const items: T[] = [];
    const ids = new Set<string>();
    let next: string | undefined;
    for (let page = 0; page < pages; page++) {
      const answer = await this.source(entry.key, next, this.pageSize);
      for (const item of answer.items) if (!ids.has(this.id(item))) (ids.add(this.id(item)), items.push(item));
      next = answer.next;
      if (next === undefined) break;
    }
    entry.items = items;
    entry.next = next;
  }

  /**
   * Runs `work` after the reads already queued on the group, one at a time: a reload and a "Load
   * more…" that overlapped would read from cursors the other had moved (a record twice, or skipped).
   */
  private async run(entry: Entry<T>, work: () => Promise<void>): Promise<void> {
    const busy = (entry.busy ?? Promise.resolve()).catch(() => undefined).then(work);
    entry.busy = busy;
    const settle = () => {
      if (entry.busy === busy) entry.busy = undefined;
    };
    try {
      await busy;
    } catch (error) {
      // A first page that failed leaves nothing held, so the next open asks again.
      if (entry.items.length === 0 && this.groups.get(entry.key) === entry) this.groups.delete(entry.key);
      throw error;
    } finally {
      settle();
    }
    entry.usedAt = this.now();
    this.trim(entry);
  }

  /** Lets go of the groups used longest ago until at most `maxHeld` records are held (`keep` stays). */
  private trim(keep: Entry<T>): void {
    let size = this.size;
    const oldest = [...this.groups].filter(([, entry]) => entry !== keep && !entry.busy).sort(([, a], [, b]) => a.usedAt - b.usedAt);
    for (const [key, entry] of oldest) {
      if (size <= this.maxHeld) break;
      size -= entry.items.length;
      this.groups.delete(key);
    }
  }
}
