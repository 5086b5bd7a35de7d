/**
 * A view's data: the records named by one identifiers stream, each fetched by id. The first frame
 * after every (re)connect lists everything, so it replaces the collection; later frames only name
 * changed or deleted ids. Knows nothing of VS Code.
 */
import { Emitter, type Disposable, type Event } from '../core/events.ts';
import type { StreamedIdentifier, StreamedIdentifiers } from '../core/wire.ts';
import type { StreamConnection } from '../client/streams.ts';
import { ClientError } from '../client/errors.ts';
import type { Logger } from '../core/context.ts';

export interface LiveCollectionSource<T> {
  open(): StreamConnection<StreamedIdentifiers>;
  /** The id this collection cares about in one stream entry (e.g. `entry.asset?.id`). */
  key(entry: StreamedIdentifier): string | undefined;
  fetch(id: string): Promise<T>;
}

export class LiveCollection<T> implements Disposable {
  private readonly source: LiveCollectionSource<T>;
  private readonly logger: Logger;
  private stream: StreamConnection<StreamedIdentifiers> | undefined;
  private expectFull = true;
  private readonly items = new Map<string, T>();
  private readonly changes = new Emitter<void>();
  readonly onDidChange: Event<void> = this.changes.event;
  /** Resolves after the first full frame has been applied. */
  private loadedResolve: (() => void) | undefined;
  loaded: Promise<void>;
  private chain: Promise<void> = Promise.resolve();

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
    this.expectFull = true;
    stream.onDidChangeConnected((connected) => {
      if (connected) this.expectFull = true;
    });
    stream.onFrame((frame) => {
      const full = this.expectFull;
      this.expectFull = false;
      const present: string[] = [];
      const deleted: string[] = [];
      for (const entry of frame?.iterable ?? []) {
        const id = this.source.key(entry);
        if (!id) continue;
        (entry.deleted ? deleted : present).push(id);
      }
      // Frames are applied in order, so a delete never races an older fetch of the same id.
      this.chain = this.chain.then(() => this.apply(present, deleted, full));
    });
  }

  private async apply(present: readonly string[], deleted: readonly string[], full: boolean): Promise<void> {
    const fetched = await mapLimit(present, 8, async (id) => {
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
    for (const [id, item] of fetched) {
      if (item === undefined) this.items.delete(id);
      else this.items.set(id, item);
    }
    this.changes.fire();
    if (full) this.loadedResolve?.();
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
