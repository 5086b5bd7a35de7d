/**
 * Replies too large to hold twice, read as they come: their bytes are counted and markers counted
 * in them, and the text is kept only when asked (to parse once health is no longer probed).
 */
import { request as httpRequest } from 'node:http';

export interface ScannedReply {
  readonly status: number;
  readonly bytes: number;
  /** How many times each marker occurred. */
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
  /** Literal strings to count (each shorter than 64 characters). */
  readonly markers?: readonly string[];
  readonly keep?: boolean;
  readonly timeoutMs?: number;
}

export function fetchScanned(port: number, path: string, options: ScanOptions = {}): Promise<ScannedReply> {
  const method = options.method ?? 'GET';
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const headers: Record<string, string> = { host: `127.0.0.1:${port}`, ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}) };
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      const counts = new Map<string, number>((options.markers ?? []).map((marker) => [marker, 0]));
      const kept: Buffer[] = [];
      let bytes = 0;
      let carry = '';
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (options.keep) kept.push(chunk);
        // Latin-1 keeps one character per byte, so a marker split across chunks is found in the carry.
        const text = carry + chunk.toString('latin1');
        for (const marker of options.markers ?? []) {
          let found = 0;
          for (let at = text.indexOf(marker); at !== -1; at = text.indexOf(marker, at + 1)) if (at + marker.length > carry.length) found++;
          counts.set(marker, counts.get(marker)! + found);
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
