/**
 * The bulk work under way in the store's process: a sync, an import session, the semantic
 * back-fill, a pass of the revision compactor. Each leaves a working set behind (garbage of its
 * batches, a grown heap) that the next one would otherwise pile onto; the data host gives it back
 * once the last of them ends (the CLI's collection, idleCollection.ts).
 */
import { Emitter, type Event } from './events.ts';
import { MutableDisposable, toDisposable, type Disposable } from './lifecycle.ts';

export class BulkWork implements Disposable {
  private running = 0;
  private readonly ended = new Emitter<void>();
  /** The last bulk work under way ended. */
  readonly onDidEnd: Event<void> = this.ended.event;

  /** Counts one piece of bulk work until the returned Disposable is disposed (once). */
  begin(): Disposable {
    this.running++;
    return toDisposable(() => {
      if (--this.running === 0) this.ended.fire();
    });
  }

  /**
   * Counts work that a state tells of (the back-fill's 'indexing'): from the first `event` whose
   * value is `busy` to the first that is not. Disposing it ends what it counts and stops listening.
   */
  whileBusy<T>(event: Event<T>, busy: (value: T) => boolean): Disposable {
    const held = new MutableDisposable<Disposable>();
    const listening = event((value) => {
      held.value = busy(value) ? (held.value ?? this.begin()) : undefined;
    });
    return toDisposable(() => {
      listening.dispose();
      held.dispose();
    });
  }

  get active(): boolean {
    return this.running > 0;
  }

  dispose(): void {
    this.ended.dispose();
  }
}
