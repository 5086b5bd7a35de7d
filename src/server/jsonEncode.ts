import { PagedCollection } from '../core/paged.ts';
import { jsonStringPieces } from '../wire/jsonStringPieces.ts';

/**
 * JSON encoding of replies that never needs one string holding the whole reply. V8 strings stop
 * at about 512 MB, so JSON.stringify of a store with more content than that throws "Invalid string
 * length" and the reply was a 500. Replies under that size are one JSON.stringify, as before;
 * larger ones are encoded member by member into buffers (which have no such limit).
 */

/**
 * A string from this length on is encoded on its own: an asset's content appears in its formats
 * and again in the hydrated `original.reference` and `preview.base.reference` (real clients read
 * it there), so one 60 MB asset is 180 MB of JSON, too much for one turn of the event loop.
 */
const LARGE_STRING = 1024 * 1024;

/** Where the sender of the parts gives the event loop a turn: between two pages of a paged collection. */
const TURN = Symbol('turn');
type Part = Buffer | typeof TURN;

/**
 * Whether `value` must be encoded member by member: it holds a string of LARGE_STRING characters
 * or more, or a paged collection not yet read (a walk, no encoding).
 */
export function needsWalk(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.length >= LARGE_STRING;
  if (value === null || typeof value !== 'object' || depth > 64) return false;
  if (value instanceof PagedCollection) return value.held === undefined;
  if (Array.isArray(value)) return value.some((item) => needsWalk(item, depth + 1));
  for (const member of Object.values(value)) if (needsWalk(member, depth + 1)) return true;
  return false;
}

/**
 * The JSON text of one reply item in parts: one part for an ordinary item; an item holding large
 * strings or paged collections is walked, so that a large string comes in parts of its own and a
 * collection's pages are read only when the parts before them were sent, with turns between.
 */
function* encodeItem(value: unknown): Generator<Part> {
  if (!needsWalk(value)) {
    yield* encodeJson(value);
    return;
  }
  if (value instanceof PagedCollection) {
    yield* collectionParts(value);
    return;
  }
  if (typeof value === 'string') {
    yield* encodeLargeString(value);
    return;
  }
  if (Array.isArray(value)) {
    yield Buffer.from('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) yield Buffer.from(',');
      const item: unknown = value[i];
      if (item === undefined || typeof item === 'function' || typeof item === 'symbol') yield Buffer.from('null');
      else yield* encodeItem(item);
    }
    yield Buffer.from(']');
    return;
  }
  yield Buffer.from('{');
  let first = true;
  for (const [key, member] of Object.entries(value as object)) {
    if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
    yield Buffer.from(`${first ? '' : ','}${JSON.stringify(key)}:`);
    yield* encodeItem(member);
    first = false;
  }
  yield Buffer.from('}');
}

/** A large string's JSON text in parts of LARGE_STRING characters or so (jsonStringPieces.ts). */
function* encodeLargeString(value: string): Generator<Buffer> {
  yield Buffer.from('"');
  for (const piece of jsonStringPieces(value, LARGE_STRING)) yield Buffer.from(piece);
  yield Buffer.from('"');
}

/** The JSON text of `value` as buffers (one for ordinary replies). */
export function encodeJson(value: unknown): Buffer[] {
  try {
    return [Buffer.from(JSON.stringify(value) ?? 'null')];
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
  }
  const parts: Buffer[] = [];
  encodeInto(value, parts);
  return parts;
}

/** One buffer (for a WebSocket frame). */
export function encodeJsonBuffer(value: unknown): Buffer {
  const parts = encodeJson(value);
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
}

function encodeInto(value: unknown, parts: Buffer[]): void {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON !== 'function') {
    if (Array.isArray(value)) {
      parts.push(Buffer.from('['));
      value.forEach((item, i) => {
        if (i > 0) parts.push(Buffer.from(','));
        // JSON.stringify writes null for members it cannot represent (undefined, functions).
        if (item === undefined || typeof item === 'function' || typeof item === 'symbol') parts.push(Buffer.from('null'));
        else parts.push(...encodeJson(item));
      });
      parts.push(Buffer.from(']'));
      return;
    }
    parts.push(Buffer.from('{'));
    let first = true;
    for (const [key, member] of Object.entries(value)) {
      if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
      parts.push(Buffer.from(`${first ? '' : ','}${JSON.stringify(key)}:`));
      // The member holding the bulk (an `iterable`) is split at once: stringifying it whole would
      // fail again after doing the same work.
      if (member !== null && typeof member === 'object') encodeInto(member, parts);
      else parts.push(Buffer.from(JSON.stringify(member)));
      first = false;
    }
    parts.push(Buffer.from('}'));
    return;
  }
  // A single string over the limit cannot come from a store whose bodies are capped at 64 MiB.
  parts.push(Buffer.from(JSON.stringify(value) ?? 'null'));
}

/** Bytes encoded between two yields to the event loop while a streamed reply is produced. */
const SLICE_BYTES = 4 * 1024 * 1024;

/**
 * `{"<key>":[…]}` produced page by page: each page is read and encoded only when the response has
 * room for it, and the event loop gets a turn every few MB, so health keeps answering while a
 * store of any size is listed and only a page of it is in memory at a time.
 */
export function jsonArrayReply(key: string, pages: Iterable<readonly unknown[]>): AsyncGenerator<Buffer> {
  return jsonPagedReply(`{${JSON.stringify(key)}:[`, pages, () => ']}');
}

/**
 * A document whose one large array is produced page by page (see jsonArrayReply): `open` is its
 * text up to the array's `[`, `close()` its text from the `]` on, asked for once every page was
 * encoded (so it can hold counts of what the pages held).
 */
export function jsonPagedReply(open: string, pages: Iterable<readonly unknown[]>, close: () => string): AsyncGenerator<Buffer> {
  return sent(pagedParts(open, pages, close));
}

function* pagedParts(open: string, pages: Iterable<readonly unknown[]>, close: () => string): Generator<Part> {
  yield Buffer.from(open);
  yield* pageParts(pages);
  yield Buffer.from(close());
}

/**
 * The items of `pages`, comma-separated, each page read when the one before it was sent. Reading
 * a page and encoding it are two steps with a turn between: with a 60 MB asset each takes 0.2 s or
 * more. Small items are joined into one part: a part per item made a million ids take 30 s to send.
 * `each` sees every item as it is encoded.
 */
function* pageParts(pages: Iterable<readonly unknown[]>, each?: (item: unknown) => void): Generator<Part> {
  let first = true;
  let batch: string[] = [];
  let batchChars = 0;
  const flush = (): Buffer => {
    const part = Buffer.from(batch.join(''));
    batch = [];
    batchChars = 0;
    return part;
  };
  for (const page of pages) {
    yield TURN;
    for (const item of page) {
      each?.(item);
      const separator = first ? '' : ',';
      first = false;
      const text = needsWalk(item) ? undefined : stringified(item);
      if (text !== undefined) {
        batch.push(separator, text);
        batchChars += text.length;
        if (batchChars >= BATCH_CHARS) yield flush();
      } else {
        if (batch.length > 0) yield flush();
        if (separator) yield Buffer.from(separator);
        yield* encodeItem(item);
      }
    }
    if (batch.length > 0) yield flush();
    yield TURN;
  }
}

/** Ids a part of a streamed collection's `indices` holds. */
const INDICES_PER_PART = 8192;

/** `{"iterable":[…],"indices":{…}}`, each page of the collection read when the one before it was sent. */
function* collectionParts(collection: PagedCollection<{ readonly id: string }>): Generator<Part> {
  yield Buffer.from('{"iterable":[');
  const ids: string[] = [];
  yield* pageParts(collection.pages(), (item) => ids.push((item as { readonly id: string }).id));
  yield Buffer.from('],"indices":{');
  for (let at = 0; at < ids.length; at += INDICES_PER_PART) {
    const entries = ids.slice(at, at + INDICES_PER_PART).map((id, i) => `${JSON.stringify(id)}:${at + i}`);
    yield Buffer.from(`${at > 0 ? ',' : ''}${entries.join(',')}`);
  }
  yield Buffer.from('}}');
}

/** Characters of small items joined into one part of a paged reply. */
const BATCH_CHARS = 64 * 1024;

/** JSON.stringify of `value`, or undefined when its text is too long for one string. */
function stringified(value: unknown): string | undefined {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch (error) {
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}

/**
 * One document's JSON produced while it is sent, with turns for the event loop between the parts
 * of its large strings (a reply that echoes a 60 MB copy) and between the pages of its paged
 * collections (a conversation's messages, every conversation of a store).
 */
export function jsonValueReply(value: unknown): AsyncGenerator<Buffer> {
  return sent(encodeItem(value));
}

/** The parts as buffers, with a turn for the event loop at each TURN and every SLICE_BYTES. */
async function* sent(parts: Iterable<Part>): AsyncGenerator<Buffer> {
  let sinceTurn = 0;
  for (const part of parts) {
    if (part === TURN) {
      sinceTurn = 0;
      await turn();
      continue;
    }
    sinceTurn += part.length;
    yield part;
    if (sinceTurn >= SLICE_BYTES) {
      sinceTurn = 0;
      await turn();
    }
  }
}

/**
 * Replies waiting for a turn, first come first served. One of them goes on per turn of the event
 * loop, so health and other requests are served after a page of any reply, not after a page of
 * every reply under way: with twenty replies each taking its own turns, health waited behind
 * twenty pages (3 s while twenty searches by tag each sent 10k snippets).
 */
const waiting: Array<() => void> = [];
let releasing = false;

/** Lets the event loop run (health, other requests, other replies) before going on. */
function turn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!releasing) {
      releasing = true;
      setImmediate(releaseOne);
    }
  });
}

/** Lets the first waiting reply go on; the next one waits for the next turn (an immediate set now runs after the loop's I/O). */
function releaseOne(): void {
  const next = waiting.shift();
  if (waiting.length > 0) setImmediate(releaseOne);
  else releasing = false;
  next?.();
}
