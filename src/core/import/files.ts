/**
 * The files an import of a path reads (the file itself, or every snippet-looking file under a
 * folder: `*.json`, `*.code-snippets`, hidden folders and node_modules left out, in name order),
 * and how a caller of the host reads each one before sending it.
 */
import { readdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DomainError, InvalidInputError, TooLargeError } from '../errors.ts';
import { parseImportFile } from './detect.ts';
import type { ImportFormat, ParsedFile } from './types.ts';

const MAX_FILES = 10_000;
const MAX_DEPTH = 16;
const IMPORTABLE = /\.(json|code-snippets)$/i;

export function listImportFiles(path: string): string[] {
  let stats;
  try {
    stats = statSync(path);
  } catch (error) {
    throw new InvalidInputError(`Cannot read ${path}: ${(error as Error).message}`);
  }
  if (!stats.isDirectory()) return [path];
  const out: string[] = [];
  const walk = (dir: string, depth: number): void => {
    const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (depth < MAX_DEPTH) walk(full, depth + 1);
      } else if (entry.isFile() && IMPORTABLE.test(entry.name)) {
        out.push(full);
        if (out.length > MAX_FILES) throw new TooLargeError(`${path} holds more than ${MAX_FILES} snippet files; import its folders one at a time`);
      }
    }
  };
  walk(path, 0);
  return out;
}

/**
 * Files up to this size go to the host as text; a larger one is read by the caller and sent as
 * parsed snippets in parts, each well under the host's request body limit (64 MB).
 */
export const INLINE_FILE_CHARS = 32 * 1024 * 1024;

/** One file as a caller sends it: its text, what was read of it, or why it could not be read. */
export type ReadImportFile =
  | { readonly name: string; readonly content: string }
  | { readonly name: string; readonly parsed: ParsedFile }
  | { readonly name: string; readonly error: string };

export async function readImportFile(path: string, format?: ImportFormat): Promise<ReadImportFile> {
  try {
    const content = await readFile(path, 'utf8');
    if (content.length <= INLINE_FILE_CHARS) return { name: path, content };
    return { name: path, parsed: parseImportFile(path, content, format) };
  } catch (error) {
    if (error instanceof DomainError || isFileError(error)) return { name: path, error: (error as Error).message };
    throw error;
  }
}

/** An error of the file system (a missing file, no permission…), as opposed to a bug. */
export function isFileError(error: unknown): boolean {
  return typeof (error as NodeJS.ErrnoException | null)?.code === 'string' && (error as NodeJS.ErrnoException).syscall !== undefined;
}
