/**
 * The HTTP edge of /mcp: the loopback Host and Origin guards, refused and malformed bodies as
 * JSON-RPC errors, and nothing of an MCP exchange outliving its request.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { rmSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestServer, request, type TestServer } from '../support/helpers.ts';
import { CLOSE_GRACE_MS } from '../../src/server/server.ts';

let t: TestServer;
before(async () => {
  t = await startTestServer();
});
after(() => t.close());

async function connect(url: string): Promise<Client> {
  const c = new Client({ name: 'satchel-test', version: '1.0.0' });
  await c.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
  return c;
}

test('nothing outlives its request: a host with clients still connected closes at once', async () => {
  const host = await startTestServer();
  const clients = await Promise.all(Array.from({ length: 4 }, () => connect(host.url)));
  await Promise.all(clients.map((c) => c.callTool({ name: 'list_recent_snippets', arguments: {} })));
  // The clients are left open, as agents that never say goodbye. A session or a notification
  // stream would hold the close for its grace period.
  const started = performance.now();
  await host.server.close();
  const took = performance.now() - started;
  await host.core.close();
  rmSync(host.dataDir, { recursive: true, force: true });
  assert.ok(took < CLOSE_GRACE_MS / 2, `close took ${took.toFixed(0)} ms`);
  await Promise.all(clients.map((c) => c.close()));
});

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
};
const MCP_HEADERS = { accept: 'application/json, text/event-stream' };

test('/mcp is behind the loopback Host and Origin guards', async () => {
  const foreign = await request(t.url, 'POST', '/mcp', { body: INITIALIZE, headers: { ...MCP_HEADERS, origin: 'https://evil.example' } });
  assert.equal(foreign.status, 403);
  assert.equal(foreign.json?.error?.code, 'foreign_origin');
  const crossSite = await request(t.url, 'POST', '/mcp', { body: INITIALIZE, headers: { ...MCP_HEADERS, 'sec-fetch-site': 'cross-site' } });
  assert.equal(crossSite.status, 403);

  const rebound = await rawPost('/mcp', JSON.stringify(INITIALIZE), { host: 'evil.example', ...MCP_HEADERS });
  assert.equal(rebound.status, 421);
  assert.equal(JSON.parse(rebound.body).error.code, 'foreign_host');

  const local = await request(t.url, 'POST', '/mcp', { body: INITIALIZE, headers: { ...MCP_HEADERS, origin: 'http://localhost:5173' } });
  assert.equal(local.status, 200);
  assert.equal(local.json?.result?.serverInfo?.name, 'satchel');
  assert.equal(local.json?.result?.capabilities?.tools !== undefined, true);
});

test('malformed and refused bodies are JSON-RPC errors; the host keeps serving', async () => {
  const malformed = await request(t.url, 'POST', '/mcp', { body: '{"jsonrpc":"2.0","id":1,', headers: MCP_HEADERS });
  assert.equal(malformed.status, 400);
  assert.deepEqual({ ...malformed.json, error: { code: malformed.json?.error?.code } }, { jsonrpc: '2.0', id: null, error: { code: -32700 } });

  const notJsonRpc = await request(t.url, 'POST', '/mcp', { body: { hello: 'world' }, headers: MCP_HEADERS });
  assert.equal(notJsonRpc.status, 400);
  assert.equal(notJsonRpc.json?.error?.code, -32700);

  const empty = await request(t.url, 'POST', '/mcp', { headers: { ...MCP_HEADERS, 'content-type': 'application/json' } });
  assert.equal(empty.status, 400);
  assert.equal(empty.json?.error?.code, -32700);

  const plain = await request(t.url, 'POST', '/mcp', { body: 'hello', headers: { ...MCP_HEADERS, 'content-type': 'text/plain' } });
  assert.equal(plain.status, 415);
  assert.equal(plain.json?.jsonrpc, '2.0');

  const unacceptable = await request(t.url, 'POST', '/mcp', { body: INITIALIZE, headers: { accept: 'text/html' } });
  assert.equal(unacceptable.status, 406);

  const badQuery = await request(t.url, 'POST', '/mcp?transferables=maybe', { body: INITIALIZE, headers: MCP_HEADERS });
  assert.equal(badQuery.status, 400);
  assert.equal(badQuery.json?.error?.data?.code, 'invalid_input');

  const get = await request(t.url, 'GET', '/mcp', { headers: { accept: 'text/event-stream' } });
  assert.equal(get.status, 405);

  assert.equal((await request(t.url, 'GET', '/.well-known/health')).status, 200);
});

test('a body over the host limit is refused on /mcp as a JSON-RPC error', async () => {
  const small = await startTestServer({ bodyLimit: 1024 });
  try {
    const big = await request(small.url, 'POST', '/mcp', {
      body: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'save_snippet', arguments: { content: 'x'.repeat(4096) } } },
      headers: MCP_HEADERS,
    });
    assert.equal(big.status, 413);
    assert.equal(big.json?.error?.code, -32000);
    assert.equal(small.core.assets.identifiers().length, 0);
  } finally {
    await small.close();
  }
});

/** A POST with a Host header fetch would not let us set. */
function rawPost(path: string, body: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const url = new URL(t.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
