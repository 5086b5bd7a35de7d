/**
 * Which tables and indexes a process writes, read from its WAL file (issue 34: what the data host
 * writes after an import). A WalTail reads the frames appended since its last read (starting over
 * when SQLite restarts the WAL with new salts); `pageOwners` names each page's B-tree from SQLite's
 * dbstat table once the writer is done.
 */
import { closeSync, openSync, readSync, fstatSync } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';

const WAL_HEADER = 32;
const FRAME_HEADER = 24;

export class WalTail {
  private offset = WAL_HEADER;
  private salts = '';
  private readonly path: string;

  constructor(path: string) {
    this.path = path;
  }

  /** The page numbers of the frames written since the last read (a page written twice counts twice). */
  read(): number[] {
    let fd: number;
    try {
      fd = openSync(this.path, 'r');
    } catch {
      return [];
    }
    try {
      const header = Buffer.alloc(WAL_HEADER);
      if (readSync(fd, header, 0, WAL_HEADER, 0) < WAL_HEADER) return [];
      const pageSize = header.readUInt32BE(8);
      const salts = header.subarray(16, 24).toString('hex');
      if (salts !== this.salts) {
        this.salts = salts;
        this.offset = WAL_HEADER;
      }
      const size = fstatSync(fd).size;
      const pages: number[] = [];
      const frame = Buffer.alloc(FRAME_HEADER);
      while (this.offset + FRAME_HEADER + pageSize <= size) {
        readSync(fd, frame, 0, FRAME_HEADER, this.offset);
        // A frame of this WAL generation carries its salts; one left from an earlier generation ends it.
        if (frame.subarray(8, 16).toString('hex') !== salts) break;
        pages.push(frame.readUInt32BE(0));
        this.offset += FRAME_HEADER + pageSize;
      }
      return pages;
    } finally {
      closeSync(fd);
    }
  }
}

/** Each page's owner (table or index name) in `db`. */
export function pageOwners(db: DatabaseSync): Map<number, string> {
  const owners = new Map<number, string>();
  for (const row of db.prepare('SELECT name, pageno FROM dbstat').iterate() as Iterable<{ name: string; pageno: number }>) owners.set(row.pageno, row.name);
  return owners;
}

/** "name 1234 frames" lines, most written first, for pages counted in `pages`. */
export function ownersReport(pages: readonly number[], owners: ReadonlyMap<number, string>, top = 12): string {
  const counts = new Map<string, number>();
  for (const page of pages) {
    const name = owners.get(page) ?? '(free or new)';
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1]).slice(0, top).map(([name, n]) => `${name} ${n}`).join(', ');
}
