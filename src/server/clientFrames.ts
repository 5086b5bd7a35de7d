/**
 * What clients send on the two-way streams (`/qgpt/stream`), read as request bodies are: parsed
 * within the same depth and complexity limits, large frames on a worker thread, one frame per turn
 * of the event loop and in the order they came. A socket whose frames wait to be read is paused
 * (TCP holds the rest on the client's side) until they are; what one socket may hold waiting, and
 * all sockets together waiting or being worked on (a question being answered holds its frame's bytes
 * until its answer is sent), is bounded, and past that a frame is refused unread. 3,000 questions
 * sent at once were all handled in one turn and held health for 6.9 s; twenty 1 MiB frames nested
 * 20 deep took 4.5 s of parsing on the event loop. A socket that closes drops what it had waiting.
 */
import { HttpError } from './errors.ts';
import { JsonParser } from './jsonParse.ts';
import type { Disposable } from '../core/events.ts';

/** A client frame as a handler gets it: its JSON value, or why it was not read. */
export type ClientFrame = { readonly value: unknown } | { readonly error: HttpError };

/**
 * What a handler does with a frame: when it returns a promise, the frame's bytes stay counted
 * against the budget of all sockets until it settles (the work the frame asked for is under way).
 */
export type Deliver = (frame: ClientFrame) => void | Promise<unknown>;

export interface FrameLimits {
  /** Frames, and bytes of frames, waiting on one socket from which it is paused. */
  readonly pauseFrames: number;
  readonly pauseBytes: number;
  /**
   * Bytes of frames one socket may have waiting: what arrives once it is paused (the rest of what
   * was already read from it, at most one frame of the 1 MiB WebSocket limit more) stays under it.
   */
  readonly bytesPerSocket: number;
  /** Bytes of frames all sockets may have waiting or being worked on together. */
  readonly bytesInAll: number;
}

export const DEFAULT_FRAME_LIMITS: FrameLimits = {
  pauseFrames: 16,
  pauseBytes: 2 * 1024 * 1024,
  bytesPerSocket: 4 * 1024 * 1024,
  bytesInAll: 64 * 1024 * 1024,
};

/** How a queue holds back its socket. */
export interface FlowControl {
  pause(): void;
  resume(): void;
}

/** Frames from this size are parsed off the event loop (a 64 KiB parse takes under a millisecond on it). */
const WORKER_PARSE_FROM = 64 * 1024;

/** The frames of every socket: one parser, one budget. */
export class ClientFrames implements Disposable {
  private readonly parser = new JsonParser(WORKER_PARSE_FROM);
  readonly limits: FrameLimits;
  private waitingBytes = 0;

  constructor(limits: Partial<FrameLimits> = {}) {
    this.limits = { ...DEFAULT_FRAME_LIMITS, ...limits };
  }

  /** The frame queue of one socket; `deliver` gets each frame, read or refused, in order. */
  queue(deliver: Deliver, flow: FlowControl): FrameQueue {
    return new FrameQueue(this, deliver, flow);
  }

  /** @internal Takes `bytes` from the budget of all sockets; false when it is spent. */
  take(bytes: number): boolean {
    if (this.waitingBytes + bytes > this.limits.bytesInAll) return false;
    this.waitingBytes += bytes;
    return true;
  }

  /** @internal */
  release(bytes: number): void {
    this.waitingBytes -= bytes;
  }

  /** @internal */
  parse(frame: Buffer): Promise<unknown> {
    return this.parser.parse(frame, 'frame');
  }

  dispose(): void {
    this.parser.dispose();
  }
}

export class FrameQueue implements Disposable {
  private readonly frames: ClientFrames;
  private readonly deliver: Deliver;
  private readonly flow: FlowControl;
  private readonly waiting: Buffer[] = [];
  private bytes = 0;
  private draining = false;
  private paused = false;
  private closed = false;

  constructor(frames: ClientFrames, deliver: Deliver, flow: FlowControl) {
    this.frames = frames;
    this.deliver = deliver;
    this.flow = flow;
  }

  push(frame: Buffer): void {
    if (this.closed) return;
    const { bytesPerSocket, pauseFrames, pauseBytes } = this.frames.limits;
    if (this.bytes + frame.length > bytesPerSocket) {
      this.deliver({
        error: new HttpError(
          429,
          'too_many_frames',
          `More than ${bytesPerSocket / 1024 / 1024} MiB of frames are waiting to be read on this socket; this frame was not read. ` +
            'Wait for answers before sending more.',
        ),
      });
      return;
    }
    if (!this.frames.take(frame.length)) {
      this.deliver({ error: new HttpError(503, 'busy', 'Too many frames are waiting to be read on all sockets; this frame was not read. Retry shortly.') });
      return;
    }
    this.waiting.push(frame);
    this.bytes += frame.length;
    if (!this.paused && (this.waiting.length >= pauseFrames || this.bytes >= pauseBytes)) {
      this.paused = true;
      this.flow.pause();
    }
    if (!this.draining) void this.drain();
  }

  private async drain(): Promise<void> {
    this.draining = true;
    while (this.waiting.length > 0 && !this.closed) {
      // One frame per turn: health and the other sockets come between two frames of one socket.
      await new Promise((resolve) => setImmediate(resolve));
      const frame = this.waiting.shift();
      if (!frame) break;
      // Measured before parsing: a large frame's bytes are moved to the parser's thread.
      const size = frame.length;
      let read: ClientFrame;
      try {
        read = { value: await this.frames.parse(frame) };
      } catch (error) {
        read = { error: error instanceof HttpError ? error : new HttpError(400, 'malformed_json', 'The frame could not be read.') };
      } finally {
        this.bytes -= size;
      }
      const work = this.closed ? undefined : this.deliver(read);
      if (work instanceof Promise) void work.then(() => this.frames.release(size), () => this.frames.release(size));
      else this.frames.release(size);
      if (this.closed) break;
      const { pauseFrames, pauseBytes } = this.frames.limits;
      if (this.paused && this.waiting.length < pauseFrames / 2 && this.bytes < pauseBytes / 2) {
        this.paused = false;
        this.flow.resume();
      }
    }
    this.draining = false;
  }

  /** Drops the frames still waiting (their client left). */
  dispose(): void {
    this.closed = true;
    for (const frame of this.waiting.splice(0)) {
      this.bytes -= frame.length;
      this.frames.release(frame.length);
    }
  }
}
