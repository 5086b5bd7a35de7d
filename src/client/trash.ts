/**
 * The trash from the client side (Satchel's own operations, src/wire/trash.ts): deleted assets and
 * conversations listed a page at a time, one restored whole, one deleted for good, or all of them
 * (with progress; aborting the signal closes the request, which the host takes as stopping).
 */
import { resultOf } from './longOperation.ts';
import type { HttpTransport } from './http.ts';
import { writeHeaders, type WriteCondition } from './history.ts';
import { trashOperations as op, type Emptied, type EmptyProgress, type TrashDeleted, type TrashItem, type TrashPage, type TrashRestored } from '../wire/trash.ts';
import type { TrashKind } from '../core/trash/trashService.ts';

export type { Emptied, EmptyProgress, TrashDeleted, TrashItem, TrashPage, TrashRestored } from '../wire/trash.ts';
export type { TrashKind } from '../core/trash/trashService.ts';

export interface TrashListOptions {
  /** Entries per page (1–500, default 100). */
  readonly limit?: number | undefined;
  /** The previous page's `next`. */
  readonly after?: string | undefined;
  readonly kind?: TrashKind | undefined;
  readonly signal?: AbortSignal | undefined;
}

export interface EmptyOptions {
  readonly signal?: AbortSignal | undefined;
  readonly onProgress?: ((progress: EmptyProgress) => void) | undefined;
}

export class TrashClient {
  private readonly http: HttpTransport;

  constructor(http: HttpTransport) {
    this.http = http;
  }

  /** A page of entries, newest deleted first; pass its `next` as `after` for the next one. */
  list(options: TrashListOptions = {}): Promise<TrashPage> {
    return this.http.call(op.list, {
      query: { limit: options.limit, after: options.after, kind: options.kind },
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }

  /** Every entry (of a kind, when given), page after page. */
  async *all(options: Omit<TrashListOptions, 'after'> = {}): AsyncGenerator<TrashItem> {
    let after: string | undefined;
    do {
      const page = await this.list({ ...options, after });
      yield* page.items;
      after = page.next;
    } while (after !== undefined);
  }

  get(id: string): Promise<TrashItem> {
    return this.http.call(op.get, { params: { id } });
  }

  /**
   * Brings an entry back whole under its id (an asset's restore is a revision by this client's
   * author, or `condition.author`). A 409 ClientError when the id is live again.
   */
  restore(id: string, condition?: Pick<WriteCondition, 'author'>): Promise<TrashRestored> {
    return this.http.call(op.restore, { params: { id }, headers: writeHeaders(condition) });
  }

  /** Deletes an entry for good, with an asset's revisions. */
  deleteForever(id: string): Promise<TrashDeleted> {
    return this.http.call(op.deleteForever, { params: { id } });
  }

  /** Deletes every entry for good (a backup is taken first when that is a large share of the library). */
  async empty(options: EmptyOptions = {}): Promise<Emptied> {
    const lines = await this.http.call(op.empty, options.signal ? { signal: options.signal } : {});
    return resultOf(lines, 'emptied', options.onProgress, op.empty.path);
  }
}
