/**
 * Which files an import of a file or folder reads, over any file system: node's for the CLI,
 * VS Code's in the editor (where the folder may be on another machine: an SSH host, a container).
 * A folder gives every snippet-looking file under it (`*.json`, `*.code-snippets`, `*.xml`; hidden folders,
 * node_modules and symbolic links left out) in name order; a file is read whatever its name.
 */
import { InvalidInputError, TooLargeError } from '../errors.ts';
import { parseImportFile } from './detect.ts';
import type { ImportFormat, ParsedFile } from './types.ts';
import { isUtf8 } from 'node:buffer';

const MAX_FILES = 10_000;
const MAX_DEPTH = 16;
// `.xml`: JetBrains live templates (a templates folder holds one file a group).
const IMPORTABLE = /\.(json|code-snippets|xml)$/i;

export type EntryKind = 'file' | 'directory' | 'other';

/** What the walk needs of a file system, for locations of type L (a path, a Uri). */
export interface ImportTree<L> {
  /** Throws when the location cannot be read. */
  kind(location: L): Promise<EntryKind>;
  /** A directory's entries; a symbolic link is 'other' (not followed). */
  entries(directory: L): Promise<ReadonlyArray<{ readonly name: string; readonly kind: EntryKind; readonly location: L }>>;
  /** How a location is named in messages (and in the import's sources). */
  label(location: L): string;
}

export async function findImportFiles<L>(start: L, tree: ImportTree<L>): Promise<L[]> {
  let kind: EntryKind;
  try {
    kind = await tree.kind(start);
  } catch (error) {
    throw new InvalidInputError(`Cannot read ${tree.label(start)}: ${(error as Error).message}`);
  }
  if (kind !== 'directory') return [start];
  const out: L[] = [];
  const walk = async (directory: L, depth: number): Promise<void> => {
    const entries = [...(await tree.entries(directory))].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      if (entry.kind === 'directory') {
        if (depth < MAX_DEPTH) await walk(entry.location, depth + 1);
      } else if (entry.kind === 'file' && IMPORTABLE.test(entry.name)) {
        out.push(entry.location);
        if (out.length > MAX_FILES) throw new TooLargeError(`${tree.label(start)} holds more than ${MAX_FILES} snippet files; import its folders one at a time`);
      }
    }
  };
  await walk(start, 0);
  return out;
}

/**
 * Files up to this size go to the host as text; a larger one is read by the caller and sent as
 * parsed snippets in parts, each well under the host's request body limit (64 MB).
 */
export const INLINE_FILE_CHARS = 32 * 1024 * 1024;

/**
 * One file as a caller sends it: its text, its text as UTF-8 bytes (sent as its text without being
 * decoded: a caller on the editor's thread keeps a 9 MB file off its heap), what was read of it, or
 * why it could not be read.
 */
export type ReadImportFile =
  | { readonly name: string; readonly content: string }
  | { readonly name: string; readonly utf8: Uint8Array }
  | { readonly name: string; readonly parsed: ParsedFile }
  | { readonly name: string; readonly error: string };

const UTF8_BOM = [0xef, 0xbb, 0xbf];

/**
 * A file's bytes as the caller sends them: as UTF-8 without a byte-order mark (what TextDecoder
 * leaves out too) when they are UTF-8 and small enough for one request; else decoded (bytes that are
 * not UTF-8 read as U+FFFD, as a decoder reads them) and sent as importFileFromText does.
 */
export function importFileFromBytes(name: string, bytes: Uint8Array, format?: ImportFormat): ReadImportFile {
  const text = UTF8_BOM.every((byte, i) => bytes[i] === byte) ? bytes.subarray(UTF8_BOM.length) : bytes;
  if (text.length <= INLINE_FILE_CHARS && isUtf8(text)) return { name, utf8: text };
  return importFileFromText(name, new TextDecoder('utf-8').decode(bytes), format);
}

/** A file's text as the caller sends it: as it is, or read into snippets when too large for one request. */
export function importFileFromText(name: string, content: string, format?: ImportFormat): ReadImportFile {
  if (content.length <= INLINE_FILE_CHARS) return { name, content };
  return { name, parsed: parseImportFile(name, content, format) };
}
