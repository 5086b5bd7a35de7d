/**
 * WebSocket streams on the HTTP server's port, routed by path. A handler sends one full frame on
 * connect and then only changes. A subscriber that stops reading is dropped once its unsent
 * frames pass a bound, and one that stops answering pings is terminated, so writers never wait.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { Owner, type Disposable } from '../core/lifecycle.ts';
import type { Logger } from '../core/context.ts';
import { refusal, type ExtraHosts } from './guard.ts';
import { rawErrorReply } from './errors.ts';
import { ClientFrames, type ClientFrame, type FrameLimits } from './clientFrames.ts';

export interface StreamSubscriber {
  /** Sends one JSON frame (a value, or its encoded bytes); drops the subscriber instead if it is too far behind. */
  send(frame: unknown): void;
  /**
   * Sends one JSON message given in parts (encoded bytes) as they come, as fragments of one
   * WebSocket message, each sent once the previous one is written; frames given to `send`
   * meanwhile wait for the message's end. A failure of the parts closes the connection (1011).
   */
  sendParts(parts: AsyncIterable<Buffer>): void;
  close(): void;
  readonly closed: boolean;
}

/**
 * What a handler may return: its clean-up, and for the few two-way streams, what to do with a
 * client frame (parsed, or refused with the reason; see clientFrames.ts).
 */
export interface StreamRegistration extends Disposable {
  /** A promise keeps the frame's bytes counted against what all sockets may hold until it settles. */
  receive?(frame: ClientFrame): void | Promise<unknown>;
}

export type StreamHandler = (
  subscriber: StreamSubscriber,
  params: Readonly<Record<string, string>>,
) => StreamRegistration | undefined | void;

export interface StreamOptions {
  /** Unsent bytes above which a subscriber is dropped. */
  readonly maxBufferedBytes?: number;
  readonly pingIntervalMs?: number;
  /** What client frames may be waiting to be read (see clientFrames.ts). */
  readonly frames?: Partial<FrameLimits>;
  /** Host names accepted besides loopback ones (the app's allowed hosts). */
  readonly extraHosts?: ExtraHosts;
}

interface Route {
  readonly segments: readonly string[];
  readonly handler: StreamHandler;
}

class Subscriber implements StreamSubscriber {
  private readonly socket: WebSocket;
  private readonly maxBuffered: number;
  /** Frames waiting for a message in parts to end (a frame cannot go between its fragments). */
  private held: { frames: unknown[]; bytes: number } | undefined;
  alive = true;

  constructor(socket: WebSocket, maxBuffered: number) {
    this.socket = socket;
    this.maxBuffered = maxBuffered;
  }

  get closed(): boolean {
    return this.socket.readyState !== this.socket.OPEN;
  }

  send(frame: unknown): void {
    if (this.closed) return;
    if (this.held) {
      this.held.frames.push(frame);
      this.held.bytes += Buffer.isBuffer(frame) ? frame.length : 0;
      // Held frames count as unsent: a subscriber that cannot take the message is dropped the same way.
      if (this.held.bytes > this.maxBuffered) this.socket.terminate();
      return;
    }
    if (this.socket.bufferedAmount > this.maxBuffered) {
      // A slow consumer loses its connection rather than making the server buffer without bound.
      this.socket.terminate();
      return;
    }
    if (Buffer.isBuffer(frame)) this.socket.send(frame, { binary: false });
    else this.socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  sendParts(parts: AsyncIterable<Buffer>): void {
    const held = (this.held ??= { frames: [], bytes: 0 });
    void this.sendFragments(parts).then(
      () => {
        if (this.held === held) this.held = undefined;
        for (const frame of held.frames) this.send(frame);
      },
      () => {
        if (!this.closed) this.socket.close(1011);
      },
    );
  }

  private async sendFragments(parts: AsyncIterable<Buffer>): Promise<void> {
    // One part is held back so the last one can be sent with `fin`.
    let previous: Buffer | undefined;
    for await (const part of parts) {
      if (this.closed) return;
      if (previous) await this.fragment(previous, false);
      previous = part;
    }
    if (!this.closed) await this.fragment(previous ?? Buffer.alloc(0), true);
  }

  /** Resolves once the fragment is written to the socket, so unsent bytes stay about one fragment. */
  private fragment(part: Buffer, fin: boolean): Promise<void> {
    return new Promise((resolve) => this.socket.send(part, { binary: false, fin }, () => resolve()));
  }

  close(): void {
    if (!this.closed) this.socket.close(1000);
  }
}

export class StreamRegistry extends Owner {
  private readonly routes: Route[] = [];
  /** A client's frames come one per turn of the event loop, and a paused socket is read no further. */
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024, allowSynchronousEvents: false });
  private readonly maxBuffered: number;
  private readonly pingTimer: NodeJS.Timeout;
  private readonly subscribers = new Map<WebSocket, Subscriber>();
  private readonly logger: Logger;
  private readonly frames: ClientFrames;
  private readonly extraHosts: ExtraHosts | undefined;

  constructor(logger: Logger, options: StreamOptions = {}) {
    super();
    this.logger = logger;
    this.frames = this._register(new ClientFrames(options.frames));
    this.extraHosts = options.extraHosts;
    this.maxBuffered = options.maxBufferedBytes ?? 8 * 1024 * 1024;
    this.pingTimer = setInterval(() => this.ping(), options.pingIntervalMs ?? 30_000);
    this.pingTimer.unref();
  }

  /** `pattern` is a path with `:name` segments, e.g. `/model/:model/download/progress`. */
  register(pattern: string, handler: StreamHandler): void {
    this.routes.push({ segments: pattern.split('/').filter(Boolean), handler });
  }

  /** Disposes `value` with the registry (what registered streams hold open: their shared frames). */
  own<T extends Disposable>(value: T): T {
    return this._register(value);
  }

  /** Whether a plain GET on `path` names a stream (streams also answer plain GETs with a snapshot). */
  matches(path: string): boolean {
    return this.match(path) !== undefined;
  }

  get subscriberCount(): number {
    return this.subscribers.size;
  }

  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    const refused = refusal(req, this.extraHosts);
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const found = refused ? undefined : this.match(path);
    if (refused || !found) {
      // The same JSON error as the HTTP routes give (guard's refusals, the route-not-found 404).
      const reply = refused
        ? rawErrorReply(refused.status, refused.code, refused.message)
        : rawErrorReply(404, 'route_not_found', `No stream at ${path}`);
      socket.end(reply, () => socket.destroy());
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws, found.route, found.params));
  }

  private accept(ws: WebSocket, route: Route, params: Record<string, string>): void {
    const subscriber = new Subscriber(ws, this.maxBuffered);
    this.subscribers.set(ws, subscriber);
    ws.on('pong', () => (subscriber.alive = true));
    ws.on('error', () => ws.terminate());
    // Most streams are server → client only: client frames are ignored unless the handler takes them.
    let registration: StreamRegistration | undefined | void;
    const frames = this.frames.queue((frame) => registration?.receive?.(frame), { pause: () => ws.pause(), resume: () => ws.resume() });
    ws.on('message', (data) => {
      if (registration?.receive) frames.push(bytesOf(data));
    });
    ws.on('close', () => {
      this.subscribers.delete(ws);
      frames.dispose();
      registration?.dispose();
    });
    try {
      registration = route.handler(subscriber, params);
    } catch (error) {
      this.logger.error(`stream ${route.segments.join('/')} failed to start`, error);
      ws.close(1011);
    }
  }

  private match(path: string): { route: Route; params: Record<string, string> } | undefined {
    const parts = path.split('/').filter(Boolean);
    for (const route of this.routes) {
      if (route.segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < parts.length && ok; i++) {
        const expected = route.segments[i]!;
        const actual = parts[i]!;
        if (expected.startsWith(':')) {
          try {
            params[expected.slice(1)] = decodeURIComponent(actual);
          } catch {
            ok = false;
          }
        } else ok = expected === actual;
      }
      if (ok) return { route, params };
    }
    return undefined;
  }

  private ping(): void {
    for (const [ws, subscriber] of this.subscribers) {
      if (!subscriber.alive) {
        ws.terminate();
        continue;
      }
      subscriber.alive = false;
      ws.ping();
    }
  }

  override dispose(): void {
    clearInterval(this.pingTimer);
    for (const ws of this.subscribers.keys()) ws.terminate();
    this.subscribers.clear();
    this.wss.close();
    super.dispose();
  }
}

function bytesOf(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  return Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
}
