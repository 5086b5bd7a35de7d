/**
 * Frames of one stream shared by all its subscribers: the connect frame is built and encoded once
 * per store state and each change frame once per change, and every subscriber is sent the same
 * bytes (ws frames a Buffer without copying it). Built per subscriber, 100 subscribers of the
 * identifiers stream at 100k assets meant 100 reads of the store and 560 MB of frames in flight.
 *
 * A connect frame that may be large (every asset with its content: 548 MB at 9 × 60 MB) is given
 * as parts produced with turns for the event loop: it is built once while subscribers are already
 * sent what is built, as one WebSocket message in fragments, so neither building nor sending it
 * blocks the host, and the parts are the only copy of it. Such a frame is kept for later
 * subscribers only while it is small; a large one is let go once its subscribers have it.
 */
import type { Disposable, Event } from '../core/events.ts';
import type { StreamRegistry } from './streams.ts';
import { encodeJsonBuffer } from './jsonEncode.ts';

export interface FrameSource<Change extends object> {
  /**
   * The full frame a subscriber gets on connect (and a plain GET on the path): a value, or for a
   * frame that may be large its JSON in parts, produced with turns for the event loop.
   */
  initial(): unknown;
  /** The frame announcing one change, or undefined when subscribers should not hear of it. */
  change(change: Change): unknown;
}

/** A connect frame above this size is not kept once sent. */
const KEEP_BYTES = 16 * 1024 * 1024;
/** Small parts are joined into fragments of about this size (a frame header per ',' is waste). */
const FRAGMENT_BYTES = 256 * 1024;

export class SharedFrames<Change extends object> implements Disposable {
  private readonly source: FrameSource<Change>;
  private connectFrame: Replay | undefined;
  private readonly changeFrames = new WeakMap<Change, Buffer | null>();
  private readonly listening: Disposable;

  constructor(source: FrameSource<Change>, changes: Event<Change>) {
    this.source = source;
    // Registered before any subscriber's listener, so a change never meets a stale connect frame:
    // a subscriber that joined a build before the change is sent the change after it.
    this.listening = changes(() => (this.connectFrame = undefined));
  }

  /** The connect frame's JSON in parts (read while it is still being built). */
  connect(): AsyncIterable<Buffer> {
    if (!this.connectFrame) {
      const replay = new Replay(parts(this.source.initial()), (bytes, complete) => {
        if ((!complete || bytes > KEEP_BYTES) && this.connectFrame === replay) this.connectFrame = undefined;
      });
      this.connectFrame = replay;
    }
    return this.connectFrame.read();
  }

  change(change: Change): Buffer | undefined {
    let frame = this.changeFrames.get(change);
    if (frame === undefined) {
      const value = this.source.change(change);
      frame = value === undefined ? null : encodeJsonBuffer(value);
      this.changeFrames.set(change, frame);
    }
    return frame ?? undefined;
  }

  dispose(): void {
    this.listening.dispose();
  }
}

function isParts(value: unknown): value is AsyncIterable<Buffer> {
  return typeof (value as { [Symbol.asyncIterator]?: unknown } | null)?.[Symbol.asyncIterator] === 'function';
}

async function* parts(value: unknown): AsyncGenerator<Buffer> {
  if (!isParts(value)) {
    yield encodeJsonBuffer(value);
    return;
  }
  let small: Buffer[] = [];
  let smallBytes = 0;
  for await (const part of value) {
    if (part.length >= FRAGMENT_BYTES) {
      if (small.length > 0) yield Buffer.concat(small);
      small = [];
      smallBytes = 0;
      yield part;
      continue;
    }
    small.push(part);
    smallBytes += part.length;
    if (smallBytes >= FRAGMENT_BYTES) {
      yield Buffer.concat(small);
      small = [];
      smallBytes = 0;
    }
  }
  if (small.length > 0) yield Buffer.concat(small);
}

/**
 * Parts produced once and read by any number of readers, each from the first part, while they are
 * produced. Once no reader is left the production stops (a frame nobody waits for is not built
 * to the end), and `finished` is told it is incomplete so no later reader joins it.
 */
class Replay {
  private readonly parts: Buffer[] = [];
  private done = false;
  private failure: { error: unknown } | undefined;
  private waiting: Array<() => void> = [];
  private readers = 0;

  constructor(source: AsyncIterable<Buffer>, finished: (bytes: number, complete: boolean) => void) {
    void this.fill(source, finished);
  }

  private async fill(source: AsyncIterable<Buffer>, finished: (bytes: number, complete: boolean) => void): Promise<void> {
    let bytes = 0;
    let complete = true;
    try {
      for await (const part of source) {
        this.parts.push(part);
        bytes += part.length;
        this.wake();
        if (this.readers === 0) {
          complete = false;
          break;
        }
      }
    } catch (error) {
      this.failure = { error };
    }
    this.done = true;
    this.wake();
    finished(bytes, complete && !this.failure);
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const resume of waiting) resume();
  }

  /** A reader, counted from now until it is finished or returned. */
  read(): AsyncGenerator<Buffer> {
    this.readers++;
    return this.readFromStart();
  }

  private async *readFromStart(): AsyncGenerator<Buffer> {
    try {
      for (let next = 0; ; ) {
        if (next < this.parts.length) yield this.parts[next++]!;
        else if (this.failure) throw this.failure.error;
        else if (this.done) return;
        else await new Promise<void>((resolve) => this.waiting.push(resolve));
      }
    } finally {
      this.readers--;
    }
  }
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
    // Change frames wait in the subscriber until the whole connect frame is sent.
    subscriber.sendParts(frames.connect());
    return changes((change) => {
      const frame = frames.change(change);
      if (frame) subscriber.send(frame);
    });
  });
  return frames;
}
