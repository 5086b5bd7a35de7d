/**
 * Shared test scaffolding: a real Satchel (store + server) on port 0 in a fresh temporary data
 * directory, and small HTTP helpers. Every HTTP test talks to 127.0.0.1 only.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Satchel, type CoreOptions } from '../../src/core/satchel.ts';
import { serve, type SatchelServer } from '../../src/server/server.ts';
import { silentLogger, type Logger } from '../../src/core/context.ts';
import { Configuration } from '@pieces.app/pieces-os-client';
import { SatchelClient } from '../../src/client/satchelClient.ts';
import { request as httpRequest } from 'node:http';

/** Every directory tempDir made in this process: removed when it exits, whatever a test left there. */
const madeDirs = new Set<string>();
process.once('exit', () => {
  for (const dir of madeDirs) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // A child still writing there: the system's temporary folder is cleaned in time anyway.
    }
  }
});

/** A fresh directory under the system's temporary folder, removed at the latest when the test file's process exits. */
export function tempDir(prefix = 'satchel-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  madeDirs.add(dir);
  return dir;
}

/**
 * Removes a test's data directory after a host was killed with SIGKILL: the host's own children (a
 * backup's VACUUM INTO, a WAL checkpoint) outlive it for a moment and may still add a file, which
 * makes one removal fail with ENOTEMPTY; retried for up to about 10 s.
 */
export function removeKilledHostDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true, maxRetries: 9, retryDelay: 200 });
}

/** A Satchel core (no server) on a fresh data directory, closed and removed after `fn`. */
export async function withCore<T>(fn: (core: Satchel) => Promise<T>, options: Partial<Omit<CoreOptions, 'dataDir'>> = {}): Promise<T> {
  const dataDir = tempDir();
  const core = Satchel.open({ ...options, dataDir });
  try {
    return await fn(core);
  } finally {
    await core.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export interface TestServer {
  readonly core: Satchel;
  readonly server: SatchelServer;
  readonly url: string;
  readonly dataDir: string;
  /** A configuration for the published client's API classes, pointed at this server. */
  readonly sdk: Configuration;
  close(): Promise<void>;
}

export interface TestServerOptions extends Partial<Omit<CoreOptions, 'dataDir'>> {
  readonly dataDir?: string;
  readonly bodyLimit?: number;
  readonly bodyInFlight?: number;
  readonly beforeLargeBody?: (bytes: number) => void;
  readonly logger?: Logger;
  /** The port to serve on (default 0: any free one). */
  readonly port?: number;
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? tempDir();
  const logger = options.logger ?? silentLogger;
  const core = Satchel.open({ ...options, dataDir, logger });
  const server = await serve(core, {
    logger,
    port: options.port ?? 0,
    ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
    ...(options.bodyInFlight ? { bodyInFlight: options.bodyInFlight } : {}),
    ...(options.beforeLargeBody ? { beforeLargeBody: options.beforeLargeBody } : {}),
  });
  return {
    core,
    server,
    url: server.url,
    dataDir,
    sdk: new Configuration({ basePath: server.url }),
    async close() {
      await server.close();
      await core.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Reply {
  readonly status: number;
  readonly type: string;
  readonly text: string;
  /** The body parsed as JSON (undefined when it is not JSON). */
  readonly json: any;
  /** The reply's ETag (an asset's current revision), or null. */
  readonly etag?: string | null;
}

/** One HTTP request with fetch; `body` objects are sent as JSON, strings as given. */
export async function request(
  url: string,
  method: string,
  path: string,
  init: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...init.headers };
  let body: string | undefined;
  if (init.body !== undefined) {
    body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(url + path, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, type: response.headers.get('content-type') ?? '', text, json, etag: response.headers.get('etag') };
}

/** POSTs JSON `body` with no declared length (chunked), written in pieces of the given sizes (the rest as the last). */
export function postChunked(url: string, path: string, body: Buffer, pieces: readonly number[]): Promise<{ status: number; text: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, method: 'POST', path, headers: { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    let at = 0;
    for (const size of pieces) {
      if (at >= body.length) break;
      req.write(body.subarray(at, at + size));
      at += size;
    }
    req.end(body.subarray(at));
  });
}

/** Asserts the one JSON error shape and returns its code. */
export function errorCode(reply: Reply): string {
  const code = reply.json?.error?.code;
  if (typeof code !== 'string' || typeof reply.json?.error?.message !== 'string') {
    throw new Error(`Expected a JSON error body, got ${reply.status} ${reply.text.slice(0, 200)}`);
  }
  return code;
}

/** Polls `condition` until it holds; fails after `timeoutMs`. */
export async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Runs `body` with a client of a fresh test server; both are closed afterwards, even on failure. */
export async function withClient(body: (client: SatchelClient, server: TestServer) => Promise<void>): Promise<void> {
  const server = await startTestServer();
  const client = new SatchelClient(server.url);
  try {
    await body(client, server);
  } finally {
    client.dispose();
    await server.close();
  }
}
