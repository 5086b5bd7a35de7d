/**
 * Collections too large to hold at once (every message of a 288 MB conversation, every
 * conversation of a store): read a page at a time, when whoever sends them asks for the next page.
 */

/**
 * A wire collection (`{iterable, indices}`) whose items are read a page at a time as the reply is
 * sent (the server's jsonEncode streams it with turns for the event loop between pages). `collect`
 * reads it whole, for callers that know it is small.
 */
export class PagedCollection<T extends { readonly id: string }> {
  private readonly read: () => Iterable<readonly T[]>;
  /** The items, when they were read already (a collection small enough to be read with its page). */
  readonly held: readonly T[] | undefined;

  constructor(read: () => Iterable<readonly T[]>, held?: readonly T[]) {
    this.read = read;
    this.held = held;
  }

  /** A collection already read: it is encoded like any other value. */
  static of<T extends { readonly id: string }>(items: readonly T[]): PagedCollection<T> {
    return new PagedCollection(() => (items.length > 0 ? [items] : []), items);
  }

  /** The pages, read one by one as they are iterated (a new read each call). */
  pages(): Iterable<readonly T[]> {
    return this.read();
  }

  collect(): { iterable: T[]; indices: Record<string, number> } {
    const iterable = this.held ? [...this.held] : [...this.read()].flat();
    return { iterable, indices: Object.fromEntries(iterable.map((item, index) => [item.id, index])) };
  }

  /**
   * A held collection is stringified as what it is; stringifying any other would read the whole
   * collection into one string, the one thing it exists to avoid.
   */
  toJSON(): { iterable: T[]; indices: Record<string, number> } {
    if (this.held) return this.collect();
    throw new Error('A paged collection is sent a page at a time (jsonValueReply), never stringified whole.');
  }
}

/** Stored records as a pager sees them: how many bytes each one takes. */
export interface Sized {
  readonly size: number;
}

/**
 * `items` in pages of at most `maxCount` items and `maxBytes` of stored bytes, or one larger item
 * alone: each page costs a bounded read, whatever the records hold.
 */
export function* boundedPages<T extends Sized>(items: Iterable<T>, maxCount: number, maxBytes: number): Generator<T[]> {
  let page: T[] = [];
  let bytes = 0;
  for (const item of items) {
    if (page.length > 0 && (page.length >= maxCount || bytes + item.size > maxBytes)) {
      yield page;
      page = [];
      bytes = 0;
    }
    page.push(item);
    bytes += item.size;
  }
  if (page.length > 0) yield page;
}

/** At most `max` of `items`, spread evenly over them (the first and the last among them), in their order. */
export function evenly<T>(items: readonly T[], max: number): T[] {
  if (items.length <= max) return [...items];
  if (max <= 1) return items.slice(0, max);
  return Array.from({ length: max }, (_, i) => items[Math.round((i * (items.length - 1)) / (max - 1))]!);
}
