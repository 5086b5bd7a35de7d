/**
 * An import request's body read on the event loop without turning its files' text into strings
 * (issue 34). Parsed whole, a request of 9 MB of snippet files cost the host about 45 MB each: the
 * JSON worker's heap (the decoded text and the parsed value, kept until the worker ended), the
 * structured clone back to the event loop, then another copy to the import process. Here the body
 * is checked as JSON in one pass over its bytes (in slices, yielding between them), and what comes
 * out is the request as JSON.parse would read it with every file's `content` left as the bytes of
 * its JSON string: the route checks the rest with the operation's schema as usual, and the import
 * process decodes each file's text itself (core/import/importer.ts, `jsonText`).
 *
 * Only the shape the client sends is read this way: `{ "files": [{ "name", "content" }], "format",
 * "batchSize" }`. Anything else (parts, other keys, a key twice, a value of another type, a
 * malformed or non-UTF-8 body) is left to the usual parser (undefined here), so every refusal is
 * the one that parser and the schema give, in the same words.
 */
import { isUtf8 } from 'node:buffer';
import { freeNow, ownBuffer } from './freeBuffer.ts';

/** Bytes checked between two turns of the event loop (about a millisecond of work; a MiB held it 4–7 ms). */
const SLICE_BYTES = 256 * 1024;
/** A name, a format, a key or a number longer than this is left to the usual parser (the schema bounds them far below). */
const SMALL_BYTES = 64 * 1024;
/**
 * Files past this are left to the usual parser, which refuses them with the schema's own limit:
 * this only keeps the skeleton small, it is not a rule of its own.
 */
const MAX_FILES = 20_000;

/** A file's text as its JSON string's bytes, quotes included: `raw.subarray(start, end)`. */
export interface JsonStringBytes {
  readonly start: number;
  readonly end: number;
}

export interface ImportBodySkeleton {
  /** The body as JSON.parse reads it, except that each file's `content` is ''. */
  readonly value: unknown;
  /** Each file's content, by the file's index (undefined where the file has none). */
  readonly contents: ReadonlyArray<JsonStringBytes | undefined>;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const decoder = new TextDecoder('utf-8', { fatal: true });

/** Not the shape read here, or not valid JSON: the usual parser answers for it. */
class Elsewhere extends Error {}

/** The body's skeleton, or undefined when the usual parser must read it. */
export async function importBodySkeleton(raw: Uint8Array): Promise<ImportBodySkeleton | undefined> {
  if (!(await utf8InSlices(raw))) return undefined;
  try {
    return await new Reader(raw).body();
  } catch (error) {
    if (error instanceof Elsewhere) return undefined;
    throw error;
  }
}

/** Whether the bytes are UTF-8, checked a slice at a time (a slice never ends inside a character). */
async function utf8InSlices(raw: Uint8Array): Promise<boolean> {
  for (let start = 0; start < raw.length; ) {
    let end = Math.min(start + SLICE_BYTES, raw.length);
    // Back to the first byte of a character (continuation bytes are 10xxxxxx); at most three steps.
    for (let back = 0; end < raw.length && back < 3 && (raw[end]! & 0xc0) === 0x80; back++) end--;
    if (!isUtf8(raw.subarray(start, end))) return false;
    start = end;
    if (start < raw.length) await turn();
  }
  return true;
}

function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

class Reader {
  private readonly bytes: Uint8Array;
  private at = 0;
  private nextTurn = SLICE_BYTES;

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
  }

  async body(): Promise<ImportBodySkeleton> {
    const value: Record<string, unknown> = {};
    let contents: Array<JsonStringBytes | undefined> = [];
    await this.object(async (key) => {
      if (key === 'files') {
        const files = await this.files();
        value.files = files.map((file) => file.value);
        contents = files.map((file) => file.content);
      } else if (key === 'format') value.format = await this.smallString();
      else if (key === 'batchSize') value.batchSize = this.number();
      else throw new Elsewhere();
    });
    await this.space();
    if (this.at !== this.bytes.length) throw new Elsewhere();
    return { value, contents };
  }

  private async files(): Promise<Array<{ value: Record<string, string>; content: JsonStringBytes | undefined }>> {
    const files: Array<{ value: Record<string, string>; content: JsonStringBytes | undefined }> = [];
    await this.expect(0x5b);
    await this.space();
    if (this.bytes[this.at] === 0x5d) {
      this.at++;
      return files;
    }
    for (;;) {
      if (files.length >= MAX_FILES) throw new Elsewhere();
      const value: Record<string, string> = {};
      let content: JsonStringBytes | undefined;
      await this.object(async (key) => {
        if (key === 'name') value.name = await this.smallString();
        else if (key === 'content') {
          const start = this.at;
          await this.string();
          content = { start, end: this.at };
          value.content = '';
        } else throw new Elsewhere();
      });
      files.push({ value, content });
      await this.space();
      const next = this.bytes[this.at++];
      if (next === 0x5d) return files;
      if (next !== 0x2c) throw new Elsewhere();
    }
  }

  /** An object whose members `member` reads (each key at most once), from `{` to `}`. */
  private async object(member: (key: string) => Promise<void>): Promise<void> {
    await this.expect(0x7b);
    await this.space();
    if (this.bytes[this.at] === 0x7d) {
      this.at++;
      return;
    }
    const seen = new Set<string>();
    for (;;) {
      await this.space();
      const key = await this.smallString();
      // JSON.parse keeps the last of a key given twice; that case is the usual parser's.
      if (seen.has(key)) throw new Elsewhere();
      seen.add(key);
      await this.expect(0x3a);
      await this.space();
      await member(key);
      await this.space();
      const next = this.bytes[this.at++];
      if (next === 0x7d) return;
      if (next !== 0x2c) throw new Elsewhere();
    }
  }

  private async expect(byte: number): Promise<void> {
    await this.space();
    if (this.bytes[this.at] !== byte) throw new Elsewhere();
    this.at++;
  }

  /** JSON's whitespace: space, tab, line feed, carriage return. */
  private async space(): Promise<void> {
    const { bytes } = this;
    for (;;) {
      const byte = bytes[this.at];
      if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) return;
      this.at++;
      if (this.at >= this.nextTurn) await this.pause();
    }
  }

  private async pause(): Promise<void> {
    await turn();
    this.nextTurn = this.at + SLICE_BYTES;
  }

  /** A short string, decoded as JSON.parse decodes it. */
  private async smallString(): Promise<string> {
    const start = this.at;
    await this.string();
    if (this.at - start > SMALL_BYTES) throw new Elsewhere();
    return JSON.parse(decoder.decode(this.bytes.subarray(start, this.at))) as string;
  }

  /**
   * Steps over one JSON string, checking it as JSON.parse would: no raw control character, and
   * only the escapes JSON has (the bytes are UTF-8 already, so any other byte is a character).
   */
  private async string(): Promise<void> {
    const { bytes } = this;
    if (bytes[this.at] !== QUOTE) throw new Elsewhere();
    let at = this.at + 1;
    for (;;) {
      if (at >= this.nextTurn) {
        this.at = at;
        await this.pause();
      }
      const byte = bytes[at++];
      if (byte === undefined || byte < 0x20) throw new Elsewhere();
      if (byte === QUOTE) break;
      if (byte !== BACKSLASH) continue;
      const escaped = bytes[at++];
      if (escaped === 0x75) {
        for (let digit = 0; digit < 4; digit++) if (!isHex(bytes[at++])) throw new Elsewhere();
      } else if (escaped === undefined || !SIMPLE_ESCAPES.has(escaped)) throw new Elsewhere();
    }
    this.at = at;
  }

  /** A JSON number, read as JSON.parse reads it. */
  private number(): number {
    const { bytes } = this;
    const start = this.at;
    let at = start;
    if (bytes[at] === 0x2d) at++;
    if (bytes[at] === 0x30) at++;
    else if (isDigit(bytes[at]) && bytes[at] !== 0x30) while (isDigit(bytes[at])) at++;
    else throw new Elsewhere();
    if (bytes[at] === 0x2e) {
      at++;
      if (!isDigit(bytes[at])) throw new Elsewhere();
      while (isDigit(bytes[at])) at++;
    }
    if (bytes[at] === 0x65 || bytes[at] === 0x45) {
      at++;
      if (bytes[at] === 0x2b || bytes[at] === 0x2d) at++;
      if (!isDigit(bytes[at])) throw new Elsewhere();
      while (isDigit(bytes[at])) at++;
    }
    if (at - start > SMALL_BYTES) throw new Elsewhere();
    this.at = at;
    return JSON.parse(decoder.decode(bytes.subarray(start, at))) as number;
  }
}

/** `"`, `\`, `/`, b, f, n, r, t. */
const SIMPLE_ESCAPES = new Set([0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]);

function isDigit(byte: number | undefined): boolean {
  return byte !== undefined && byte >= 0x30 && byte <= 0x39;
}

function isHex(byte: number | undefined): boolean {
  return byte !== undefined && ((byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66));
}

/** An import body's files as readImportBody left them, until the route takes them. */
export interface FileTexts {
  /** Each file's text as the bytes of its JSON string, by the file's index (undefined where it has none). */
  readonly texts: ReadonlyArray<Uint8Array | undefined>;
  /**
   * Frees the body's bytes at once (freeBuffer.ts), once every file has been handed on: the import
   * process copies each as it takes it.
   */
  release(): void;
}

/** The files' text of import bodies read here, by request, until the route takes them. */
const fileTexts = new WeakMap<object, FileTexts>();

/**
 * Reads an import request's body (a BodyReader for POST /satchel/import): true when the body is the
 * shape read here, its skeleton then being the request's body; false leaves it to the JSON parser.
 */
export async function readImportBody(raw: Buffer, ctx: { readonly request: { body?: unknown } }): Promise<boolean> {
  const skeleton = await importBodySkeleton(raw);
  if (skeleton === undefined) return false;
  ctx.request.body = skeleton.value;
  // Only a buffer that is the body's alone is freed (a small body may share one of Node's pools).
  let owned = ownBuffer(raw);
  fileTexts.set(ctx, {
    texts: skeleton.contents.map((bytes) => (bytes === undefined ? undefined : raw.subarray(bytes.start, bytes.end))),
    release: () => {
      if (owned !== undefined) freeNow(owned);
      owned = undefined;
    },
  });
  return true;
}

/** The files of a body readImportBody read, once (undefined when the JSON parser read it). */
export function takeFileTexts(ctx: object): FileTexts | undefined {
  const texts = fileTexts.get(ctx);
  fileTexts.delete(ctx);
  return texts;
}

