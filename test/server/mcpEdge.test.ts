/**
 * The HTTP edge of /mcp: the loopback Host and Origin guards, refused and malformed bodies as
 * JSON-RPC errors, and nothing of an MCP exchange outliving its request.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { rmSync } from 'node:fs';
import { startTestServer, request, type TestServer } from '../support/helpers.ts';
import { callTool, connectMcp } from '../support/mcpClient.ts';
import { CLOSE_GRACE_MS } from '../../src/server/server.ts';
import { answerInTime } from '../../src/server/mcp/exchangeBounds.ts';

let t: TestServer;
before(async () => {
  t = await startTestServer();
});
after(() => t.close());

test('nothing outlives its request: a host with clients still connected closes at once', async () => {
  const host = await startTestServer();
  const clients = await Promise.all(Array.from({ length: 4 }, () => connectMcp(host.url, 'satchel-test')));
  await Promise.all(clients.map((c) => callTool(c, 'list_recent_snippets', {})));
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

/** A POST to /mcp that gives up after `timeoutMs` (an exchange that never ends fails the test, not hangs it). */
async function postMcp(body: unknown, timeoutMs = 5000): Promise<{ status: number; json: any; ms: number }> {
  const started = performance.now();
  const response = await fetch(`${t.url}/mcp`, {
    method: 'POST',
    headers: { ...MCP_HEADERS, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : undefined, ms: performance.now() - started };
}

const saveCall = (id: number, content: string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'save_snippet', arguments: { content, language: 'ts' } } });
const cancel = (requestId: number) => ({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason: 'the user stopped it' } });

test('a batch holding a request and its cancellation is answered at once, and the cancelled request does not run', async () => {
  const stored = (marker: string): boolean => t.core.assets.list().some((asset) => asset.formats.iterable.some((format) => format.fragment?.string?.raw?.includes(marker)));
  // Only the request and its cancellation: nothing is left to answer (as a batch of notifications).
  const alone = await postMcp([saveCall(7, 'export const cancelledAlone = 1;'), cancel(7)]);
  assert.equal(alone.status, 202);
  assert.equal(stored('cancelledAlone'), false);

  // With another request: that one is answered, the cancelled one is not.
  const mixed = await postMcp([saveCall(8, 'export const cancelledMixed = 2;'), { jsonrpc: '2.0', id: 9, method: 'tools/list' }, cancel(8)]);
  assert.equal(mixed.status, 200);
  // The SDK's transport answers a batch with one response as that response alone.
  const replies = [mixed.json].flat();
  assert.deepEqual(replies.map((reply) => reply.id), [9]);
  assert.ok(replies[0].result.tools.length > 0);
  assert.equal(stored('cancelledMixed'), false);

  // A cancellation of a request not in the batch changes nothing.
  const other = await postMcp([saveCall(10, 'export const keptSaved = 3;'), cancel(99)]);
  assert.equal(other.status, 200);
  assert.deepEqual([other.json].flat().map((reply) => reply.id), [10]);
  assert.equal(stored('keptSaved'), true);
});

test('every path the router sends to /mcp (/MCP, /Mcp/) answers refusals in JSON-RPC shape', async () => {
  for (const path of ['/MCP', '/Mcp/', '/mCp']) {
    const malformed = await request(t.url, 'POST', path, { body: '{"jsonrpc":"2.0","id":1,', headers: MCP_HEADERS });
    assert.equal(malformed.status, 400, path);
    assert.deepEqual({ jsonrpc: malformed.json?.jsonrpc, code: malformed.json?.error?.code, id: malformed.json?.id }, { jsonrpc: '2.0', code: -32700, id: null }, `${path}: ${malformed.text}`);
    const plain = await request(t.url, 'POST', path, { body: 'hello', headers: { ...MCP_HEADERS, 'content-type': 'text/plain' } });
    assert.equal(plain.status, 415, path);
    assert.equal(plain.json?.error?.code, -32000, `${path}: ${plain.text}`);
    const get = await request(t.url, 'GET', path, { headers: { accept: 'text/event-stream' } });
    assert.equal(get.status, 405, path);
    assert.deepEqual({ jsonrpc: get.json?.jsonrpc, code: get.json?.error?.data?.code }, { jsonrpc: '2.0', code: 'method_not_allowed' }, `${path}: ${get.text}`);
    // It is the MCP endpoint itself, not a look-alike.
    const initialized = await request(t.url, 'POST', path, { body: INITIALIZE, headers: MCP_HEADERS });
    assert.equal(initialized.json?.result?.serverInfo?.name, 'satchel', path);
  }
});

test('an exchange the transport never answers gets a JSON-RPC timeout error for each of its requests', async () => {
  const never = new Promise<Response>(() => {});
  const single = await answerInTime(never, { jsonrpc: '2.0', id: 'a', method: 'tools/list' }, 50);
  assert.equal(single.status, 200);
  assert.deepEqual(await single.json(), { jsonrpc: '2.0', id: 'a', error: { code: -32001, message: 'The request took longer than 0.05 s and was stopped.' } });
  const batch = await answerInTime(never, [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', id: 2, method: 'ping' }], 50);
  assert.deepEqual(((await batch.json()) as Array<{ id: number; error: { code: number } }>).map((reply) => [reply.id, reply.error.code]), [[1, -32001], [2, -32001]]);
  const answered = await answerInTime(Promise.resolve(new Response('{}', { status: 200 })), {}, 50);
  assert.equal(await answered.text(), '{}');
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
