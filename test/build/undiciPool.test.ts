/**
 * The extension bundle's undici is scripts/undiciPool.cjs (esbuild.mjs): a Pool with request(),
 * which is all src/client/http.ts uses. Without undici's index, request() is not on the Pool unless
 * the shim puts it there.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import type { Pool as UndiciPool } from 'undici';

const { Pool } = createRequire(import.meta.url)('../../scripts/undiciPool.cjs') as { Pool: typeof UndiciPool };

test("the extension's undici Pool answers requests over loopback", async () => {
  const server = createServer((req, res) => res.end(`${req.method} ${req.url}`));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const pool = new Pool(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, { connections: 2 });
  try {
    const reply = await pool.request({ method: 'GET', path: '/.well-known/health' });
    assert.equal(reply.statusCode, 200);
    assert.equal(await reply.body.text(), 'GET /.well-known/health');
  } finally {
    await pool.close();
    server.close();
  }
});
