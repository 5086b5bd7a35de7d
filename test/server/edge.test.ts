import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { WebSocket } from 'ws';
import { startTestServer, request, errorCode, type TestServer } from '../support/helpers.ts';
import { codeSeed } from '../support/assetFixtures.ts';

let t: TestServer;
before(async () => {
  t = await startTestServer({ bodyLimit: 1024 });
});
after(() => t.close());

/** A raw request, so the Host header can be set freely. */
function raw(path: string, headers: Record<string, string>, method = 'GET', body?: string | Buffer): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: t.server.port, path, method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

test('health and version answer as text', async () => {
  const health = await request(t.url, 'GET', '/.well-known/health');
  assert.equal(health.status, 200);
  assert.match(health.type, /text\/plain/);
  assert.equal(health.text, 'ok');
  const version = await request(t.url, 'GET', '/.well-known/version');
  assert.match(version.text, /^\d+\.\d+\.\d+/);
});

test('a foreign Host (DNS rebinding) is refused', async () => {
  const reply = await raw('/.well-known/health', { host: 'attacker.example:39300' });
  assert.equal(reply.status, 421);
  assert.equal(JSON.parse(reply.text).error.code, 'foreign_host');
  // A loopback literal followed by a foreign name is not a loopback host (test/server/hostHeader.test.ts has more).
  for (const host of ['[::1]evil.example', '[::1]evil.example:39300', 'localhost:1@evil.example', '127.0.0.1.evil.example']) {
    assert.equal((await raw('/.well-known/health', { host })).status, 421, host);
  }
  for (const host of ['localhost:1', '127.0.0.1', '[::1]:5', 'satchel.localhost']) {
    assert.equal((await raw('/.well-known/health', { host })).status, 200, host);
  }
});

test('a foreign Origin or a cross-site fetch is refused; loopback pages are allowed', async () => {
  const foreign = await request(t.url, 'POST', '/.well-known/health', { headers: { origin: 'https://evil.example' } });
  assert.equal(foreign.status, 403);
  assert.equal(errorCode(foreign), 'foreign_origin');
  const nullOrigin = await request(t.url, 'GET', '/.well-known/health', { headers: { origin: 'null' } });
  assert.equal(nullOrigin.status, 403);
  const crossSite = await raw('/.well-known/health', { host: 'localhost', 'sec-fetch-site': 'cross-site' });
  assert.equal(crossSite.status, 403);
  const local = await request(t.url, 'GET', '/.well-known/health', { headers: { origin: 'http://localhost:3000' } });
  assert.equal(local.status, 200);
});

test('malformed JSON, non-JSON bodies, invalid UTF-8 and oversized bodies get 4xx JSON errors', async () => {
  const malformed = await request(t.url, 'POST', '/.well-known/health', { body: '{"a":' });
  assert.equal(malformed.status, 400);
  assert.equal(errorCode(malformed), 'malformed_json');
  const form = await request(t.url, 'POST', '/.well-known/health', {
    body: 'a=1',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  assert.equal(form.status, 415);
  const plain = await request(t.url, 'POST', '/.well-known/health', { body: '{}', headers: { 'content-type': 'text/plain' } });
  assert.equal(plain.status, 415);
  const badUtf8 = await raw('/.well-known/health', { host: 'localhost', 'content-type': 'application/json' }, 'POST', Buffer.from([0x22, 0xff, 0xfe, 0x22]));
  assert.equal(badUtf8.status, 400);
  assert.equal(JSON.parse(badUtf8.text).error.code, 'invalid_encoding');
  const big = await request(t.url, 'POST', '/.well-known/health', { body: JSON.stringify('x'.repeat(5000)) });
  assert.equal(big.status, 413);
  assert.equal(errorCode(big), 'too_large');
});

test('unknown routes and wrong methods answer JSON errors', async () => {
  const missing = await request(t.url, 'GET', '/no/such/route');
  assert.equal(missing.status, 404);
  assert.equal(errorCode(missing), 'route_not_found');
});

test('duplicate slashes from a basePath with a trailing slash still route', async () => {
  const reply = await request(t.url, 'GET', '//.well-known/health');
  assert.equal(reply.status, 200);
});

test('WebSocket upgrades: unknown paths and foreign origins are refused', async () => {
  const refused = (path: string, headers: Record<string, string> = {}) =>
    new Promise<number>((resolve) => {
      const ws = new WebSocket(t.url.replace('http', 'ws') + path, { headers });
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('open', () => {
        ws.close();
        resolve(101);
      });
      ws.on('error', () => {});
    });
  assert.equal(await refused('/no/stream'), 404);
  assert.equal(await refused('/.well-known/stream/health', { origin: 'https://evil.example' }), 403);
  assert.equal(await refused('/.well-known/stream/health'), 101);
});

test('absurdly deep JSON is refused with 400 before any route sees it', async () => {
  const deep = '['.repeat(20_000) + ']'.repeat(20_000);
  const t2 = await startTestServer();
  try {
    const reply = await request(t2.url, 'POST', '/.well-known/health', { body: deep });
    assert.equal(reply.status, 400);
    assert.equal(errorCode(reply), 'too_deep');
    const inString = await request(t2.url, 'POST', '/no/route', { body: JSON.stringify('['.repeat(20_000)) });
    assert.equal(inString.status, 404, 'brackets inside strings do not count');
  } finally {
    await t2.close();
  }
});

test('a malformed boolean query parameter is refused before the route runs', async () => {
  const t2 = await startTestServer();
  try {
    const before = await request(t2.url, 'GET', '/assets');
    const reply = await request(t2.url, 'POST', '/assets/create?transferables=maybe', {
      body: codeSeed('const answer = 42;'),
    });
    assert.equal(reply.status, 400);
    assert.equal(errorCode(reply), 'invalid_input');
    const after = await request(t2.url, 'GET', '/assets');
    assert.deepEqual(after.json.iterable.length, before.json.iterable.length, 'nothing was written');
  } finally {
    await t2.close();
  }
});

test('a POST with a simple-request content type is refused even with an empty body', async () => {
  for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
    const reply = await request(t.url, 'POST', '/.well-known/health', { headers: { 'content-type': type } });
    assert.equal(reply.status, 415, type);
  }
});
