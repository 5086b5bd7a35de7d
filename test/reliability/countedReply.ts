/** A GET whose reply is scanned as it arrives and not kept: for replies of hundreds of MB. */
import { request as httpRequest } from 'node:http';

export interface CountedReply {
  readonly status: number;
  readonly bytes: number;
  /** How many times each text matching the pattern occurs in the reply. */
  readonly counts: ReadonlyMap<string, number>;
  /** The reply's last characters. */
  readonly tail: string;
  readonly ms: number;
}

/** GETs `path`, counting the matches of `pattern` (global; a match is at most 64 characters long). */
export function fetchCounted(port: number, path: string, pattern: RegExp, timeoutMs = 300_000): Promise<CountedReply> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = httpRequest({ host: '127.0.0.1', port, path, headers: { host: `127.0.0.1:${port}` }, agent: false }, (res) => {
      let bytes = 0;
      let carry = '';
      const counts = new Map<string, number>();
      res.on('data', (chunk: Buffer) => {
        const text = carry + chunk.toString('latin1');
        for (const match of text.matchAll(pattern)) {
          // A match lying wholly in the carried-over characters was counted with the previous chunk.
          if (match.index + match[0].length <= carry.length) continue;
          counts.set(match[0], (counts.get(match[0]) ?? 0) + 1);
        }
        bytes += chunk.length;
        carry = text.slice(-64);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, counts, tail: carry, ms: Math.round(performance.now() - started) }));
      res.on('error', reject);
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`timeout GET ${path}`)));
    req.on('error', reject);
    req.end();
  });
}
