/**
 * The transport's two pools (src/client/pool.ts) behave alike through HttpTransport: undici's, which
 * the data host, connector and CLI use, and Node's own http (nodeHttpPool.ts), which the extension's
 * bundle uses in its place. Each case runs once per pool against the same loopback server.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http, { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { syncBuiltinESMExports } from 'node:module';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { HttpTransport } from '../../src/client/http.ts';
import { ClientError } from '../../src/client/errors.ts';
import { openPool as undiciPool } from '../../src/client/undiciPool.ts';
import { openPool as nodeHttpPool } from '../../src/client/nodeHttpPool.ts';
import type { OpenPool } from '../../src/client/pool.ts';
import { hostOperations } from '../../src/wire/host.ts';
import { importOperations } from '../../src/wire/imports.ts';
import { assetOperations } from '../../src/wire/assets.ts';

const pools: ReadonlyArray<readonly [string, OpenPool]> = [
  ['undici', undiciPool],
  ['node:http', nodeHttpPool],
];

/** A loopback server answering by path; counts the connections it accepted. */
async function serve(handler: (req: IncomingMessage, body: string, res: ServerResponse) => void): Promise<{ url: string; connections: () => number; close: () => Promise<void> }> {
  let connections = 0;
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    handler(req, Buffer.concat(chunks).toString('utf8'), res);
  });
  server.on('connection', () => connections++);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => connections,
    close: async () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

for (const [name, openPool] of pools) {
  test(`${name}: json, text and void replies, the body and headers sent, the ETag read, over kept-alive connections`, async () => {
    const seen: string[] = [];
    const server = await serve((req, body, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers['content-type'] ?? '-'} ${req.headers['x-who'] ?? '-'} ${body}`);
      if (req.url === '/.well-known/health') return void res.end('ok');
      if (req.url?.startsWith('/asset/a1/tags/disassociate/')) return void res.writeHead(204).end();
      res.writeHead(200, { 'content-type': 'application/json', etag: '"r7"' }).end(JSON.stringify({ id: 'a1', name: 'café' }));
    });
    const http = new HttpTransport(server.url, { openPool, headers: { 'x-who': 'test' } });
    try {
      assert.equal(await http.call(hostOperations.health), 'ok');
      const created = await http.callRevised(assetOperations.create, { body: { asset: { format: {} } } });
      assert.deepEqual(created, { value: { id: 'a1', name: 'café' }, revision: 'r7' });
      assert.equal(await http.call(assetOperations.disassociateTag, { params: { asset: 'a1', tag: 't 1' } }), undefined);
      assert.deepEqual(seen, [
        'GET /.well-known/health - test ',
        'POST /assets/create application/json test {"asset":{"format":{}}}',
        'POST /asset/a1/tags/disassociate/t%201 - test ',
      ]);
      // undici may open a second connection as the first is handed back; neither opens one per request.
      assert.ok(server.connections() < 3, `${server.connections()} connections for 3 requests: kept alive between them`);
    } finally {
      await http.close();
      await server.close();
    }
  });

  test(`${name}: NDJSON lines as they arrive; leaving early lets the connection go`, async () => {
    const server = await serve((req, _body, res) => {
      if (req.url === '/.well-known/health') return void res.end('ok');
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.write(`${JSON.stringify({ progress: 1 })}\n{"progr`);
      setTimeout(() => res.write(`ess":2}\n`), 20);
      // Never ends: a caller that stops reading must not wait for it.
    });
    const http = new HttpTransport(server.url, { openPool });
    try {
      const lines: unknown[] = [];
      for await (const line of await http.call(importOperations.import, { body: { files: [] } })) {
        lines.push(line);
        if (lines.length === 2) break;
      }
      assert.deepEqual(lines, [{ progress: 1 }, { progress: 2 }]);
      assert.equal(await http.call(hostOperations.health), 'ok');
    } finally {
      await http.close();
      await server.close();
    }
  });

  test(`${name}: a body given in pieces arrives whole, as JSON, and its reply is read`, async () => {
    let received: { type: string | undefined; body: string } | undefined;
    const server = await serve((req, body, res) => {
      received = { type: req.headers['content-type'], body };
      res.writeHead(200, { 'content-type': 'application/x-ndjson' }).end(`${JSON.stringify({ summary: { imported: 1 } })}\n`);
    });
    const http = new HttpTransport(server.url, { openPool });
    // Larger than a socket takes at once, so the pool waits for it to drain between pieces.
    const big = 'x'.repeat(1024 * 1024);
    async function* pieces(): AsyncGenerator<string> {
      yield '{"files":[{"name":"a.json","content":"';
      for (let i = 0; i < 8; i++) yield big;
      yield 'é"}]}';
    }
    try {
      const lines: unknown[] = [];
      for await (const line of await http.callWithJsonPieces(importOperations.import, pieces(), {})) lines.push(line);
      assert.deepEqual(lines, [{ summary: { imported: 1 } }]);
      assert.equal(received?.type, 'application/json');
      assert.deepEqual(JSON.parse(received?.body ?? ''), { files: [{ name: 'a.json', content: `${big.repeat(8)}é` }] });
    } finally {
      await http.close();
      await server.close();
    }
  });

  test(`${name}: an error reply, a timeout, a cancel and a closed port each become their ClientError`, async () => {
    const server = await serve((req, _body, res) => {
      if (req.url === '/.well-known/health') return void setTimeout(() => res.end('late'), 2_000);
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'not_found', message: 'no such asset' }));
    });
    const http = new HttpTransport(server.url, { openPool, timeoutMs: 200 });
    const closed = new HttpTransport('http://127.0.0.1:9', { openPool });
    try {
      await assert.rejects(http.call(assetOperations.snapshot, { params: { asset: 'x' } }), (e: unknown) => e instanceof ClientError && e.status === 404);
      await assert.rejects(http.call(hostOperations.health), (e: unknown) => e instanceof ClientError && e.code === 'timeout');
      const cancel = new AbortController();
      const asked = http.call(hostOperations.health, { signal: cancel.signal, timeoutMs: 5_000 });
      setTimeout(() => cancel.abort(), 50);
      await assert.rejects(asked, (e: unknown) => e instanceof ClientError && e.code === 'aborted');
      await assert.rejects(closed.call(hostOperations.health), (e: unknown) => e instanceof ClientError && e.unreachable);
    } finally {
      await http.close();
      await closed.close();
      await server.close();
    }
  });
}

test("node:http: requests are not made through http.request, which VS Code's extension host replaces with its proxy support", async () => {
  const server = await serve((_req, _body, res) => void res.end('ok'));
  // What @vscode/proxy-agent does to the extension host's http module (and, for this ESM test, what
  // the bundle's CommonJS require would see at once).
  const original = { request: http.request, get: http.get };
  let patched = 0;
  const count = <F extends (...args: never[]) => unknown>(f: F): F => ((...args: Parameters<F>) => (patched++, f(...args))) as F;
  Object.assign(http, { request: count(original.request), get: count(original.get) });
  syncBuiltinESMExports();
  const transport = new HttpTransport(server.url, { openPool: nodeHttpPool });
  try {
    assert.equal(await transport.call(hostOperations.health), 'ok');
    assert.equal(patched, 0, 'a request went through http.request');
  } finally {
    Object.assign(http, original);
    syncBuiltinESMExports();
    await transport.close();
    await server.close();
  }
});
