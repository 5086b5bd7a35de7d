/**
 * What clients send on the two-way streams (`/qgpt/stream`), read as request bodies are: parsed
 * within the same depth and complexity limits, large frames on a worker thread, one frame per turn
 * of the event loop and in the order they came. What one socket, and all sockets together, may
 * hold waiting to be read is bounded: past it a frame is refused unread (3,000 questions sent at
 * once were all handled in one turn and held health for 6.9 s; twenty 1 MiB frames nested 20 deep
 * took 4.5 s of parsing on the event loop). A socket that closes drops what it had waiting.
 */
import { HttpError } from './errors.ts';
import { JsonParser } from './jsonParse.ts';
import type { Disposable } from '../core/events.ts';

/** A client frame as a handler gets it: its JSON value, or why it was not read. */
export type ClientFrame = { readonly value: unknown } | { readonly error: HttpError };

export interface FrameLimits {
  /** Frames one socket may have waiting to be read. */
  readonly framesPerSocket: number;
  /** Bytes of frames one socket may have waiting. */
  readonly bytesPerSocket: number;
  /** Bytes of frames all sockets may have waiting together. */
  readonly bytesInAll: number;
}

export const DEFAULT_FRAME_LIMITS: FrameLimits = {
  framesPerSocket: 16,
  bytesPerSocket: 4 * 1024 * 1024,
  bytesInAll: 64 * 1024 * 1024,
};

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
  queue(deliver: (frame: ClientFrame) => void): FrameQueue {
    return new FrameQueue(this, deliver);
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
  private readonly deliver: (frame: ClientFrame) => void;
  private readonly waiting: Buffer[] = [];
  private bytes = 0;
  private draining = false;
  private closed = false;

  constructor(frames: ClientFrames, deliver: (frame: ClientFrame) => void) {
    this.frames = frames;
    this.deliver = deliver;
  }

  push(frame: Buffer): void {
    if (this.closed) return;
    const { framesPerSocket, bytesPerSocket } = this.frames.limits;
    if (this.waiting.length >= framesPerSocket || this.bytes + frame.length > bytesPerSocket) {
      this.deliver({
        error: new HttpError(
          429,
          'too_many_frames',
          `More than ${framesPerSocket} frames (or ${bytesPerSocket / 1024 / 1024} MiB) are waiting to be read on this socket; ` +
            'this frame was not read. Wait for answers before sending more.',
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
    if (!this.draining) void this.drain();
  }

  private async drain(): Promise<void> {
    this.draining = true;
    while (this.waiting.length > 0 && !this.closed) {
      // One frame per turn: health and the other sockets come between two frames of one socket.
      await new Promise((resolve) => setImmediate(resolve));
      const frame = this.waiting.shift();
      if (!frame) break;
      let read: ClientFrame;
      try {
        read = { value: await this.frames.parse(frame) };
      } catch (error) {
        read = { error: error instanceof HttpError ? error : new HttpError(400, 'malformed_json', 'The frame could not be read.') };
      } finally {
        this.bytes -= frame.length;
        this.frames.release(frame.length);
      }
      if (!this.closed) this.deliver(read);
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
