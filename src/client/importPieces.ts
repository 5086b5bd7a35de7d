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

/** What JSON.stringify writes for the control characters it does not write as \u00XX, and for `"` and `\`. */
const SHORT_ESCAPES: Readonly<Record<number, string>> = { 0x08: '\\b', 0x09: '\\t', 0x0a: '\\n', 0x0c: '\\f', 0x0d: '\\r', 0x22: '\\"', 0x5c: '\\\\' };
const HEX = '0123456789abcdef';

/**
 * UTF-8 text escaped as the inside of a JSON string, as bytes: the bytes JSON.stringify's text would
 * be, without quotes (control characters, `"` and `\` escaped; every other byte as it is, which
 * JSON allows for any character).
 */
export function jsonStringBytes(text: Uint8Array): Uint8Array {
  let escaped = 0;
  for (const byte of text) if (byte < 0x20 || byte === 0x22 || byte === 0x5c) escaped++;
  if (escaped === 0) return text;
  const out = new Uint8Array(text.length + 5 * escaped);
  let at = 0;
  for (const byte of text) {
    if (byte >= 0x20 && byte !== 0x22 && byte !== 0x5c) {
      out[at++] = byte;
      continue;
    }
    const escape = SHORT_ESCAPES[byte] ?? `\\u00${HEX[byte >> 4]}${HEX[byte & 15]}`;
    for (let i = 0; i < escape.length; i++) out[at++] = escape.charCodeAt(i);
  }
  return out.subarray(0, at);
}
