/**
 * What the Assets view holds of the library over one connection: the host's group counts (by
 * language or by tag), the pages of the groups the user opened (GroupPages), and the few records a
 * change named last (RecentRecords) — never a record per snippet. The identifiers stream says what
 * changed: a change re-reads the counts and only the open groups it touched (a count that moved, or a
 * record they show), and reads the records it names that the window holds plus the first few new
 * ones. Frames arriving while one is applied are merged. Knows nothing of VS Code.
 */
import { Emitter, type Disposable, type Event } from '../../core/events.ts';
import type { Asset } from '../../core/piecesTypes.ts';
import { RECENT_IDENTIFIERS, type AssetGroupCounts, type GroupBy } from '../../wire/snippets.ts';
import type { Logger } from '../../core/context.ts';
import type { CollectionChange, IdentifierStream } from '../liveCollection.ts';
import { FrameQueue } from '../frameQueue.ts';
import { GroupPages, type Page } from './groupPages.ts';
import { RecentRecords } from './recentRecords.ts';

export interface AssetsSource {
  open(): IdentifierStream;
  counts(by: GroupBy): Promise<AssetGroupCounts>;
  page(by: GroupBy, key: string, after: string | undefined, limit: number): Promise<Page<Asset>>;
  /** The lean records (no text) among `ids` that exist. */
  byId(ids: readonly string[]): Promise<Asset[]>;
}

export interface AssetsDataOptions {
  /** Records a group page holds. */
  readonly pageSize: number;
  /** Records held over all open groups. */
  readonly maxHeld: number;
  /** Records of recent changes held (on connect: the newest ones, all the connect frame names). */
  readonly recent: number;
  /** New records read per change (the first ones it names); the others show when their group is opened. */
  readonly perChange: number;
}

export const ASSETS_DATA: AssetsDataOptions = { pageSize: 100, maxHeld: 2_000, recent: RECENT_IDENTIFIERS, perChange: 32 };

export class AssetsData implements Disposable {
  private readonly source: AssetsSource;
  private readonly logger: Logger;
  private readonly options: AssetsDataOptions;
  private stream: IdentifierStream | undefined;
  private by: GroupBy;
  private current: AssetGroupCounts | undefined;
  readonly pages: GroupPages<Asset>;
  private readonly recent: RecentRecords<Asset>;
  private readonly frames = new FrameQueue((present, deleted, full) => this.apply(present, deleted, full), () => this.stream !== undefined);
  private readonly changes = new Emitter<CollectionChange>();
  /** Fires after a change was applied (counts, open groups and recent records read again). */
  readonly onDidChange: Event<CollectionChange> = this.changes.event;
  private loadedResolve: (() => void) | undefined;
  /** Resolves once the first frame (the newest ids, or the whole library's) has been applied. */
  readonly loaded: Promise<void>;

  constructor(source: AssetsSource, by: GroupBy, logger: Logger, options: AssetsDataOptions = ASSETS_DATA) {
    this.source = source;
    this.by = by;
    this.logger = logger;
    this.options = options;
    this.pages = new GroupPages<Asset>((key, after, limit) => this.source.page(this.by, key, after, limit), (asset) => asset.id, options);
    this.recent = new RecentRecords(options.recent);
    this.loaded = new Promise((resolve) => (this.loadedResolve = resolve));
    this.open();
  }

  get grouping(): GroupBy {
    return this.by;
  }

  /** The host's groups (memories apart); undefined until first read. */
  get counts(): AssetGroupCounts | undefined {
    return this.current;
  }

  /** A record the window holds (a recent change's, or one an open group shows). */
  get(id: string): Asset | undefined {
    return this.recent.get(id) ?? this.pages.find(id);
  }

  /** Every record the window holds, once. */
  held(): Asset[] {
    const all = new Map(this.pages.all().map((asset) => [asset.id, asset]));
    for (const asset of this.recent.values()) all.set(asset.id, asset);
    return [...all.values()];
  }

  /** Groups by language or by tag: what was open is let go, the counts are read again. */
  async setGrouping(by: GroupBy): Promise<void> {
    if (by === this.by) return;
    this.by = by;
    this.pages.clear();
    this.current = undefined;
    await this.readCounts();
    this.changes.fire({ ids: [], full: false });
  }

  /** Reconnects: the first frame names everything again. */
  refresh(): void {
    this.stream?.dispose();
    this.open();
  }

  /** Reads one record now (after a local action), without waiting for the stream. */
  async reload(id: string): Promise<void> {
    this.frames.push([id], [], false);
    await this.frames.settled();
  }

  private open(): void {
    const stream = this.source.open();
    this.stream = stream;
    this.frames.follow(stream, (entry) => entry.asset?.id);
  }

  private async apply(present: readonly string[], deleted: readonly string[], full: boolean): Promise<void> {
    const named = new Set([...present, ...deleted]);
    // Held recent records are read again; of the others, only the first few (a full frame lists newest first).
    const known = present.filter((id) => this.recent.has(id));
    const fresh = present.filter((id) => !this.recent.has(id)).slice(0, full ? this.options.recent : this.options.perChange);
    const wanted = [...known, ...fresh];
    let found: Map<string, Asset> | undefined;
    try {
      found = wanted.length ? new Map((await this.source.byId(wanted)).map((asset) => [asset.id, asset])) : new Map();
    } catch (error) {
      this.logger.warn(`Could not read ${wanted.length} changed snippets: ${(error as Error).message}`);
    }
    if (full) this.recent.clear();
    for (const id of deleted) this.recent.delete(id);
    if (found) {
      // In frame order, so the first named (newest) stay longest.
      for (const id of [...wanted].reverse()) {
        const asset = found.get(id);
        if (asset) this.recent.set(id, asset);
        else this.recent.delete(id);
      }
    }
    const before = this.current;
    await this.readCounts();
    const affected = full || !before ? this.pages.keys : [...changedGroups(before, this.current), ...this.pages.holding(named)];
    try {
      await this.pages.reload(affected);
    } catch (error) {
      this.logger.warn(`Could not read the changed groups again: ${(error as Error).message}`);
    }
    if (!this.stream) return;
    this.changes.fire({ ids: [...named], full });
    if (full) this.loadedResolve?.();
  }

  private async readCounts(): Promise<void> {
    const by = this.by;
    try {
      const counts = await this.source.counts(by);
      if (by === this.by) this.current = counts;
    } catch (error) {
      this.logger.warn(`Could not read the snippet groups: ${(error as Error).message}`);
    }
  }

  dispose(): void {
    this.stream?.dispose();
    this.stream = undefined;
    this.changes.dispose();
    this.pages.clear();
    this.recent.clear();
    this.loadedResolve?.();
    this.frames.release();
  }
}

/** The keys of the groups whose count differs between two readings (new and gone ones included). */
export function changedGroups(before: AssetGroupCounts | undefined, after: AssetGroupCounts | undefined): string[] {
  if (!before || !after || before.by !== after.by) return [];
  const counts = new Map(before.groups.map((group) => [group.key, group.count]));
  const changed: string[] = [];
  for (const group of after.groups) {
    if (counts.get(group.key) !== group.count) changed.push(group.key);
    counts.delete(group.key);
  }
  return [...changed, ...counts.keys()];
}
