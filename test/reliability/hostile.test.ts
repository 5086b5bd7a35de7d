/**
 * Hostile pages: a DNS-rebinding page (foreign Host), a foreign or opaque Origin, and simple-request
 * CSRF shapes that need no preflight are refused on every route and stream, change nothing, and the
 * host listens on loopback only.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { connect } from 'node:net';
import { randomUUID } from 'node:crypto';
import { WebSocket } from 'ws';
import { startTestServer, tempDir, type TestServer } from '../support/helpers.ts';
import { allRoutes, fillPath, type Route } from './routes.ts';
import { HostProcess, figures, jsonErrorCode, raw, storeDigest } from './support.ts';

let t: TestServer;
let digest: string;
let routes: Route[];
let streams: string[];

before(async () => {
  t = await startTestServer();
  // Something to lose: a refused request must leave these rows exactly as they are.
  t.core.context.transaction(() => {
    for (let i = 0; i < 5; i++) t.core.context.records.put('tag', `tag-${i}`, { id: `tag-${i}`, text: `t${i}` });
  });
  digest = storeDigest(t.core.context.database.db);
  ({ routes, streams } = allRoutes(t.core));
});
after(() => t.close());

const anyId = (): string => randomUUID();
const paths = (): Array<{ method: string; path: string; writes: boolean }> =>
  routes.map((route) => ({ method: route.method, path: fillPath(route.path, anyId), writes: route.writes }));

const FOREIGN_HOSTS = [
  'attacker.example',
  'attacker.example:39300',
  '127.0.0.1.nip.io',
  'localhost.attacker.example',
  'localhost.',
  '0.0.0.0',
  '192.0.2.2:39300',
  '[fd00::2]:39300',
  '[::ffff:7f00:1]',
  '2130706433',
];

const FOREIGN_ORIGINS = [
  'https://evil.example',
  'null',
  'http://localhost.evil.example',
  'http://127.0.0.1.evil.example:39300',
  'file://',
  'chrome-extension://abcdefghijklmnop',
  'http://192.0.2.2:39300',
  'not a url',
];

test('a foreign Host (DNS rebinding) is refused on every route with 421 and changes nothing', async () => {
  let tried = 0;
  for (const { method, path } of paths()) {
    for (const host of FOREIGN_HOSTS) {
      const reply = await raw(t.server.port, {
        method,
        path,
        headers: { host, 'content-type': 'application/json' },
        ...(method === 'POST' ? { body: '{}' } : {}),
      });
      tried++;
      assert.equal(reply.status, 421, `${method} ${path} Host: ${host}`);
      assert.equal(jsonErrorCode(reply), 'foreign_host', `${method} ${path} Host: ${host}`);
      assert.equal(reply.headers['access-control-allow-origin'], undefined);
    }
  }
  assert.equal(storeDigest(t.core.context.database.db), digest);
  figures('hostile.foreign-host', { requests: tried, accepted: 0 });
});

test('a foreign, opaque or malformed Origin is refused on every route with 403, and gets no CORS headers', async () => {
  let tried = 0;
  for (const { method, path } of paths()) {
    for (const origin of FOREIGN_ORIGINS) {
      const reply = await raw(t.server.port, {
        method,
        path,
        headers: { origin, 'content-type': 'application/json' },
        ...(method === 'POST' ? { body: '{}' } : {}),
      });
      tried++;
      assert.equal(reply.status, 403, `${method} ${path} Origin: ${origin}`);
      assert.equal(jsonErrorCode(reply), 'foreign_origin');
      assert.equal(reply.headers['access-control-allow-origin'], undefined);
    }
    // The preflight a foreign page would need before a JSON POST is refused too.
    const preflight = await raw(t.server.port, {
      method: 'OPTIONS',
      path,
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    tried++;
    assert.equal(preflight.status, 403, `OPTIONS ${path}`);
    assert.equal(preflight.headers['access-control-allow-origin'], undefined);
  }
  assert.equal(storeDigest(t.core.context.database.db), digest);
  figures('hostile.foreign-origin', { requests: tried, accepted: 0 });
});

test('simple-request CSRF shapes (text/plain, form and multipart bodies, no preflight) change nothing', async () => {
  const shapes: Array<{ type: string; body: string }> = [
    { type: 'text/plain', body: '{"value":"csrf","id":"x"}' },
    { type: 'text/plain;charset=UTF-8', body: '{"x":1}' },
    { type: 'application/x-www-form-urlencoded', body: 'value=csrf&{"x":1}=' },
    { type: 'multipart/form-data; boundary=XyZ', body: '--XyZ\r\nContent-Disposition: form-data; name="a"\r\n\r\n{"x":1}\r\n--XyZ--\r\n' },
  ];
  let tried = 0;
  for (const { method, path, writes } of paths()) {
    if (method !== 'POST' || !writes) continue;
    for (const shape of shapes) {
      // What the browser sends: a foreign Origin (refused as such) …
      const withOrigin = await raw(t.server.port, {
        method,
        path,
        headers: { origin: 'https://evil.example', 'content-type': shape.type, 'sec-fetch-site': 'cross-site' },
        body: shape.body,
      });
      // … an older browser without Origin but with Fetch Metadata …
      const crossSite = await raw(t.server.port, {
        method,
        path,
        headers: { 'content-type': shape.type, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' },
        body: shape.body,
      });
      // … and one with neither: the body type alone must keep it from being processed.
      const bare = await raw(t.server.port, { method, path, headers: { 'content-type': shape.type }, body: shape.body });
      tried += 3;
      assert.equal(withOrigin.status, 403, `${path} ${shape.type} with Origin`);
      assert.equal(crossSite.status, 403, `${path} ${shape.type} cross-site`);
      assert.equal(bare.status, 415, `${path} ${shape.type} without Origin: ${bare.text}`);
      for (const reply of [withOrigin, crossSite, bare]) assert.ok(jsonErrorCode(reply), reply.text);
    }
  }
  assert.ok(tried > 0);
  assert.equal(storeDigest(t.core.context.database.db), digest);
  figures('hostile.csrf', { requests: tried, accepted: 0 });
});

/** The status a WebSocket upgrade gets (101 when it opened). */
function upgradeStatus(path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${t.server.port}${path}`, { headers });
    const timer = setTimeout(() => {
      ws.terminate();
      reject(new Error(`upgrade of ${path} neither opened nor was refused`));
    }, 10_000);
    ws.on('unexpected-response', (_req, res) => {
      clearTimeout(timer);
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.on('open', () => {
      clearTimeout(timer);
      ws.close();
      resolve(101);
    });
    ws.on('error', () => {});
  });
}

test('WebSocket upgrades with a foreign Host or Origin are refused on every stream', async () => {
  let tried = 0;
  for (const template of streams) {
    const path = fillPath(template, () => 'some-model');
    for (const host of FOREIGN_HOSTS.slice(0, 4)) {
      assert.equal(await upgradeStatus(path, { host }), 421, `${path} Host: ${host}`);
      tried++;
    }
    for (const origin of FOREIGN_ORIGINS) {
      assert.equal(await upgradeStatus(path, { origin }), 403, `${path} Origin: ${origin}`);
      tried++;
    }
    assert.equal(await upgradeStatus(path, { 'sec-fetch-site': 'cross-site' }), 403, `${path} cross-site`);
    tried++;
  }
  // The control: the same upgrade from a loopback page opens.
  assert.equal(await upgradeStatus('/.well-known/stream/health', { origin: 'http://localhost:5173' }), 101);
  figures('hostile.websocket', { upgrades: tried, accepted: 0 });
});

/** Listening sockets on `port` from /proc/net/tcp{,6}: their local addresses, decoded. */
function listeningAddresses(port: number): string[] {
  const found: string[] = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 4 || fields[3] !== '0A') continue; // 0A = LISTEN
      const [hexAddress, hexPort] = fields[1]!.split(':');
      if (parseInt(hexPort!, 16) !== port) continue;
      found.push(decodeProcAddress(hexAddress!));
    }
  }
  return found;
}

/** /proc/net addresses are 32-bit words in host (little-endian) order. */
function decodeProcAddress(hex: string): string {
  const words = hex.match(/.{8}/g)!.map((word) => Buffer.from(word, 'hex').reverse());
  const bytes = Buffer.concat(words);
  if (bytes.length === 4) return [...bytes].join('.');
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(bytes.readUInt16BE(i).toString(16));
  // The WHATWG URL parser prints IPv6 in its canonical compressed form.
  return new URL(`http://[${groups.join(':')}]/`).hostname.slice(1, -1);
}

function connectOutcome(host: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.setTimeout(3000, () => {
      socket.destroy();
      resolve('timeout');
    });
    socket.on('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
  });
}

test('a host process listens on loopback addresses only', async () => {
  const host = new HostProcess(tempDir('satchel-rel-listen-'));
  try {
    const { port } = await host.waitFor('serving');
    assert.ok(port);
    const listening = listeningAddresses(port);
    assert.ok(listening.length > 0, 'the host has no listening socket in /proc/net');
    for (const address of listening) {
      assert.ok(address === '127.0.0.1' || address === '::1', `listening on ${address}`);
    }
    // Connecting to this machine's own non-loopback addresses is local traffic and must be refused.
    const external = Object.values(networkInterfaces())
      .flat()
      .filter((info) => info !== undefined && !info.internal && !info.address.startsWith('fe80'))
      .map((info) => info!.address);
    for (const address of external) {
      const outcome = await connectOutcome(address, port);
      assert.notEqual(outcome, 'connected', `the host answers on ${address}:${port}`);
    }
    if (external.length === 0) assert.deepEqual(external, [], 'this machine has no non-loopback address to try');
    const loopback = await connectOutcome('127.0.0.1', port);
    assert.equal(loopback, 'connected');
    figures('hostile.listen', { sockets: listening.length, addresses: listening.join(','), externalTried: external.length, externalAccepted: 0 });
  } finally {
    await host.kill('SIGTERM');
  }
});
