/**
 * HTTP to one Satchel server over a keep-alive undici Pool. Every reply is read fully (so the
 * connection returns to the pool) and every failure becomes a ClientError.
 */
import { Pool } from 'undici';
import { ClientError } from './errors.ts';

export type Query = Readonly<Record<string, string | number | boolean | undefined>>;

export interface RequestOptions {
  readonly query?: Query;
  /** Sent as JSON; a bare string or boolean is sent as a JSON scalar, as the Pieces client does. */
  readonly body?: unknown;
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

export class HttpTransport {
  readonly baseUrl: string;
  private readonly pool: Pool;
  private readonly timeoutMs: number;

  constructor(baseUrl: string, options: { connections?: number; timeoutMs?: number } = {}) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.pool = new Pool(this.baseUrl, { connections: options.connections ?? 8, keepAliveTimeout: 10_000 });
  }

  async json<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const text = await this.send(method, path, options);
    try {
      return JSON.parse(text) as T;
    } catch (cause) {
      throw new ClientError(502, 'bad_reply', `${method} ${path} answered with a body that is not JSON`, { cause });
    }
  }

  /** String operations answer text/plain, or a JSON-encoded string. */
  async text(method: string, path: string, options: RequestOptions = {}): Promise<string> {
    const text = await this.send(method, path, options);
    if (text.startsWith('"')) {
      try {
        const parsed: unknown = JSON.parse(text);
        if (typeof parsed === 'string') return parsed;
      } catch {
        // Plain text that happens to start with a quote.
      }
    }
    return text;
  }

  async void(method: string, path: string, options: RequestOptions = {}): Promise<void> {
    await this.send(method, path, options);
  }

  private async send(method: string, path: string, options: RequestOptions): Promise<string> {
    const url = path + queryString(options.query);
    const headers: Record<string, string> = {};
    let body: string | undefined;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const timeout = AbortSignal.timeout(options.timeoutMs ?? this.timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    let statusCode: number;
    let text: string;
    try {
      const reply = await this.pool.request({ method: method as 'GET', path: url, headers, body: body ?? null, signal });
      statusCode = reply.statusCode;
      text = await reply.body.text();
    } catch (cause) {
      if (options.signal?.aborted) throw new ClientError(0, 'aborted', `${method} ${path} was cancelled`, { cause });
      if (timeout.aborted) throw new ClientError(0, 'timeout', `${method} ${path} timed out`, { cause });
      throw ClientError.unreachableAt(this.baseUrl, cause);
    }
    if (statusCode < 200 || statusCode >= 300) throw ClientError.fromReply(statusCode, text);
    return text;
  }

  async close(): Promise<void> {
    await this.pool.close().catch(() => this.pool.destroy());
  }
}

export function queryString(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Encodes one path segment (ids are UUIDs, but tag texts and website URLs are not). */
export function seg(value: string): string {
  return encodeURIComponent(value);
}
