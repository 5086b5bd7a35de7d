/**
 * The transport's pool (pool.ts) over Node's own http module and a keep-alive Agent: what the
 * extension's bundle uses in place of undici (esbuild.mjs). The extension host has loaded node:http
 * before any extension starts, where undici's Pool is 290 kB the editor would compile and run at
 * every start (docs/performance.md, activation). Plain HTTP only: the client talks to a loopback
 * host, or to a remote window's forwarded port, which is plain HTTP too.
 *
 * Requests are built with `new ClientRequest` (what `http.request` does) rather than through
 * `http.request`: VS Code replaces the extension host's `http.request` with its proxy support
 * (@vscode/proxy-agent), which for every request reads three settings and builds a proxy agent and a
 * proxy lookup, only to go direct to a loopback address (bench:day's profiles: 105 ms of the
 * extension host's time in 45 s of back-fill, and the garbage of each request).
 */
import { Agent, ClientRequest, type IncomingMessage } from 'node:http';
import type { OpenPool, Pool, PoolReply, PoolReplyBody, PoolRequest } from './pool.ts';

export const openPool: OpenPool = (origin, options) => new NodeHttpPool(origin, options.connections, options.keepAliveTimeoutMs);

class NodeHttpPool implements Pool {
  private readonly agent: Agent;
  private readonly host: string;
  private readonly port: number;
  private readonly open = new Set<Promise<unknown>>();

  constructor(origin: string, connections: number, keepAliveTimeoutMs: number) {
    const url = new URL(origin);
    if (url.protocol !== 'http:') throw new Error(`${origin}: the extension's client speaks plain HTTP only`);
    this.host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    this.port = url.port === '' ? 80 : Number(url.port);
    // `timeout` closes a connection idle that long in the free list (Node's Agent leaves busy ones alone).
    this.agent = new Agent({ keepAlive: true, maxSockets: connections, timeout: keepAliveTimeoutMs });
  }

  request(request: PoolRequest): Promise<PoolReply> {
    const sent = new Promise<PoolReply>((resolve, reject) => {
      const outgoing = new ClientRequest(
        { host: this.host, port: this.port, method: request.method, path: request.path, headers: request.headers, agent: this.agent, signal: request.signal },
        (reply) => resolve({ statusCode: reply.statusCode ?? 0, headers: reply.headers, body: bodyOf(reply) }),
      );
      outgoing.on('error', reject);
      if (request.body === null || typeof request.body === 'string') outgoing.end(request.body ?? undefined);
      else writePieces(outgoing, request.body).catch((error: unknown) => outgoing.destroy(error instanceof Error ? error : new Error(String(error))));
    });
    this.open.add(sent);
    const settled = (): void => void this.open.delete(sent);
    sent.then(settled, settled);
    return sent;
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.open]);
    this.agent.destroy();
  }

  async destroy(): Promise<void> {
    this.agent.destroy();
  }
}

/** Writes a body's pieces as the socket takes them, waiting for it to drain; stops if the request is destroyed. */
async function writePieces(outgoing: ClientRequest, pieces: AsyncIterable<string | Uint8Array>): Promise<void> {
  for await (const piece of pieces) {
    if (outgoing.destroyed) return;
    if (!outgoing.write(piece)) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          outgoing.off('drain', done);
          outgoing.off('close', done);
          resolve();
        };
        outgoing.on('drain', done);
        outgoing.on('close', done);
      });
    }
  }
  if (!outgoing.destroyed) outgoing.end();
}

function bodyOf(reply: IncomingMessage): PoolReplyBody {
  return {
    async text() {
      const chunks: Buffer[] = [];
      for await (const chunk of reply) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
    [Symbol.asyncIterator]: () => reply[Symbol.asyncIterator](),
    destroy: () => void reply.destroy(),
  };
}
