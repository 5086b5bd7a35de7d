/**
 * A 127.0.0.1 file server for download tests: Range, ETag and If-Range like a model hub, plus
 * faults on demand: drop the connection after some bytes, ignore Range, slow down, change a file.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';
import type { AddressInfo, Socket } from 'node:net';

export interface ServedRequest {
  readonly path: string;
  readonly range?: string;
  readonly ifRange?: string;
  readonly status: number;
}

export class FileServer {
  readonly requests: ServedRequest[] = [];
  /** Answer 200 with the whole file even when asked for a range. */
  ignoreRange = false;
  /** Bytes per second for bodies (0 = as fast as possible). */
  rate = 0;
  /** Each entry drops one response after that many body bytes (consumed in order). */
  readonly drops: number[] = [];
  private readonly files = new Map<string, { data: Buffer; etag: string }>();
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private version = 0;

  private constructor(server: Server) {
    this.server = server;
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  static async start(): Promise<FileServer> {
    const server = createServer();
    const files = new FileServer(server);
    server.on('request', (req, res) => void files.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return files;
  }

  get base(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/`;
  }

  url(name: string): string {
    return this.base + encodeURIComponent(name);
  }

  /** Serves `data` at `/name` with a new ETag (so a resume of the old content is refused). */
  set(name: string, data: Buffer): string {
    this.files.set(name, { data, etag: `"${++this.version}-${createHash('sha1').update(data).digest('hex').slice(0, 12)}"` });
    return createHash('sha256').update(data).digest('hex');
  }

  requestsFor(name: string): ServedRequest[] {
    return this.requests.filter((r) => r.path === `/${encodeURIComponent(name)}`);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = req.url ?? '/';
    const file = this.files.get(decodeURIComponent(path.slice(1)));
    const record = (status: number) =>
      this.requests.push({
        path,
        status,
        ...(req.headers.range ? { range: req.headers.range } : {}),
        ...(typeof req.headers['if-range'] === 'string' ? { ifRange: req.headers['if-range'] } : {}),
      });
    if (!file) {
      record(404);
      res.writeHead(404).end('not found');
      return;
    }
    let start = 0;
    let status = 200;
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    const ifRange = req.headers['if-range'];
    if (range && !this.ignoreRange && (ifRange === undefined || ifRange === file.etag)) {
      start = Number(range[1]);
      if (start >= file.data.length) {
        record(416);
        res.writeHead(416, { 'content-range': `bytes */${file.data.length}` }).end();
        return;
      }
      status = 206;
    }
    record(status);
    const body = file.data.subarray(start);
    res.writeHead(status, {
      'content-type': 'application/octet-stream',
      'content-length': String(body.length),
      etag: file.etag,
      'accept-ranges': 'bytes',
      ...(status === 206 ? { 'content-range': `bytes ${start}-${file.data.length - 1}/${file.data.length}` } : {}),
    });
    const dropAt = this.drops.shift();
    const chunk = 16 * 1024;
    for (let offset = 0; offset < body.length; offset += chunk) {
      if (res.destroyed) return;
      const piece = body.subarray(offset, Math.min(offset + chunk, body.length));
      if (dropAt !== undefined && offset + piece.length > dropAt) {
        res.write(piece.subarray(0, Math.max(0, dropAt - offset)));
        // Let the partial bytes leave before the connection is cut, like a real network drop.
        await new Promise((resolve) => setTimeout(resolve, 20));
        res.socket?.destroy();
        return;
      }
      if (!res.write(piece)) await new Promise((resolve) => res.once('drain', resolve));
      if (this.rate > 0) await new Promise((resolve) => setTimeout(resolve, (piece.length / this.rate) * 1000));
    }
    res.end();
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
