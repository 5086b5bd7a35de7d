/** The transport's pool as undici's Pool (pool.ts); the extension's bundle uses nodeHttpPool.ts instead. */
import { Pool } from 'undici';
import type { OpenPool } from './pool.ts';

export const openPool: OpenPool = (origin, options) => new Pool(origin, { connections: options.connections, keepAliveTimeout: options.keepAliveTimeoutMs });
