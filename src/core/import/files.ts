/**
 * An import's files on this machine's disk (the CLI, the host): the walk of importTree.ts over
 * node:fs, and each file read before it is sent.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { DomainError } from '../errors.ts';
import { findImportFiles, importFileFromText, type EntryKind, type ImportTree, type ReadImportFile } from './importTree.ts';
import type { ImportFormat } from './types.ts';

export type { ReadImportFile } from './importTree.ts';

const kindOf = (entry: { isDirectory(): boolean; isFile(): boolean }): EntryKind => (entry.isDirectory() ? 'directory' : entry.isFile() ? 'file' : 'other');

const diskTree: ImportTree<string> = {
  // The start may be a link (a path the user typed); links found in a folder are not followed.
  kind: async (path) => kindOf(await stat(path)),
  entries: async (directory) => (await readdir(directory, { withFileTypes: true })).map((entry) => ({ name: entry.name, kind: kindOf(entry), location: join(directory, entry.name) })),
  label: (path) => path,
};

export function listImportFiles(path: string): Promise<string[]> {
  return findImportFiles(path, diskTree);
}

export async function readImportFile(path: string, format?: ImportFormat): Promise<ReadImportFile> {
  try {
    return importFileFromText(path, await readFile(path, 'utf8'), format);
  } catch (error) {
    if (error instanceof DomainError || isFileError(error)) return { name: path, error: (error as Error).message };
    throw error;
  }
}

/** An error of the file system (a missing file, no permission…), as opposed to a bug. */
export function isFileError(error: unknown): boolean {
  return typeof (error as NodeJS.ErrnoException | null)?.code === 'string' && (error as NodeJS.ErrnoException).syscall !== undefined;
}
