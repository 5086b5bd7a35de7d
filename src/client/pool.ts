/**
 * What the HTTP transport (http.ts) needs of a connection pool to one origin: a request with a JSON
 * or empty body, answered with the status, headers and a body read whole or chunk by chunk. Two
 * implementations: undici's Pool (undiciPool.ts), which the data host, connector and CLI use, and
 * Node's own http Agent (nodeHttpPool.ts), which the extension's bundle uses in its place because
 * the editor loads it at every start (esbuild.mjs; the measured reason is in docs/performance.md).
 */
export interface PoolRequest {
  readonly method: string;
  /** The path with its query string. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  /** JSON text whole, or in pieces (text or its UTF-8 bytes) written as they come (a large body never held as one string). */
  readonly body: string | AsyncIterable<string | Uint8Array> | null;
  readonly signal: AbortSignal;
}

export interface PoolReplyBody extends AsyncIterable<Buffer> {
  text(): Promise<string>;
  /** Lets the connection go without reading the rest. */
  destroy(): void;
}

export interface PoolReply {
  readonly statusCode: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: PoolReplyBody;
}

export interface Pool {
  request(request: PoolRequest): Promise<PoolReply>;
  /** Waits for the requests under way, then closes the connections. */
  close(): Promise<void>;
  destroy(): Promise<void>;
}

export interface PoolOptions {
  /** At most this many connections at once. */
  readonly connections: number;
  /** How long an idle connection is kept for the next request. */
  readonly keepAliveTimeoutMs: number;
}

export type OpenPool = (origin: string, options: PoolOptions) => Pool;
