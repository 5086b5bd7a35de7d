/**
 * Replies too large to hold twice, read as they come: their bytes are counted and markers counted
 * in them, and the text is kept only when asked (to parse once health is no longer probed).
 */
import { request as httpRequest } from 'node:http';

export interface ScannedReply {
  readonly status: number;
  readonly bytes: number;
  /** How many times each match of `pattern` occurred, by its first group (or the whole match). */
  readonly counts: ReadonlyMap<string, number>;
  readonly ms: number;
  /** The whole reply, when `keep` was set. */
  readonly text?: string;
  /** Its last characters. */
  readonly tail: string;
}

export interface ScanOptions {
  readonly method?: string;
  readonly body?: string;
  /** What to count, a global pattern whose matches are shorter than 64 characters. */
  readonly pattern?: RegExp;
  readonly keep?: boolean;
  readonly timeoutMs?: number;
}

export function fetchScanned(port: number, path: string, options: ScanOptions = {}): Promise<ScannedReply> {
  const method = options.method ?? 'GET';
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const headers: Record<string, string> = { host: `127.0.0.1:${port}`, ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}) };
    // A connection of its own: a kept-alive one may be closed by the host just as it is reused.
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      const counts = new Map<string, number>();
      const kept: Buffer[] = [];
      let bytes = 0;
      let carry = '';
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (options.keep) kept.push(chunk);
        // Latin-1 keeps one character per byte, so a match split across chunks is found in the carry
        // (one lying wholly in the carry was counted with the chunk before).
        const text = carry + chunk.toString('latin1');
        for (const match of options.pattern ? text.matchAll(options.pattern) : []) {
          if (match.index + match[0].length <= carry.length) continue;
          const key = match[1] ?? match[0];
          counts.set(key, (counts.get(key) ?? 0) + 1);
        }
        carry = text.slice(-64);
      });
      res.on('error', reject);
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          bytes,
          counts,
          ms: Math.round(performance.now() - started),
          tail: carry,
          ...(options.keep ? { text: Buffer.concat(kept).toString('utf8') } : {}),
        }),
      );
    });
    req.setTimeout(options.timeoutMs ?? 120_000, () => req.destroy(new Error(`timeout ${method} ${path}`)));
    req.on('error', reject);
    req.end(options.body);
  });
}
