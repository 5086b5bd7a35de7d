/**
 * The JSON text of an import request of files, written in pieces (ImportsClient sends it with
 * callWithJsonPieces) so the extension host never builds or escapes a large file's text at once.
 */
import { jsonStringPieces } from '../wire/jsonStringPieces.ts';

/** A file of a request: its text, or its text as UTF-8 bytes (written as they are, escaped, never decoded here). */
export type OutgoingFile = { readonly name: string; readonly content: string } | { readonly name: string; readonly utf8: Uint8Array };

/** Characters (or bytes) of a file's text escaped and written at once: a millisecond or so of work. */
const PIECE_CHARS = 128 * 1024;

const turn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The JSON text of a request of files, in pieces of at most about PIECE_CHARS characters, yielding to
 * the event loop between pieces so a large file's escaping never holds the thread.
 */
export async function* importJsonPieces(body: { readonly files: readonly OutgoingFile[]; readonly format?: string; readonly batchSize?: number }): AsyncGenerator<string | Uint8Array> {
  const { files, ...rest } = body;
  const tail = JSON.stringify(rest).slice(1);
  yield '{"files":[';
  for (const [index, file] of files.entries()) {
    yield `${index > 0 ? ',' : ''}{"name":${JSON.stringify(file.name)},"content":"`;
    for (const piece of 'utf8' in file ? bytePieces(file.utf8) : jsonStringPieces(file.content, PIECE_CHARS)) {
      yield piece;
      await turn();
    }
    yield '"}';
  }
  yield tail === '}' ? ']}' : `],${tail}`;
}

/** UTF-8 bytes escaped in pieces; a sequence split between pieces is whole again on the wire, where bytes are joined as they are. */
function* bytePieces(utf8: Uint8Array): Generator<Uint8Array> {
  for (let start = 0; start < utf8.length; start += PIECE_CHARS) yield jsonStringBytes(utf8.subarray(start, start + PIECE_CHARS));
}

/** What JSON.stringify writes for each byte it escapes (the control characters, `"` and `\`), by byte; made on first use, not at activation. */
let escapes: ReadonlyArray<string | undefined> | undefined;

function escapeTable(): ReadonlyArray<string | undefined> {
  if (escapes) return escapes;
  const short: Readonly<Record<number, string>> = { 0x08: '\\b', 0x09: '\\t', 0x0a: '\\n', 0x0c: '\\f', 0x0d: '\\r' };
  const hex = '0123456789abcdef';
  const table: Array<string | undefined> = new Array<string | undefined>(256).fill(undefined);
  for (let byte = 0; byte < 0x20; byte++) table[byte] = short[byte] ?? `\\u00${hex[byte >> 4]}${hex[byte & 15]}`;
  table[0x22] = '\\"';
  table[0x5c] = '\\\\';
  escapes = table;
  return table;
}

/**
 * UTF-8 text escaped as the inside of a JSON string, as bytes: the bytes JSON.stringify's text would
 * be, without quotes (control characters, `"` and `\` escaped; every other byte as it is, which
 * JSON allows for any character). Indexed loops and a table: the extension host runs this once an
 * import, cold, and `for…of` over a typed array before V8 optimizes it took 2.5 times as long
 * (a first 128 KiB piece ~30 ms against ~3).
 */
export function jsonStringBytes(text: Uint8Array): Uint8Array {
  const length = text.length;
  let escaped = 0;
  for (let index = 0; index < length; index++) {
    const byte = text[index]!;
    if (byte < 0x20 || byte === 0x22 || byte === 0x5c) escaped++;
  }
  if (escaped === 0) return text;
  const table = escapeTable();
  const out = new Uint8Array(length + 5 * escaped);
  let at = 0;
  for (let index = 0; index < length; index++) {
    const byte = text[index]!;
    const escape = table[byte];
    if (escape === undefined) {
      out[at++] = byte;
      continue;
    }
    for (let i = 0; i < escape.length; i++) out[at++] = escape.charCodeAt(i);
  }
  return out.subarray(0, at);
}
