/**
 * A request's files, written to a folder of the data directory before an import's session begins
 * (issue 34). An HTTP import's files are its request's body, held in the store's process until the
 * import had taken the last of them: through the copy of the store taken before the import (seconds
 * at 100k snippets, its finishing worker 13–19 MB) and the whole first file's import. Spooled, the
 * body is let go before the copy, and the import reads each file where it runs, by its path, instead
 * of receiving its bytes. A file that cannot be written stays in memory, as before; the folder holds
 * nothing a restart needs, and is emptied when the store opens.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ImportSource } from './importSource.ts';
import { removeSpoolFile } from './spoolFile.ts';

/** The folder, in the data directory. */
export const SPOOL_FOLDER = 'import-spool';

export class ImportSpool {
  private readonly folder: string;

  constructor(dataDir: string) {
    this.folder = join(dataDir, SPOOL_FOLDER);
  }

  /** Removes what a process that stopped during an import left. */
  clear(): void {
    rmSync(this.folder, { recursive: true, force: true });
  }

  /**
   * `sources` in order, each file given as its bytes (`jsonText`) written to a file of its own and
   * then let go (`taken`), the others as they are; `files` are the files written. Reads the sources
   * ahead of the import: for files already in memory only, never a source that reads as it goes.
   * Where a file cannot be written, or after `signal`, spooling stops and the rest are read as the
   * import gets to them, as without a spool (their bytes are let go only once the import took them).
   */
  async spool(given: Iterable<ImportSource> | AsyncIterable<ImportSource>, signal?: AbortSignal): Promise<Spooled> {
    const iterator = Symbol.asyncIterator in given ? given[Symbol.asyncIterator]() : given[Symbol.iterator]();
    const ahead: ImportSource[] = [];
    const files: string[] = [];
    let folderMade = false;
    while (!signal?.aborted) {
      const next = await iterator.next();
      if (next.done === true) return { sources: ahead, files };
      const source = next.value;
      if (!('jsonText' in source)) {
        ahead.push(source);
        continue;
      }
      const path = join(this.folder, `${randomUUID()}.json`);
      try {
        if (!folderMade) mkdirSync(this.folder, { recursive: true, mode: 0o700 });
        folderMade = true;
        await writeFile(path, source.jsonText, { mode: 0o600 });
      } catch {
        // A full or read-only disk: this file and the rest go as without a spool.
        await removeSpoolFile(path);
        ahead.push(source);
        break;
      }
      source.taken?.();
      ahead.push({ name: source.name, spooled: path });
      files.push(path);
    }
    return { sources: rest(ahead, iterator), files };
  }

  /** Removes the files the import did not read (it stopped, or failed). */
  async discard(files: readonly string[]): Promise<void> {
    await Promise.all(files.map(removeSpoolFile));
  }
}

export interface Spooled {
  readonly sources: Iterable<ImportSource> | AsyncIterable<ImportSource>;
  readonly files: readonly string[];
}

/** What was read ahead, then what was not, read as it is asked for. */
async function* rest(ahead: readonly ImportSource[], iterator: Iterator<ImportSource> | AsyncIterator<ImportSource>): AsyncGenerator<ImportSource> {
  yield* ahead;
  for (;;) {
    const next = await iterator.next();
    if (next.done === true) return;
    yield next.value;
  }
}
