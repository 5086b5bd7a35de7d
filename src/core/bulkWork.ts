/**
 * The bulk work under way in the store's process: a sync, an import session, the semantic
 * back-fill, a pass of the revision compactor. Each leaves a working set behind (garbage of its
 * batches, a grown heap) that the next one would otherwise pile onto; the data host gives it back
 * once the last of them ends (the CLI's collection, idleCollection.ts).
 */
import { Emitter, type Disposable, type Event } from './events.ts';

export class BulkWork implements Disposable {
  private running = 0;
  private readonly ended = new Emitter<void>();
  /** The last bulk work under way ended. */
  readonly onDidEnd: Event<void> = this.ended.event;

  /** Counts one piece of bulk work until the returned Disposable is disposed (once). */
  begin(): Disposable {
    this.running++;
    let ended = false;
    return {
      dispose: () => {
        if (ended) return;
        ended = true;
        if (--this.running === 0) this.ended.fire();
      },
    };
  }

  get active(): boolean {
    return this.running > 0;
  }

  dispose(): void {
    this.ended.dispose();
  }
}
