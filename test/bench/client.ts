/** A keep-alive HTTP client for the benchmark (undici Pool), with timing and bounded concurrency. */
import { Pool } from 'undici';

export interface Reply {
  readonly status: number;
  readonly body: unknown;
  readonly text: string;
  /** Milliseconds from sending the request to reading the whole body. */
  readonly ms: number;
}

const STALE_SOCKET = new Set(['UND_ERR_SOCKET', 'EPIPE', 'ECONNRESET']);

export class BenchClient {
  readonly url: string;
  private readonly pool: Pool;

  constructor(url: string, connections = 16) {
    this.url = url;
    this.pool = new Pool(url, { connections, pipelining: 1, keepAliveTimeout: 60_000 });
  }

  async request(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Reply> {
    const options = {
      method,
      path,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    };
    let started = performance.now();
    let response;
    try {
      response = await this.pool.request(options);
    } catch (error) {
      // The in-process baselines block this event loop for seconds, long enough for the server to
      // close an idle keep-alive connection unnoticed; such a request never reached the server.
      // The write to such a socket fails as UND_ERR_SOCKET, EPIPE or ECONNRESET depending on timing.
      if (!STALE_SOCKET.has((error as { code?: string }).code ?? '')) throw error;
      started = performance.now();
      response = await this.pool.request(options);
    }
    const text = await response.body.text();
    const ms = performance.now() - started;
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    return { status: response.statusCode, body: parsed, text, ms };
  }

  /** Like request, but a non-2xx status throws with the reply in the message. */
  async ok(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Reply> {
    const reply = await this.request(method, path, body);
    if (reply.status < 200 || reply.status >= 300) throw new HttpFailure(method, path, reply);
    return reply;
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

export class HttpFailure extends Error {
  readonly reply: Reply;
  constructor(method: string, path: string, reply: Reply) {
    super(`${method} ${path} → ${reply.status} ${reply.text.slice(0, 300)}`);
    this.reply = reply;
  }
}

/** Runs `work` over `items` with at most `concurrency` in flight; the first failure stops all and rejects. */
export async function forEachConcurrent<T>(items: readonly T[], concurrency: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (next < items.length && !failed) {
      const index = next++;
      try {
        await work(items[index]!, index);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}
