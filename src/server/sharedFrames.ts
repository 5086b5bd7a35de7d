/**
 * Frames of one stream shared by all its subscribers: the connect frame is built and encoded once
 * per store state and each change frame once per change, and every subscriber is sent the same
 * bytes (ws frames a Buffer without copying it). Built per subscriber, 100 subscribers of the
 * identifiers stream at 100k assets meant 100 reads of the store and 560 MB of frames in flight.
 */
import type { Disposable, Event } from '../core/events.ts';
import type { StreamRegistry } from './streams.ts';
import { encodeJsonBuffer } from './jsonEncode.ts';

export interface FrameSource<Change extends object> {
  /** The full frame a subscriber gets on connect (and a plain GET on the path). */
  initial(): unknown;
  /** The frame announcing one change, or undefined when subscribers should not hear of it. */
  change(change: Change): unknown;
}

export class SharedFrames<Change extends object> implements Disposable {
  private readonly source: FrameSource<Change>;
  private connectFrame: Buffer | undefined;
  private readonly changeFrames = new WeakMap<Change, Buffer | null>();
  private readonly listening: Disposable;

  constructor(source: FrameSource<Change>, changes: Event<Change>) {
    this.source = source;
    // Registered before any subscriber's listener, so a change never meets a stale connect frame.
    this.listening = changes(() => (this.connectFrame = undefined));
  }

  initial(): Buffer {
    return (this.connectFrame ??= encode(this.source.initial()));
  }

  change(change: Change): Buffer | undefined {
    let frame = this.changeFrames.get(change);
    if (frame === undefined) {
      const value = this.source.change(change);
      frame = value === undefined ? null : encode(value);
      this.changeFrames.set(change, frame);
    }
    return frame ?? undefined;
  }

  dispose(): void {
    this.listening.dispose();
  }
}

function encode(value: unknown): Buffer {
  return encodeJsonBuffer(value);
}

/** Registers `path` as a stream whose frames all subscribers share; returns them for the plain GET. */
export function registerSharedStream<Change extends object>(
  streams: StreamRegistry,
  path: string,
  source: FrameSource<Change>,
  changes: Event<Change>,
): SharedFrames<Change> {
  const frames = new SharedFrames(source, changes);
  streams.register(path, (subscriber) => {
    subscriber.send(frames.initial());
    return changes((change) => {
      const frame = frames.change(change);
      if (frame) subscriber.send(frame);
    });
  });
  return frames;
}
