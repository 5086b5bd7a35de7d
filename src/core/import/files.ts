/**
 * The files an import of a path reads: the file itself, or every snippet-looking file under a
 * folder (`*.json`, `*.code-snippets`), hidden folders and node_modules left out, in name order.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidInputError, TooLargeError } from '../errors.ts';

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
