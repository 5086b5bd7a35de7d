/**
 * Keeps the WAL from growing without bound while writes never stop.
 *
 * SQLite starts the WAL over (writes from its first frame again; journal_size_limit then trims the
 * file) only when a write transaction begins after a checkpoint copied every frame into the
 * database. With writes arriving back to back (8 concurrent deletes over HTTP), each checkpoint in
 * the checkpoint process finished while the next transaction was already writing, so none ever began on a fully
 * copied WAL: 4,000 deletes left a 527 MB WAL beside a 15 MB store, and every later COMMIT wrote
 * into it slowly (docs/reliability.md). So once the WAL is past `maxPages`, the next transaction
 * first checkpoints on the store's own connection: that copies only what was written since the
 * checkpoint process's last checkpoint (at most its interval's worth), and the transaction then begins on a fully
 * copied WAL and starts it over. If that process is mid-checkpoint (SQLite then reports busy), the
 * next transaction tries again.
 */
import type { DatabaseSync } from 'node:sqlite';

/** 64 MiB of 4 KiB pages. */
const MAX_PAGES = 16_384;

interface CheckpointRow {
  readonly busy: number;
  readonly log: number;
  readonly checkpointed: number;
}

export class WalRestart {
  /** The WAL's length in pages at the last checkpoint. */
  private pages = 0;
  private readonly maxPages: number;

  constructor(options: { maxPages?: number } = {}) {
    this.maxPages = options.maxPages ?? MAX_PAGES;
  }

  /** Told of the checkpoint process's checkpoints. */
  checkpointed(result: { readonly log: number }): void {
    this.pages = result.log;
  }

  /** Called before an outermost BEGIN on `db`, outside any transaction. */
  beforeBegin(db: DatabaseSync): void {
    if (this.pages < this.maxPages) return;
    const row = db.prepare('PRAGMA wal_checkpoint(PASSIVE)').get() as CheckpointRow | undefined;
    if (row && row.busy === 0 && row.log === row.checkpointed) this.pages = 0;
  }
}
