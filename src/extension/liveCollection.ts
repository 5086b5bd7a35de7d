/**
 * A view's data: the records named by one identifiers stream, each fetched by id. The first frame
 * after every (re)connect lists everything, so it replaces the collection; later frames only name
 * changed or deleted ids. Only the records a frame names are fetched, in bounded chunks. Knows
 * nothing of VS Code.
 */
import { Emitter, type Disposable, type Event } from '../core/events.ts';
import type { StreamedIdentifier, StreamedIdentifiers } from '../core/piecesTypes.ts';
import type { StreamConnection } from '../client/streams.ts';
import { ClientError } from '../client/errors.ts';
import type { Logger } from '../core/context.ts';
import { FrameQueue } from './frameQueue.ts';

/** What the collection uses of a stream connection. */
export type IdentifierStream = Pick<StreamConnection<StreamedIdentifiers>, 'onFrame' | 'onDidChangeConnected' | 'dispose'>;

export interface LiveCollectionSource<T> {
  open(): IdentifierStream;
  /** The id this collection cares about in one stream entry (e.g. `entry.asset?.id`). */
  key(entry: StreamedIdentifier): string | undefined;
  /** One record; undefined (or a not-found ClientError) when it no longer exists. */
  fetch(id: string): Promise<T | undefined>;
  /**
   * The records among `ids` that exist, by id, in one request (a missing id is simply absent). Used
   * when a frame (or the frames that queued up while one was applied) names more than a few records:
   * a request per record meant 10,000 requests for the first frame of a 10k-asset store, and reading
   * the whole store instead meant parsing all 10k records for every import batch's frame.
   */
  fetchMany?(ids: readonly string[]): Promise<ReadonlyMap<string, T>>;
}

/** What one change of the collection touched: the ids a frame named, or everything after a (re)connect. */
export interface CollectionChange {
  readonly ids: readonly string[];
  readonly full: boolean;
}

/** Changes naming more records than this are loaded with `fetchMany`, when the source has it. */
const BULK_FETCH_FROM = 32;
/**
 * Ids per `fetchMany`: each reply is parsed in one go on the editor's process, so its size, not the
 * store's, bounds how long that holds the event loop.
 */
export const FETCH_CHUNK = 250;

export class LiveCollection<T> implements Disposable {
  private readonly source: LiveCollectionSource<T>;
  private readonly logger: Logger;
  private stream: IdentifierStream | undefined;
  private readonly items = new Map<string, T>();
  private readonly changes = new Emitter<CollectionChange>();
  readonly onDidChange: Event<CollectionChange> = this.changes.event;
  /** Resolves after the first full frame has been applied. */
  private loadedResolve: (() => void) | undefined;
  loaded: Promise<void>;
  /** Frames not applied yet, merged: while one apply waits for the host, later frames queue here. */
  private readonly frames = new FrameQueue((present, deleted, full) => this.apply(present, deleted, full), () => this.stream !== undefined);

  constructor(source: LiveCollectionSource<T>, logger: Logger) {
    this.source = source;
    this.logger = logger;
    this.loaded = new Promise((resolve) => (this.loadedResolve = resolve));
    this.open();
  }

  get values(): T[] {
    return [...this.items.values()];
  }

  get(id: string): T | undefined {
    return this.items.get(id);
  }

  get size(): number {
    return this.items.size;
  }

  /** Reconnects, which brings a full frame and refetches every record. */
  refresh(): void {
    this.stream?.dispose();
    this.open();
  }

  /** Fetches one record now (after a local action), without waiting for the stream. */
  async reload(id: string): Promise<void> {
    await this.apply([id], [], false);
  }

  private open(): void {
    const stream = this.source.open();
    this.stream = stream;
    this.frames.follow(stream, (entry) => this.source.key(entry));
  }

  private async apply(present: readonly string[], deleted: readonly string[], full: boolean): Promise<void> {
    const bulk = present.length > BULK_FETCH_FROM ? await this.fetchMany(present) : undefined;
    // What the bulk requests answered for; an id they did not answer for (its chunk failed) is asked alone.
    const fromBulk = bulk ? present.flatMap((id) => (bulk.answered.has(id) ? [[id, bulk.found.get(id)] as const] : [])) : [];
    const remaining = bulk ? present.filter((id) => !bulk.answered.has(id)) : present;
    const fetched = await mapLimit(remaining, 8, async (id) => {
      try {
        return [id, await this.source.fetch(id)] as const;
      } catch (error) {
        if (error instanceof ClientError && error.notFound) return [id, undefined] as const;
        this.logger.warn(`Could not fetch ${id}: ${(error as Error).message}`);
        return [id, this.items.get(id)] as const;
      }
    });
    if (full) this.items.clear();
    for (const id of deleted) this.items.delete(id);
    for (const [id, item] of [...fromBulk, ...fetched]) {
      if (item === undefined) this.items.delete(id);
      else this.items.set(id, item);
    }
    this.changes.fire({ ids: [...present, ...deleted], full });
    if (full) this.loadedResolve?.();
  }

  /**
   * The records among `ids`, FETCH_CHUNK at a time, one request after another: never the whole store
   * for a frame that names a few hundred records. `answered` holds the ids of the chunks that came back
   * (an id among them not in `found` no longer exists).
   */
  private async fetchMany(ids: readonly string[]): Promise<{ found: Map<string, T>; answered: Set<string> } | undefined> {
    const fetchMany = this.source.fetchMany?.bind(this.source);
    if (!fetchMany) return undefined;
    const found = new Map<string, T>();
    const answered = new Set<string>();
    for (let at = 0; at < ids.length && this.stream; at += FETCH_CHUNK) {
      const chunk = ids.slice(at, at + FETCH_CHUNK);
      try {
        for (const [id, item] of await fetchMany(chunk)) found.set(id, item);
        for (const id of chunk) answered.add(id);
      } catch (error) {
        this.logger.warn(`Could not fetch ${chunk.length} records at once, fetching them one by one: ${(error as Error).message}`);
      }
    }
    return { found, answered };
  }

  dispose(): void {
    this.stream?.dispose();
    this.stream = undefined;
    this.changes.dispose();
    this.loadedResolve?.();
  }
}

async function mapLimit<I, O>(items: readonly I[], limit: number, fn: (item: I) => Promise<O>): Promise<O[]> {
  const results: O[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!);
    }
  });
  await Promise.all(workers);
  return results;
}
