/** The transport's pool as undici's Pool (pool.ts); the extension's bundle uses nodeHttpPool.ts instead. */
import { Readable } from 'node:stream';
import { Pool as UndiciPool } from 'undici';
import type { OpenPool, Pool } from './pool.ts';

export const openPool: OpenPool = (origin, options): Pool => {
  const pool = new UndiciPool(origin, { connections: options.connections, keepAliveTimeout: options.keepAliveTimeoutMs });
  return {
    // A body in pieces goes as a stream (undici takes a Readable, not an async iterable, in its types).
    request: (request) => pool.request({ ...request, body: request.body === null || typeof request.body === 'string' ? request.body : Readable.from(request.body) }),
    close: () => pool.close(),
    destroy: () => pool.destroy(),
  };
};
