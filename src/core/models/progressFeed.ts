/**
 * Download progress per model, throttled: at most one frame per interval for the same status (the
 * latest one is delivered when the interval ends), while a change of status goes out at once.
 */
import { Emitter, type Disposable } from '../events.ts';
import type { ModelDownloadProgress } from '../piecesTypes.ts';

export interface ModelDownloadEvent {
  readonly id: string;
  readonly progress: ModelDownloadProgress;
}

interface Entry {
  at: number;
  status?: string;
  pending?: ModelDownloadProgress;
  timer?: NodeJS.Timeout;
}

export class ProgressFeed implements Disposable {
  private readonly emitter = new Emitter<ModelDownloadEvent>();
  readonly event = this.emitter.event;
  private readonly entries = new Map<string, Entry>();
  private readonly intervalMs: number;

  constructor(intervalMs: number) {
    this.intervalMs = intervalMs;
  }

  /** `important` frames (a state change) are never held back or dropped. */
  report(id: string, progress: ModelDownloadProgress, important = false): void {
    let entry = this.entries.get(id);
    if (!entry) this.entries.set(id, (entry = { at: 0 }));
    const now = Date.now();
    if (important || progress.status !== entry.status || now - entry.at >= this.intervalMs) {
      clearTimeout(entry.timer);
      entry.timer = undefined;
      entry.pending = undefined;
      this.send(id, entry, progress, now);
      return;
    }
    entry.pending = progress;
    entry.timer ??= setTimeout(() => {
      entry.timer = undefined;
      if (entry.pending) this.send(id, entry, entry.pending, Date.now());
      entry.pending = undefined;
    }, this.intervalMs - (now - entry.at));
    entry.timer.unref();
  }

  forget(id: string): void {
    clearTimeout(this.entries.get(id)?.timer);
    this.entries.delete(id);
  }

  private send(id: string, entry: Entry, progress: ModelDownloadProgress, now: number): void {
    entry.at = now;
    entry.status = progress.status;
    this.emitter.fire({ id, progress });
  }

  dispose(): void {
    for (const entry of this.entries.values()) clearTimeout(entry.timer);
    this.entries.clear();
    this.emitter.dispose();
  }
}
