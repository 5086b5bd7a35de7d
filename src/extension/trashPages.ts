/**
 * The trash as the Assets view shows it: its first page of entries (newest deleted first), more
 * pages when asked for, and the listing read again shortly after anything may have changed it (a
 * delete or restore seen on the assets or conversations streams, a command of this window). The
 * trash has no stream of its own; a settle delay turns a burst of changes into one request.
 * Knows nothing of VS Code.
 */
import { Emitter, type Event } from '../core/events.ts';
import type { Disposable } from '../core/lifecycle.ts';
import type { Logger } from '../core/context.ts';
import type { TrashItem, TrashListOptions, TrashPage } from '../client/trash.ts';

/** Reads one page of the trash (a connection's `client.trash.list`). */
export type TrashSource = (options: TrashListOptions) => Promise<TrashPage>;

/** Entries per page, as the other paged listings of the host answer them. */
export const TRASH_PAGE = 100;
/** How long changes settle before the listing is read again. */
export const SETTLE_MS = 400;

export class TrashPages implements Disposable {
  private readonly logger: Logger;
  private readonly settleMs: number;
  private source: TrashSource | undefined;
  private entries: TrashItem[] = [];
  private next: string | undefined;
  private total = 0;
  private retention: number | undefined;
  /** Bumped by every reload: a page read for an older listing is dropped. */
  private generation = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly changes = new Emitter<void>();
  /** Fires after the entries, the count or the retention changed. */
  readonly onDidChange: Event<void> = this.changes.event;

  constructor(logger: Logger, settleMs = SETTLE_MS) {
    this.logger = logger;
    this.settleMs = settleMs;
  }

  /** Entries listed so far, newest deleted first. */
  get items(): readonly TrashItem[] {
    return this.entries;
  }

  /** Entries in the trash (listed or not). */
  get count(): number {
    return this.total;
  }

  /** Entries not listed yet (0 on the last page). */
  get remaining(): number {
    return this.next === undefined ? 0 : Math.max(0, this.total - this.entries.length);
  }

  /** Days entries stay in the trash (0: until emptied); undefined until the host answered. */
  get retentionDays(): number | undefined {
    return this.retention;
  }

  item(id: string): TrashItem | undefined {
    return this.entries.find((entry) => entry.id === id);
  }

  /** Lists from `source` (the connection's client) from now on, or nothing while there is none. */
  connect(source: TrashSource | undefined): Promise<void> {
    this.source = source;
    this.generation++;
    this.entries = [];
    this.next = undefined;
    this.total = 0;
    this.retention = undefined;
    this.changes.fire();
    return this.reload();
  }

  /** Reads the first page again (pages loaded after it are dropped until asked for again). */
  async reload(): Promise<void> {
    this.cancelSettle();
    const source = this.source;
    if (!source) return;
    const generation = ++this.generation;
    let page: TrashPage;
    try {
      page = await source({ limit: TRASH_PAGE });
    } catch (error) {
      this.logger.warn(`Could not list the trash: ${(error as Error).message}`);
      return;
    }
    if (generation !== this.generation) return;
    this.entries = [...page.items];
    this.apply(page);
  }

  /** Lists the next page after those shown. */
  async loadMore(): Promise<void> {
    const source = this.source;
    const after = this.next;
    if (!source || after === undefined) return;
    const generation = this.generation;
    const page = await source({ limit: TRASH_PAGE, after });
    if (generation !== this.generation) return;
    const shown = new Set(this.entries.map((entry) => entry.id));
    this.entries.push(...page.items.filter((entry) => !shown.has(entry.id)));
    this.apply(page);
  }

  /** Something may have changed the trash: read it again once changes settle. */
  invalidate(): void {
    if (!this.source) return;
    this.cancelSettle();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.reload();
    }, this.settleMs);
    this.timer.unref?.();
  }

  /** An entry restored or deleted here leaves the listing at once (the host is read again after). */
  drop(id: string): void {
    const before = this.entries.length;
    this.entries = this.entries.filter((entry) => entry.id !== id);
    if (this.entries.length === before) return;
    this.total = Math.max(0, this.total - 1);
    this.changes.fire();
  }

  dispose(): void {
    this.cancelSettle();
    this.source = undefined;
    this.generation++;
    this.changes.dispose();
  }

  private apply(page: TrashPage): void {
    this.next = page.next;
    this.total = page.total;
    this.retention = page.retentionDays;
    this.changes.fire();
  }

  private cancelSettle(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/**
 * Calls `changed` after an event when `count()` differs from what it was after the previous one:
 * a record went (to the trash, perhaps) or came back, not an edit. An import's or a chat's stream
 * of updates does not read the trash again each time.
 */
export function whenCountChanges(event: (listener: () => void) => Disposable, count: () => number, changed: () => void): Disposable {
  let last = count();
  return event(() => {
    const now = count();
    if (now === last) return;
    last = now;
    changed();
  });
}
