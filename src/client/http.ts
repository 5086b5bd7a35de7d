/**
 * HTTP to one Satchel server over a keep-alive connection pool (pool.ts: undici's, or Node's own in
 * the extension). Each call names a declared operation
 * (src/wire): its method and path, path parameters and body typed from the declaration, the reply
 * read the way the operation answers. Replies are read fully (so the connection returns to the
 * pool), NDJSON ones line by line as they arrive; every failure becomes a ClientError.
 */
import type { z } from 'zod';
import { ClientError } from './errors.ts';
import { deadline } from './deadline.ts';
import { openPool } from './undiciPool.ts';
import type { OpenPool, Pool, PoolReply } from './pool.ts';
import { pathOf, type Method, type Operation, type PathParams, type ReplyOf } from '../wire/operation.ts';

export type Query = Readonly<Record<string, string | number | boolean | undefined>>;

interface RequestOptions {
  readonly query?: Query | undefined;
  /** Sent as they are, over the transport's own (a conditional write's If-Match, another author). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** Sent as JSON; a bare string or boolean is sent as a JSON scalar, as the Pieces client does. */
  readonly body?: unknown;
  /** The body's JSON text in pieces, in place of `body` (callWithJsonPieces). */
  readonly jsonPieces?: AsyncIterable<string | Uint8Array> | undefined;
  readonly signal?: AbortSignal | undefined;
  readonly timeoutMs?: number | undefined;
}

/** `params` names every `:name` of the path, and only those. */
type ParamsOption<O extends Operation> = [PathParams<O['path']>] extends [never]
  ? { readonly params?: undefined }
  : { readonly params: { readonly [K in PathParams<O['path']>]: string } };

/** `body` as the operation's schema takes it (required unless the schema allows none); none where it reads none. */
type BodyOption<O extends Operation> = O extends Operation<string, infer Body extends z.ZodType>
  ? undefined extends z.input<Body>
    ? { readonly body?: z.input<Body> }
    : { readonly body: z.input<Body> }
  : { readonly body?: undefined };

export type CallOptions<O extends Operation> = ParamsOption<O> &
  BodyOption<O> & {
    readonly query?: Query;
    readonly headers?: Readonly<Record<string, string>>;
    readonly signal?: AbortSignal;
    /** The whole request's time limit; NDJSON replies have none unless one is given (their lines show progress). */
    readonly timeoutMs?: number;
  };

/** The options may be left out when the operation needs neither parameters nor a body. */
type CallArgs<O extends Operation> = {} extends CallOptions<O> ? [options?: CallOptions<O>] : [options: CallOptions<O>];

/** What a call resolves to: the parsed document, the text, nothing, or the NDJSON lines as they arrive. */
export type CallResult<O extends Operation> = O['reply']['kind'] extends 'void'
  ? void
  : O['reply']['kind'] extends 'ndjson'
    ? AsyncIterable<ReplyOf<O>>
    : ReplyOf<O>;

/** A reply with the revision its ETag names (an asset's current revision, for reads and writes of assets). */
export interface Revised<T> {
  readonly value: T;
  readonly revision: string | undefined;
}

export class HttpTransport {
  readonly baseUrl: string;
  private readonly pool: Pool;
  private readonly timeoutMs: number;
  private readonly headers: Readonly<Record<string, string>>;

  /**
   * `headers` go with every request (Satchel's own client names its author in one); `openPool` is
   * undici's unless given (the extension's bundle puts Node's own in its place: pool.ts).
   */
  constructor(baseUrl: string, options: { connections?: number; timeoutMs?: number; headers?: Readonly<Record<string, string>>; openPool?: OpenPool } = {}) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.headers = options.headers ?? {};
    this.pool = (options.openPool ?? openPool)(this.baseUrl, { connections: options.connections ?? 8, keepAliveTimeoutMs: 10_000 });
  }

  /** Calls a declared operation. */
  call<O extends Operation>(op: O, ...options: CallArgs<O>): Promise<CallResult<O>>;
  async call(op: Operation, options: RequestOptions & { readonly params?: Readonly<Record<string, string>> } = {}): Promise<unknown> {
    return (await this.revised(op, options)).value;
  }

  /**
   * Calls a declared operation whose body is too large to build as one string on a thread that must
   * stay responsive (the extension host's): `pieces` yields the body's JSON text, each piece written
   * as the connection takes it. The caller answers for the text being the operation's body; the
   * host checks it as any other.
   */
  callWithJsonPieces<O extends Operation>(op: O, pieces: AsyncIterable<string | Uint8Array>, options: { readonly signal?: AbortSignal }): Promise<CallResult<O>>;
  async callWithJsonPieces(op: Operation, pieces: AsyncIterable<string | Uint8Array>, options: { readonly signal?: AbortSignal }): Promise<unknown> {
    return (await this.revised(op, { jsonPieces: pieces, signal: options.signal })).value;
  }

  /** Calls a JSON or text operation and reads the revision its reply's ETag names. */
  callRevised<O extends Operation>(op: O, ...options: CallArgs<O>): Promise<Revised<CallResult<O>>>;
  callRevised(op: Operation, options: RequestOptions & { readonly params?: Readonly<Record<string, string>> } = {}): Promise<Revised<unknown>> {
    return this.revised(op, options);
  }

  private async revised(op: Operation, options: RequestOptions & { readonly params?: Readonly<Record<string, string>> }): Promise<Revised<unknown>> {
    const { params, ...request } = options;
    const path = pathOf(op, params);
    switch (op.reply.kind) {
      case 'json':
        return this.json(op.method, path, request);
      case 'text':
        return this.text(op.method, path, request);
      case 'void':
        return { ...(await this.send(op.method, path, request)), value: undefined };
      case 'ndjson':
        return { value: await this.lines(op.method, path, request), revision: undefined };
    }
  }

  private async json(method: Method, path: string, options: RequestOptions): Promise<Revised<unknown>> {
    const { value: text, revision } = await this.send(method, path, options);
    try {
      return { value: JSON.parse(text) as unknown, revision };
    } catch (cause) {
      throw new ClientError(502, 'bad_reply', `${method} ${path} answered with a body that is not JSON`, { cause });
    }
  }

  /** String operations answer text/plain, or a JSON-encoded string. */
  private async text(method: Method, path: string, options: RequestOptions): Promise<Revised<string>> {
    const sent = await this.send(method, path, options);
    if (sent.value.startsWith('"')) {
      try {
        const parsed: unknown = JSON.parse(sent.value);
        if (typeof parsed === 'string') return { ...sent, value: parsed };
      } catch {
        // Plain text that happens to start with a quote.
      }
    }
    return sent;
  }

  /** The whole reply's text, and the revision its ETag names. */
  private async send(method: Method, path: string, options: RequestOptions): Promise<Revised<string>> {
    const { reply, fail, settle } = await this.open(method, path, options, options.timeoutMs ?? this.timeoutMs);
    try {
      return { value: await reply.body.text(), revision: revisionOfEtag(reply.headers.etag) };
    } catch (cause) {
      throw fail(cause);
    } finally {
      settle();
    }
  }

  /**
   * The lines of an NDJSON reply, each parsed, as they arrive. Without a `timeoutMs` only the
   * caller's signal ends it (the lines show it is alive); leaving the loop early closes the reply.
   */
  private async lines(method: Method, path: string, options: RequestOptions): Promise<AsyncIterable<unknown>> {
    const { reply, fail, settle } = await this.open(method, path, options, options.timeoutMs);
    return (async function* parsed(): AsyncGenerator<unknown> {
      // Decoded as a stream: a character may be split between chunks.
      const decoder = new TextDecoder();
      const chunks = reply.body[Symbol.asyncIterator]();
      let rest = '';
      try {
        for (;;) {
          let next: IteratorResult<Buffer>;
          try {
            next = await chunks.next();
          } catch (cause) {
            throw fail(cause);
          }
          if (next.done) return;
          // Searched from where this chunk starts and cut once per chunk: linear in the reply,
          // however its lines fall across chunks.
          const searchFrom = rest.length;
          rest += decoder.decode(next.value, { stream: true });
          let start = 0;
          for (let newline = rest.indexOf('\n', searchFrom); newline !== -1; newline = rest.indexOf('\n', start)) {
            const line = rest.slice(start, newline);
            start = newline + 1;
            if (line.trim() !== '') yield parseLine(line, method, path);
          }
          rest = rest.slice(start);
        }
      } finally {
        // A caller that stops reading (it has what it wanted) lets the connection go.
        reply.body.destroy();
        settle();
      }
    })();
  }

  /**
   * Sends the request and checks the status; `fail` says why the reply could not be read
   * (cancelled by the caller, out of time, or the host unreachable). The time limit covers reading
   * the reply too: the caller calls `settle` once it has read it or given up.
   */
  private async open(
    method: Method,
    path: string,
    options: RequestOptions,
    timeoutMs: number | undefined,
  ): Promise<{ reply: PoolReply; fail: (cause: unknown) => ClientError; settle: () => void }> {
    const limit = deadline(options.signal, timeoutMs);
    const fail = (cause: unknown): ClientError => {
      if (options.signal?.aborted) return new ClientError(0, 'aborted', `${method} ${path} was cancelled`, { cause });
      if (limit.timedOut) return new ClientError(0, 'timeout', `${method} ${path} timed out`, { cause });
      return ClientError.unreachableAt(this.baseUrl, cause);
    };
    const headers: Record<string, string> = { ...this.headers, ...options.headers };
    let body: string | AsyncIterable<string | Uint8Array> | null = null;
    if (options.jsonPieces !== undefined) {
      body = options.jsonPieces;
      headers['content-type'] = 'application/json';
    } else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    let reply: PoolReply;
    let text: string;
    try {
      reply = await this.pool.request({ method, path: path + queryString(options.query), headers, body, signal: limit.signal });
      if (reply.statusCode >= 200 && reply.statusCode < 300) return { reply, fail, settle: limit.settle };
      text = await reply.body.text();
    } catch (cause) {
      limit.settle();
      throw fail(cause);
    }
    limit.settle();
    throw ClientError.fromReply(reply.statusCode, text);
  }

  async close(): Promise<void> {
    await this.pool.close().catch(() => this.pool.destroy());
  }
}

function parseLine(line: string, method: Method, path: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch (cause) {
    throw new ClientError(502, 'bad_reply', `${method} ${path} answered with a line that is not JSON`, { cause });
  }
}

/** The revision a strong ETag names (`"…"`), as the history routes and asset replies send it. */
function revisionOfEtag(etag: string | string[] | undefined): string | undefined {
  const value = Array.isArray(etag) ? etag[0] : etag;
  return value === undefined ? undefined : value.replace(/^W\//, '').replace(/^"(.*)"$/, '$1');
}

function queryString(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}
