/**
 * Tools in a container reach the host's loopback through Docker Desktop as `host.docker.internal`,
 * which the DNS-rebinding guard refuses as a foreign Host. The user may allow such names: then
 * HTTP, WebSocket and /mcp answer them, while every other name is still refused and no web page
 * of that name passes the Origin check.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { rmSync } from 'node:fs';
import { WebSocket } from 'ws';
import { Satchel } from '../../src/core/satchel.ts';
import { serve, type SatchelServer } from '../../src/server/server.ts';
import { silentLogger } from '../../src/core/context.ts';
import { InvalidInputError } from '../../src/core/errors.ts';
import { tempDir } from '../support/helpers.ts';

const dataDir = tempDir('satchel-hosts-');
const core = Satchel.open({ dataDir, logger: silentLogger });
const servers: SatchelServer[] = [];
after(async () => {
  for (const server of servers) await server.close();
  await core.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function start(allowedHosts?: readonly string[]): Promise<SatchelServer> {
  const server = await serve(core, { logger: silentLogger, port: 0, ...(allowedHosts ? { allowedHosts } : {}) });
  servers.push(server);
  return server;
}

function get(server: SatchelServer, path: string, headers: Record<string, string>, method = 'GET', body?: string): Promise<{ status: number; code: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: server.port, path, method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        let code: string | undefined;
        try {
          code = (JSON.parse(text) as { error?: { code?: string } }).error?.code;
        } catch {
          code = undefined;
        }
        resolve({ status: res.statusCode ?? 0, code });
      });
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

function upgrade(server: SatchelServer, host: string): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/.well-known/stream/health`, { headers: { host } });
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('open', () => {
      ws.close();
      resolve(101);
    });
    ws.on('error', () => {});
  });
}

const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } } });
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

test('by default host.docker.internal is a foreign Host: refused on HTTP, WebSocket and /mcp', async () => {
  const server = await start();
  assert.deepEqual(await get(server, '/.well-known/health', { host: 'host.docker.internal:39300' }), { status: 421, code: 'foreign_host' });
  assert.equal(await upgrade(server, 'host.docker.internal:39300'), 421);
  assert.equal((await get(server, '/mcp', { host: 'host.docker.internal:39300', ...MCP_HEADERS }, 'POST', INITIALIZE)).status, 421);
});

test('an allowed name is answered everywhere; other names and its web pages are still refused', async () => {
  const server = await start([' Host.Docker.Internal ']);
  assert.equal((await get(server, '/.well-known/health', { host: 'host.docker.internal:39300' })).status, 200);
  assert.equal((await get(server, '/.well-known/health', { host: 'HOST.DOCKER.INTERNAL' })).status, 200);
  assert.equal(await upgrade(server, 'host.docker.internal:39300'), 101);
  assert.equal((await get(server, '/mcp', { host: 'host.docker.internal:39300', ...MCP_HEADERS }, 'POST', INITIALIZE)).status, 200);
  // Loopback names still work; a rebinding name does not.
  assert.equal((await get(server, '/.well-known/health', { host: 'localhost:39300' })).status, 200);
  assert.deepEqual(await get(server, '/.well-known/health', { host: 'attacker.example' }), { status: 421, code: 'foreign_host' });
  assert.deepEqual(await get(server, '/.well-known/health', { host: 'docker.internal' }), { status: 421, code: 'foreign_host' });
  // Allowing the name as a Host does not make a page served under it a trusted Origin.
  assert.deepEqual(await get(server, '/.well-known/health', { host: 'host.docker.internal', origin: 'http://host.docker.internal:8080' }), { status: 403, code: 'foreign_origin' });
  assert.equal((await get(server, '/.well-known/health', { host: 'host.docker.internal', 'sec-fetch-site': 'cross-site' })).status, 403);
});

test('an allowed host must be a plain host name: a port, a wildcard or a URL is refused before listening', async () => {
  for (const bad of ['host.docker.internal:39300', '*', '*.internal', 'http://host.docker.internal', '', 'a b']) {
    await assert.rejects(start([bad]), (error: Error) => error instanceof InvalidInputError && error.message.includes('is not a host name'), bad);
  }
});
