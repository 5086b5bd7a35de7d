/**
 * Packs kept texts: a write keeps a replaced content as it is, and this deflates it afterwards on
 * libuv's thread pool, writing the smaller form in a short transaction of its own (revisionTexts.ts).
 * It walks the texts not yet packed in rowid order (new texts have the highest), a few at a time,
 * each step bounded by the bytes it reads. A text deleted or packed meanwhile is left as it is.
 */
import type { Database } from '../store/database.ts';
import type { RevisionLog } from './revisionLog.ts';
import { isPacked, packed } from './revisionTexts.ts';

/** Texts looked up per step, and the bytes of them read and deflated at once. */
const ROWS_PER_STEP = 64;
const BYTES_PER_STEP = 4 * 1024 * 1024;

export class TextPacker {
  private readonly database: Database;
  private readonly log: RevisionLog;
  /** Texts up to this rowid are packed (or too small to pack); those after it are looked at next. */
  private done = 0;

  constructor(database: Database, log: RevisionLog) {
    this.database = database;
    this.log = log;
  }

  /** Packs every text not yet packed; stops early (and resumes there next time) once `stopped` says so. Returns how many it packed. */
  async pack(stopped: () => boolean): Promise<number> {
    let count = 0;
    while (!stopped()) {
      const rows = this.log.unpacked(this.done, ROWS_PER_STEP);
      if (rows.length === 0) return count;
      let bytes = 0;
      const step = rows.filter((row) => (bytes += row.size) <= BYTES_PER_STEP || row === rows[0]);
      const read = step.flatMap((row) => {
        const stored = this.log.stored(row.rowid);
        return stored ? [{ rowid: row.rowid, stored }] : [];
      });
      const results = await Promise.all(read.map(async (entry) => ({ ...entry, packed: await packed(entry.stored) })));
      if (stopped()) return count;
      this.database.unsyncedTransaction(() => {
        for (const { rowid, stored, packed: form } of results) {
          this.log.replacePacked(rowid, stored.encoding, { ...form, hash: stored.hash });
          if (isPacked(form.encoding)) count++;
        }
      });
      this.done = step[step.length - 1]!.rowid;
    }
    return count;
  }
}
