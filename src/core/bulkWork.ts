/**
 * The bulk work under way in the store's process: a sync, an import session, the semantic
 * back-fill, a pass of the revision compactor, the secrets scan of what an import or a sync wrote,
 * the data host's warm-up at its start.
 * Each leaves a working set behind (garbage of its batches, a grown heap) that the next one would
 * otherwise pile onto; the data host gives it back as each ends, also while another goes on (the
 * CLI's collection, idleCollection.ts): the scan after an import ends a second or two into the
 * back-fill that follows it, and grew the host 15 MB that the back-fill kept (docs/performance.md).
 */
import { Emitter, type Event } from './events.ts';
import { MutableDisposable, toDisposable, type Disposable } from './lifecycle.ts';

export class BulkWork implements Disposable {
  private running = 0;
  private readonly ended = new Emitter<void>();
  private readonly activeChanged = new Emitter<boolean>();
  /** A piece of bulk work ended (others may still be under way: `active` says). */
  readonly onDidEnd: Event<void> = this.ended.event;
  /** Bulk work began when none was under way (true), or the last piece under way ended (false). */
  readonly onDidChangeActive: Event<boolean> = this.activeChanged.event;

  /** Counts one piece of bulk work until the returned Disposable is disposed (once). */
  begin(): Disposable {
    if (this.running++ === 0) this.activeChanged.fire(true);
    return toDisposable(() => {
      if (--this.running === 0) this.activeChanged.fire(false);
      this.ended.fire();
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
    this.activeChanged.dispose();
  }
}
