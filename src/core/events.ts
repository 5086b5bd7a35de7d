/** A minimal typed event emitter in the VS Code style, with no dependency on vscode. */
import type { Disposable } from './lifecycle.ts';

export type { Disposable } from './lifecycle.ts';

export type Event<T> = (listener: (e: T) => void) => Disposable;

export class Emitter<T> implements Disposable {
  private readonly listeners = new Set<(e: T) => void>();

  readonly event: Event<T> = (listener) => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };

  fire(e: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(e);
      } catch {
        // One broken subscriber must never stop a write from being reported to the others.
      }
    }
  }

  get size(): number {
    return this.listeners.size;
  }

  dispose(): void {
    this.listeners.clear();
  }
}

/** Record kinds whose changes are published (streams, caches, views). */
export type RecordKind =
  | 'asset'
  | 'format'
  | 'tag'
  | 'website'
  | 'activity'
  | 'application'
  | 'conversation'
  | 'message'
  | 'annotation'
  | 'anchor'
  | 'range'
  | 'workstream_summary'
  | 'model'
  | 'session'
  | 'user'
  /** An agent's change waiting for the user's review (src/core/agents). */
  | 'agent_change';

/** One committed change: published only after the transaction that made it has committed. */
export interface ChangeEvent {
  readonly kind: RecordKind;
  readonly id: string;
  readonly deleted?: boolean;
}
