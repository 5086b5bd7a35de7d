/**
 * One WebSocket stream of a Satchel server. The server sends a full frame on connect and then only
 * changes, so reconnecting (with backoff) is all it takes to resubscribe and catch up.
 */
import type WebSocket from 'ws';
import { loadWebSocket } from './webSocket.ts';
import { Emitter, type Disposable, type Event } from '../core/events.ts';

export interface StreamOptions {
  readonly minDelayMs?: number;
  readonly maxDelayMs?: number;
  /** Called once after dispose (the owner forgets the stream). */
  readonly onDispose?: () => void;
}

export class StreamConnection<T> implements Disposable {
  readonly url: string;
  private socket: WebSocket | undefined;
  private timer: NodeJS.Timeout | undefined;
  private attempt = 0;
  private disposed = false;
  private readonly minDelay: number;
  private readonly maxDelay: number;
  private readonly onDispose: (() => void) | undefined;
  private readonly frames = new Emitter<T>();
  private readonly connected = new Emitter<boolean>();
  /** Every frame, parsed. The first frame after each (re)connect is a full snapshot. */
  readonly onFrame: Event<T> = this.frames.event;
  /** true when a connection opens, false when it drops. */
  readonly onDidChangeConnected: Event<boolean> = this.connected.event;
  isConnected = false;

  constructor(url: string, options: StreamOptions = {}) {
    this.url = url;
    this.minDelay = options.minDelayMs ?? 200;
    this.maxDelay = options.maxDelayMs ?? 5_000;
    this.onDispose = options.onDispose;
    this.open();
  }

  private open(): void {
    if (this.disposed) return;
    loadWebSocket().then(
      (Socket) => this.connect(Socket),
      () => this.schedule(),
    );
  }

  private connect(Socket: typeof WebSocket): void {
    if (this.disposed) return;
    const socket = new Socket(this.url, { perMessageDeflate: false, handshakeTimeout: 5_000 });
    this.socket = socket;
    socket.on('open', () => {
      this.attempt = 0;
      this.isConnected = true;
      this.connected.fire(true);
    });
    socket.on('message', (data) => {
      const text = data.toString();
      let frame: T;
      try {
        frame = JSON.parse(text) as T;
      } catch {
        // String streams (health) send bare text.
        frame = text as T;
      }
      this.frames.fire(frame);
    });
    socket.on('error', () => {
      // 'close' follows and schedules the retry.
    });
    socket.on('close', () => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      if (this.isConnected) {
        this.isConnected = false;
        this.connected.fire(false);
      }
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.disposed) return;
    const delay = Math.min(this.maxDelay, this.minDelay * 2 ** this.attempt++);
    this.timer = setTimeout(() => this.open(), delay);
    this.timer.unref?.();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    clearTimeout(this.timer);
    const socket = this.socket;
    this.socket = undefined;
    socket?.removeAllListeners('message');
    if (socket) {
      socket.on('error', () => {});
      socket.terminate();
    }
    this.frames.dispose();
    this.connected.dispose();
    this.onDispose?.();
  }
}
