/**
 * A WebSocket client that costs its process almost nothing: frames are encoded before the
 * measurement starts (masked with a zero key, so the payload is sent as it is) and written in one
 * call, and the server's frames are split without copying. The ws client masks and validates every
 * payload on this process's event loop, where health is probed, and would count that against the host.
 */
import { request as httpRequest } from 'node:http';
import type { Duplex } from 'node:stream';

/** A client text frame (FIN, opcode 1) with a zero masking key. */
export function clientFrame(text: string | Buffer): Buffer {
  const payload = typeof text === 'string' ? Buffer.from(text) : text;
  const length = payload.length;
  const header = length < 126 ? Buffer.alloc(2) : length < 65536 ? Buffer.alloc(4) : Buffer.alloc(10);
  header[0] = 0x81;
  if (length < 126) header[1] = 0x80 | length;
  else if (length < 65536) {
    header[1] = 0x80 | 126;
    header.writeUInt16BE(length, 2);
  } else {
    header[1] = 0x80 | 127;
    header.writeBigUInt64BE(BigInt(length), 2);
  }
  return Buffer.concat([header, Buffer.alloc(4), payload]);
}

export interface RawSocket {
  /** Writes encoded frames (see clientFrame). */
  write(bytes: Buffer): Promise<void>;
  /** Text messages received so far, in order (unfragmented ones; the servers here send no others). */
  readonly messages: string[];
  /** Resolves once `count` messages arrived, or with what came when `timeoutMs` passed. */
  waitFor(count: number, timeoutMs: number): Promise<string[]>;
  readonly closed: Promise<void>;
  destroy(): void;
}

export function openRawSocket(port: number, path: string): Promise<RawSocket> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      host: '127.0.0.1',
      port,
      path,
      headers: {
        host: `127.0.0.1:${port}`,
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
      },
    });
    req.on('error', reject);
    req.on('response', (res) => reject(new Error(`WS ${path}: ${res.statusCode}`)));
    req.on('upgrade', (_res, socket: Duplex, head: Buffer) => resolve(new Client(socket, head)));
    req.end();
  });
}

class Client implements RawSocket {
  readonly messages: string[] = [];
  readonly closed: Promise<void>;
  private buffered: Buffer;
  private readonly socket: Duplex;
  private readonly waiters = new Set<() => void>();

  constructor(socket: Duplex, head: Buffer) {
    this.socket = socket;
    this.buffered = head;
    this.closed = new Promise((resolve) => socket.once('close', () => resolve()));
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk: Buffer) => {
      this.buffered = this.buffered.length > 0 ? Buffer.concat([this.buffered, chunk]) : chunk;
      this.consume();
    });
    void this.closed.then(() => this.wake());
    this.consume();
  }

  write(bytes: Buffer): Promise<void> {
    return new Promise((resolve, reject) => this.socket.write(bytes, (error) => (error ? reject(error) : resolve())));
  }

  waitFor(count: number, timeoutMs: number): Promise<string[]> {
    return new Promise((resolve) => {
      const check = (): void => {
        if (this.messages.length < count && !this.socket.destroyed) return;
        finish();
      };
      const finish = (): void => {
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(this.messages.slice());
      };
      const timer = setTimeout(finish, timeoutMs);
      this.waiters.add(check);
      check();
    });
  }

  destroy(): void {
    this.socket.destroy();
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  private consume(): void {
    let received = false;
    for (;;) {
      // A server's frame: FIN and opcode, then a 7-, 16- or 64-bit length (never masked).
      if (this.buffered.length < 2) break;
      const length7 = this.buffered[1]! & 0x7f;
      const headerBytes = length7 === 126 ? 4 : length7 === 127 ? 10 : 2;
      if (this.buffered.length < headerBytes) break;
      const length = length7 === 126 ? this.buffered.readUInt16BE(2) : length7 === 127 ? Number(this.buffered.readBigUInt64BE(2)) : length7;
      if (this.buffered.length < headerBytes + length) break;
      const opcode = this.buffered[0]! & 0x0f;
      const payload = this.buffered.subarray(headerBytes, headerBytes + length);
      this.buffered = this.buffered.subarray(headerBytes + length);
      if (opcode === 1) {
        this.messages.push(payload.toString('utf8'));
        received = true;
      } else if (opcode === 9) {
        // Pings are answered, as any client does, so the host keeps the socket.
        this.socket.write(Buffer.concat([Buffer.from([0x8a, 0x80 | payload.length, 0, 0, 0, 0]), payload]));
      }
    }
    if (received) this.wake();
  }
}
