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
/** A kept connect frame is let go this long after it was built (a later subscriber builds it again). */
export const KEEP_MS = 30_000;
/** A large frame's production waits while its slowest reader is this far behind. */
const AHEAD_BYTES = 64 * 1024 * 1024;
/** Small parts are joined into fragments of about this size (a frame header per ',' is waste). */
const FRAGMENT_BYTES = 256 * 1024;

export class SharedFrames<Change extends object> implements Disposable {
  private readonly source: FrameSource<Change>;
  private connectFrame: Replay | undefined;
  private readonly changeFrames = new WeakMap<Change, Buffer | null>();
  private readonly listening: Disposable;
  private readonly keepMs: number;
  private expiry: NodeJS.Timeout | undefined;

  constructor(source: FrameSource<Change>, changes: Event<Change>, options: { keepMs?: number } = {}) {
    this.source = source;
    this.keepMs = options.keepMs ?? KEEP_MS;
    // Registered before any subscriber's listener, so a change never meets a stale connect frame:
    // a subscriber that joined a build before the change is sent the change after it.
    this.listening = changes(() => this.drop());
  }

  /** The connect frame's JSON in parts (read while it is still being built). */
  connect(): AsyncIterable<Buffer> {
    if (!this.connectFrame) {
      const replay: Replay = new Replay(parts(this.source.initial()), {
        // A large frame takes no more readers, so what its readers have sent can be let go.
        oversize: () => {
          if (this.connectFrame === replay) this.drop();
        },
        finished: (complete) => {
          if (this.connectFrame !== replay) return;
          if (!complete) this.drop();
          else this.expire();
        },
      });
      this.connectFrame = replay;
    }
    return this.connectFrame.read();
  }

  /** Lets the kept frame go keepMs from now, unless a change lets it go first. */
  private expire(): void {
    clearTimeout(this.expiry);
    // The timer holds nothing of the frame (a change lets the frame go at once, not when this fires).
    this.expiry = setTimeout(() => this.drop(), this.keepMs);
    // Never what keeps a process alive.
    this.expiry.unref();
  }

  private drop(): void {
    this.connectFrame = undefined;
    clearTimeout(this.expiry);
    this.expiry = undefined;
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
    clearTimeout(this.expiry);
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
 * to the end), and `finished` is told it is incomplete so no later reader joins it. Past
 * KEEP_BYTES the frame is `oversize`: it takes no new reader, parts every reader has passed are
 * let go, and production waits while the slowest reader is AHEAD_BYTES behind, so a snapshot of
 * any size holds about that much memory instead of all of itself.
 */
class Replay {
  /** parts[0] is part number `base`; readers count parts from 0. */
  private parts: Buffer[] = [];
  private base = 0;
  private held = 0;
  private done = false;
  private oversize = false;
  private failure: { error: unknown } | undefined;
  private waiting: Array<() => void> = [];
  private room: Array<() => void> = [];
  private readonly positions = new Set<{ next: number }>();

  constructor(source: AsyncIterable<Buffer>, events: { oversize(): void; finished(complete: boolean): void }) {
    void this.fill(source, events);
  }

  private async fill(source: AsyncIterable<Buffer>, events: { oversize(): void; finished(complete: boolean): void }): Promise<void> {
    let bytes = 0;
    let complete = true;
    try {
      for await (const part of source) {
        this.parts.push(part);
        this.held += part.length;
        bytes += part.length;
        this.wake();
        if (!this.oversize && bytes > KEEP_BYTES) {
          this.oversize = true;
          events.oversize();
        }
        while (this.oversize && this.held > AHEAD_BYTES && this.positions.size > 0) {
          await new Promise<void>((resolve) => this.room.push(resolve));
        }
        if (this.positions.size === 0) {
          complete = false;
          break;
        }
      }
    } catch (error) {
      this.failure = { error };
    }
    this.done = true;
    this.wake();
    events.finished(complete && !this.failure);
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const resume of waiting) resume();
  }

  /** Lets go of the parts every reader has passed (an oversize frame only) and resumes production. */
  private release(): void {
    if (this.oversize) {
      let slowest = Infinity;
      for (const position of this.positions) slowest = Math.min(slowest, position.next);
      if (slowest === Infinity) slowest = this.base + this.parts.length;
      while (this.base < slowest && this.parts.length > 0) {
        this.held -= this.parts.shift()!.length;
        this.base++;
      }
    }
    const room = this.room;
    this.room = [];
    for (const resume of room) resume();
  }

  /** A reader, counted from now until it is finished or returned. */
  read(): AsyncGenerator<Buffer> {
    const position = { next: 0 };
    this.positions.add(position);
    return this.readFromStart(position);
  }

  private async *readFromStart(position: { next: number }): AsyncGenerator<Buffer> {
    try {
      for (;;) {
        if (position.next < this.base + this.parts.length) {
          const part = this.parts[position.next - this.base]!;
          position.next++;
          yield part;
          this.release();
        } else if (this.failure) throw this.failure.error;
        else if (this.done) return;
        else await new Promise<void>((resolve) => this.waiting.push(resolve));
      }
    } finally {
      this.positions.delete(position);
      this.release();
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
  const frames = streams.own(new SharedFrames(source, changes));
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
