/**
 * How many revisions are kept, and the background work that keeps it so. The policy (stated in
 * docs/history.md): an asset's current revision always stays; every revision of the last 30 days
 * stays; of older ones, the newest of each day (UTC); and an asset keeps at most 500 revisions
 * and 64 MiB of replaced contents, the oldest going first past either.
 *
 * The policy is applied in the background, never inside a write: an asset is queued when a
 * revision is appended and compacted a couple of seconds later; every asset is looked at once a
 * day (older revisions age out of the 30 days without any write). Each step is one short
 * transaction over a few assets, with a turn of the event loop between steps; steps wait while an
 * import writes. After compacting, the replaced contents kept are deflated (textPacker.ts). A step writes nothing anyone was told was saved, so it does not wait for the disk:
 * a crash may undo one, and the next pass does it again.
 */
import type { Database } from '../store/database.ts';
import type { Logger } from '../context.ts';
import type { BulkWork } from '../bulkWork.ts';
import { toDisposable, type Disposable } from '../lifecycle.ts';
import type { CompactionRow, RevisionLog } from './revisionLog.ts';
import { TextPacker } from './textPacker.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface RetentionPolicy {
  /** Every revision younger than this is kept (within the caps). */
  readonly keepAllMs: number;
  /** Revisions kept per asset at most, the current one included. */
  readonly maxPerAsset: number;
  /** Bytes of contents other than the current one an asset's revisions keep at most (each distinct content counted once). */
  readonly maxBytesPerAsset: number;
}

export const DEFAULT_RETENTION: RetentionPolicy = {
  keepAllMs: 30 * DAY_MS,
  maxPerAsset: 500,
  maxBytesPerAsset: 64 * 1024 * 1024,
};

/**
 * The revisions of one asset the policy drops, given them newest first (pure: the tests drive it
 * with their own clock). The newest is the asset's current revision and always stays.
 */
export function revisionsToDrop(rows: readonly CompactionRow[], now: number, policy: RetentionPolicy): number[] {
  const kept: CompactionRow[] = [];
  const drop: number[] = [];
  const days = new Set<number>();
  rows.forEach((row, index) => {
    if (now - row.created < policy.keepAllMs) return kept.push(row);
    // Newest first: the first one met of a day is that day's newest (the current one always is).
    const day = Math.floor(row.created / DAY_MS);
    if (index > 0 && days.has(day)) return drop.push(row.seq);
    days.add(day);
    kept.push(row);
  });
  const current = kept[0]?.contentHash;
  const counted = new Set<string>();
  let bytes = 0;
  kept.forEach((row, index) => {
    if (index > 0 && !counted.has(row.contentHash) && row.contentHash !== current) {
      counted.add(row.contentHash);
      bytes += row.size;
    }
    if (index >= policy.maxPerAsset || (index > 0 && bytes > policy.maxBytesPerAsset)) drop.push(row.seq);
  });
  return drop;
}

export interface CompactorOptions {
  readonly policy?: Partial<RetentionPolicy>;
  /** After a revision is appended, its asset is compacted this much later (writes come in bursts). */
  readonly delayMs?: number;
  /** Every asset is looked at this long after the store opens, then once per `passEveryMs`. */
  readonly firstPassMs?: number;
  readonly passEveryMs?: number;
  readonly now?: () => number;
  readonly logger?: Logger;
  /**
   * Revisions of an asset something else still names (an unreviewed agent change's revision
   * before, which Revert restores): kept whatever the policy says.
   */
  readonly pinned?: (assetId: string) => ReadonlySet<string>;
  /** Counts each pass over every asset as bulk work (bulkWork.ts). */
  readonly bulkWork?: BulkWork;
}

/** Assets compacted per step (each is a few indexed reads, and deletes only when over the policy). */
const ASSETS_PER_STEP = 16;
/** Assets looked up per step of a daily pass (from the index alone: how many revisions each has). */
const SCAN_PER_STEP = 512;
/** Assets queued at most; past it the next daily pass is brought forward instead. */
const MAX_QUEUED = 10_000;
const RETRY_MS = 30_000;

export class RevisionCompactor implements Disposable {
  readonly policy: RetentionPolicy;
  private readonly database: Database;
  private readonly log: RevisionLog;
  private readonly options: Required<Omit<CompactorOptions, 'policy' | 'logger' | 'pinned' | 'bulkWork'>> & Pick<CompactorOptions, 'logger' | 'pinned' | 'bulkWork'>;
  private readonly queued = new Set<string>();
  private readonly packer: TextPacker;
  private timer: NodeJS.Timeout | undefined;
  private passTimer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private passDue = false;
  private deferrals = 0;
  private disposed = false;

  constructor(database: Database, log: RevisionLog, options: CompactorOptions = {}) {
    this.database = database;
    this.log = log;
    this.packer = new TextPacker(database, log);
    this.policy = { ...DEFAULT_RETENTION, ...options.policy };
    this.options = {
      delayMs: options.delayMs ?? 2_000,
      firstPassMs: options.firstPassMs ?? 60_000,
      passEveryMs: options.passEveryMs ?? DAY_MS,
      now: options.now ?? Date.now,
      logger: options.logger,
      pinned: options.pinned,
      bulkWork: options.bulkWork,
    };
    this.schedulePass(this.options.firstPassMs);
  }

  /** A revision was appended to the asset: it is compacted soon. */
  note(assetId: string): void {
    if (this.disposed) return;
    if (this.queued.size >= MAX_QUEUED) this.passDue = true;
    else this.queued.add(assetId);
    this.schedule(this.options.delayMs);
  }

  /** No step runs until the returned Disposable is disposed (an import writes meanwhile). */
  defer(): Disposable {
    this.deferrals++;
    return toDisposable(() => {
      this.deferrals--;
      if (this.deferrals === 0 && (this.queued.size > 0 || this.passDue)) this.schedule(this.options.delayMs);
    });
  }

  /** Applies the policy to one asset in one transaction; returns how many revisions were dropped. */
  compactAsset(assetId: string, now = this.options.now()): number {
    return this.database.unsyncedTransaction(() => {
      const rows = this.log.compactionRows(assetId);
      const drop = revisionsToDrop(rows, now, this.policy);
      const pinned = drop.length > 0 ? this.options.pinned?.(assetId) : undefined;
      if (!pinned?.size) return this.log.remove(drop);
      const keep = new Set(rows.filter((row) => pinned.has(row.id)).map((row) => row.seq));
      return this.log.remove(drop.filter((seq) => !keep.has(seq)));
    });
  }

  /**
   * Compacts every asset, a step at a time with turns for the event loop, then packs the kept
   * texts (the daily pass; tests and the bench await it). Returns how many revisions it dropped.
   */
  async compactAll(now = this.options.now()): Promise<number> {
    const work = this.options.bulkWork?.begin();
    try {
      return await this.compactEvery(now);
    } finally {
      work?.dispose();
    }
  }

  private async compactEvery(now: number): Promise<number> {
    let dropped = 0;
    let after = '';
    for (;;) {
      const page = this.log.assetsAfter(after, SCAN_PER_STEP);
      if (page.length === 0) {
        await this.packer.pack(() => this.stopped());
        return dropped;
      }
      after = page[page.length - 1]!.assetId;
      // An asset with one revision has nothing to drop: only the others are read.
      const candidates = page.filter((entry) => entry.count > 1).map((entry) => entry.assetId);
      for (let i = 0; i < candidates.length; i += ASSETS_PER_STEP) {
        if (this.stopped()) {
          // Picked up again by the next pass (an import writes meanwhile, or the store closes).
          this.passDue = true;
          return dropped;
        }
        dropped += this.database.unsyncedTransaction(() => candidates.slice(i, i + ASSETS_PER_STEP).reduce((sum, id) => sum + this.compactAsset(id, now), 0));
        await turn();
      }
      await turn();
    }
  }

  /** Resolves when the queued assets (and a pass that is due) are compacted: for tests and the bench. */
  async idle(): Promise<void> {
    this.cancel();
    await this.running;
    await this.run();
  }

  private schedule(delayMs: number): void {
    if (this.disposed || this.timer !== undefined || this.running !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.run();
    }, delayMs);
    this.timer.unref();
  }

  private schedulePass(delayMs: number): void {
    if (this.disposed) return;
    this.passTimer = setTimeout(() => {
      this.passDue = true;
      this.schedule(0);
      this.schedulePass(this.options.passEveryMs);
    }, delayMs);
    this.passTimer.unref();
  }

  private run(): Promise<void> {
    this.running ??= this.work().finally(() => {
      this.running = undefined;
      // While deferred, the deferral's end schedules the work left.
      if (this.deferrals === 0 && (this.queued.size > 0 || this.passDue)) this.schedule(this.options.delayMs);
    });
    return this.running;
  }

  private async work(): Promise<void> {
    if (this.stopped()) return;
    try {
      while (this.queued.size > 0 && !this.stopped()) {
        const step = [...this.queued].slice(0, ASSETS_PER_STEP);
        for (const id of step) this.queued.delete(id);
        this.database.unsyncedTransaction(() => step.forEach((id) => this.compactAsset(id)));
        await turn();
      }
      if (this.passDue && !this.stopped()) {
        this.passDue = false;
        await this.compactAll();
      } else {
        // What the compaction kept of replaced contents is deflated off the event loop.
        await this.packer.pack(() => this.stopped());
      }
    } catch (error) {
      // Revisions stay as they were (over the policy only until a later step succeeds).
      if (this.disposed || !this.database.db.isOpen) return;
      this.options.logger?.warn(`Revision compaction failed, retried in ${RETRY_MS / 1000} s: ${(error as Error).message}`);
      this.passDue = true;
      this.cancel();
      this.timer = setTimeout(() => {
        this.timer = undefined;
        void this.run();
      }, RETRY_MS);
      this.timer.unref();
    }
  }

  private stopped(): boolean {
    return this.disposed || this.deferrals > 0 || !this.database.db.isOpen;
  }

  private cancel(): void {
    if (this.timer === undefined) return;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  dispose(): void {
    this.disposed = true;
    this.cancel();
    if (this.passTimer !== undefined) clearTimeout(this.passTimer);
    this.queued.clear();
  }
}

function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
