/**
 * What a transaction leaves for its end: writes run just before its COMMIT, and callbacks run
 * after it. Both are dropped with a transaction that rolls back, and with a savepoint that does
 * (from its mark on).
 *
 * Writes are deferred for FTS5: it keeps a transaction's new terms in memory and writes them as one
 * segment at COMMIT, but it also writes them out whenever a later statement of the transaction
 * opens a statement journal (a write with a trigger, an ON CONFLICT clause or a possible abort
 * part-way: SQLite then asks every virtual table of the transaction for a savepoint). A create
 * writes the index and then its revision, activity and links, so each snippet of a grouped commit
 * made a segment of its own; written last, a group makes one.
 */
export interface QueueMark {
  readonly writes: number;
  readonly callbacks: number;
}

export class TransactionQueues {
  private readonly writes: Array<() => void> = [];
  private readonly callbacks: Array<() => void> = [];

  deferWrite(write: () => void): void {
    this.writes.push(write);
  }

  afterCommit(callback: () => void): void {
    this.callbacks.push(callback);
  }

  /** Runs the deferred writes, in the order they came (a write may defer more: they run too). */
  runWrites(): void {
    while (this.writes.length > 0) {
      for (const write of this.writes.splice(0)) write();
    }
  }

  /** The callbacks of a transaction that committed, handed over once. */
  takeCallbacks(): Array<() => void> {
    return this.callbacks.splice(0);
  }

  mark(): QueueMark {
    return { writes: this.writes.length, callbacks: this.callbacks.length };
  }

  /** Forgets what was queued since `mark` (its savepoint rolled back), or everything (the transaction did). */
  rollBack(mark: QueueMark = { writes: 0, callbacks: 0 }): void {
    this.writes.length = Math.min(this.writes.length, mark.writes);
    this.callbacks.length = Math.min(this.callbacks.length, mark.callbacks);
  }
}
