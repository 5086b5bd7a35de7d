/**
 * Listens on loopback only (127.0.0.1, and ::1 where the machine has it), on the first free port of
 * a range, with HTTP and WebSocket on the same port. Which port it chose is the caller's to publish.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Satchel } from '../core/satchel.ts';
import type { Logger } from '../core/context.ts';
import { createApp, type AppOptions, type SatchelApp } from './app.ts';
import { rawErrorReply } from './errors.ts';
import { Emitter, type Event } from '../core/events.ts';

export const DEFAULT_PORT = 39300;
export const LAST_PORT = 39333;
/** Requests being handled get this long to finish when the server closes (a SIGTERM must end within 2 s). */
export const CLOSE_GRACE_MS = 1000;

export interface ServeOptions extends Omit<AppOptions, 'logger'> {
  readonly logger: Logger;
  /** An exact port (0 = any free one); when absent, the first free one of `portRange`. */
  readonly port?: number;
  /** Inclusive range tried in order when `port` is absent; default 39300–39333. */
  readonly portRange?: { readonly first: number; readonly last: number };
}

export interface SatchelServer {
  readonly port: number;
  readonly url: string;
  readonly app: SatchelApp;
  /** Open connections (HTTP keep-alive and WebSocket streams): whether anyone uses the host now. */
  readonly connections: number;
  /** Fires with the new count as connections open and close (the idle exit, hosting/idleExit.ts). */
  readonly onDidChangeConnections: Event<number>;
  close(): Promise<void>;
}

export async function serve(core: Satchel, options: ServeOptions): Promise<SatchelServer> {
  const app = createApp(core, options);
  const callback = app.koa.callback();
  const sockets = new Set<Socket>();
  const connectionChanges = new Emitter<number>();
  /** Requests whose body is still arriving: nothing of theirs is acknowledged, so a close ends them at once. */
  const receiving = new Set<IncomingMessage>();
  const track = (req: IncomingMessage, res: ServerResponse): void => {
    if (req.complete) return;
    receiving.add(req);
    const done = (): void => void receiving.delete(req);
    req.once('end', done);
    req.once('close', done);
    res.once('close', done);
  };
  const makeServer = (): Server => {
    const server = createServer({ requestTimeout: 120_000, headersTimeout: 30_000 }, (req, res) => {
      track(req, res);
      void callback(req, res);
    });
    server.on('upgrade', (req, socket, head) => app.streams.handleUpgrade(req, socket, head));
    server.on('connection', (socket) => {
      sockets.add(socket);
      connectionChanges.fire(sockets.size);
      socket.on('close', () => {
        sockets.delete(socket);
        connectionChanges.fire(sockets.size);
      });
    });
    server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
      // Requests Node's parser refuses never reach Koa; they still get the one JSON error shape.
      if (!socket.writable) {
        socket.destroy();
        return;
      }
      const [status, code, message] =
        error.code === 'HPE_HEADER_OVERFLOW'
          ? [431, 'header_too_large', 'The request line or headers are too large.']
          : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
            ? [408, 'request_timeout', 'The request was not received in time.']
            : [400, 'malformed_request', 'The request is not valid HTTP.'];
      // end() only half-closes: a client that keeps the connection open (a stalled upload) would
      // keep it, and whatever its request holds, forever. The socket goes once the answer is out.
      socket.end(rawErrorReply(status, code, message), () => socket.destroy());
    });
    return server;
  };

  const { first, last } = options.portRange ?? { first: DEFAULT_PORT, last: LAST_PORT };
  const candidates = options.port !== undefined ? [options.port] : range(first, last);
  let primary: Server | undefined;
  let port = 0;
  let lastError: unknown;
  for (const candidate of candidates) {
    const server = makeServer();
    try {
      port = await listen(server, candidate, '127.0.0.1');
      primary = server;
      break;
    } catch (error) {
      lastError = error;
      server.close();
    }
  }
  if (!primary) {
    const tried = options.port !== undefined ? `port ${options.port}` : `ports ${first}–${last}`;
    throw new Error(`Cannot listen on 127.0.0.1 (${tried}): ${(lastError as Error)?.message ?? 'unknown error'}`);
  }
  const servers: Server[] = [primary];
  const secondary = makeServer();
  try {
    await listen(secondary, port, '::1');
    servers.push(secondary);
  } catch {
    // No IPv6 loopback on this machine (or the port is taken there): 127.0.0.1 is enough.
    secondary.close();
  }

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      connectionChanges.dispose();
      app.streams.dispose();
      app.dispose();
      // `complete` is set once the whole message arrived, read or not (a GET or DELETE no parser read).
      for (const req of receiving) if (!req.complete) req.socket.destroy();
      await Promise.all(servers.map((server) => new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      })).concat(destroyAfter(sockets, CLOSE_GRACE_MS)));
    })();
    return closing;
  };

  return {
    port,
    url: `http://127.0.0.1:${port}`,
    app,
    get connections() {
      return sockets.size;
    },
    onDidChangeConnections: connectionChanges.event,
    close,
  };
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void => reject(error);
    server.once('error', onError);
    server.listen({ port, host, exclusive: true }, () => {
      server.off('error', onError);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

/** In-flight requests get a grace period; then their sockets are closed. */
function destroyAfter(sockets: Set<Socket>, ms: number): Promise<void> {
  if (sockets.size === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      clearInterval(check);
      for (const socket of sockets) socket.destroy();
      resolve();
    }, ms);
    const check = setInterval(() => {
      if (sockets.size === 0) {
        clearInterval(check);
        clearTimeout(timer);
        resolve();
      }
    }, 20);
  });
}
