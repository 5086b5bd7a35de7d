/**
 * The id frames of a collection's stream, merged while one is being applied: while an apply waits for
 * the host, later frames queue here as one (a full frame replaces whatever was queued before it), and
 * applies run one at a time in frame order, so a delete never races an older fetch of the same id.
 */
/** What a queue follows: a stream of id frames that says when it (re)connects. */
export interface FrameSource<Entry> {
  onFrame(listener: (frame: { readonly iterable?: readonly Entry[] } | undefined) => void): unknown;
  onDidChangeConnected(listener: (connected: boolean) => void): unknown;
}

export class FrameQueue {
  private readonly apply: (present: string[], deleted: string[], full: boolean) => Promise<void>;
  private readonly wanted: () => boolean;
  private pending: { full: boolean; present: Set<string>; deleted: Set<string> } | undefined;
  private draining = false;
  private readonly waiting: Array<() => void> = [];

  /** `wanted` says whether frames are still applied (the stream is open): once it is not, the rest stay queued. */
  constructor(apply: (present: string[], deleted: string[], full: boolean) => Promise<void>, wanted: () => boolean) {
    this.apply = apply;
    this.wanted = wanted;
  }

  push(present: readonly string[], deleted: readonly string[], full: boolean): void {
    if (full || !this.pending) this.pending = { full, present: new Set(), deleted: new Set() };
    for (const id of deleted) {
      this.pending.present.delete(id);
      this.pending.deleted.add(id);
    }
    for (const id of present) {
      this.pending.deleted.delete(id);
      this.pending.present.add(id);
    }
    if (!this.draining) void this.drain();
  }

  /**
   * Queues the frames of `stream`: the first after every (re)connect lists every record, so it is
   * full (it replaces what was held); the later ones name what changed, each entry's id read by `key`.
   */
  follow<Entry extends { readonly deleted?: boolean | null }>(stream: FrameSource<Entry>, key: (entry: Entry) => string | undefined): void {
    let expectFull = true;
    stream.onDidChangeConnected((connected) => {
      if (connected) expectFull = true;
    });
    stream.onFrame((frame) => {
      const full = expectFull;
      expectFull = false;
      const present: string[] = [];
      const deleted: string[] = [];
      for (const entry of frame?.iterable ?? []) {
        const id = key(entry);
        if (id) (entry.deleted ? deleted : present).push(id);
      }
      this.push(present, deleted, full);
    });
  }

  /** Resolves once what is queued now has been applied, or the queue was let go. */
  settled(): Promise<void> {
    return this.draining ? new Promise((resolve) => this.waiting.push(resolve)) : Promise.resolve();
  }

  /** Lets go of every `settled` waiting (the owner is disposed). */
  release(): void {
    for (const resolve of this.waiting.splice(0)) resolve();
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.pending && this.wanted()) {
        const { present, deleted, full } = this.pending;
        this.pending = undefined;
        await this.apply([...present], [...deleted], full);
      }
    } finally {
      this.draining = false;
      this.release();
    }
  }
}
