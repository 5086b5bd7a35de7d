/** A Pieces export-tool archive on this machine's disk (the CLI, `satchel import <folder>`): piecesArchive.ts over node:fs. */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ArchiveFiles } from './piecesArchive.ts';

export function diskArchive(dir: string): ArchiveFiles {
  const at = (path: string): string => join(dir, ...path.split('/'));
  return {
    label: dir,
    read: async (path) => {
      try {
        return await readFile(at(path), 'utf8');
      } catch {
        return undefined;
      }
    },
    jsonFiles: async (path) => {
      try {
        return (await readdir(at(path), { withFileTypes: true }))
          .filter((entry) => entry.isFile() && entry.name.endsWith('.json'))
          .map((entry) => entry.name)
          .sort();
      } catch {
        return [];
      }
    },
    isFolder: async (path) => {
      try {
        return (await stat(at(path))).isDirectory();
      } catch {
        return false;
      }
    },
  };
}
