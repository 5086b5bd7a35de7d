/**
 * Each request's time limit ends with the request: once the reply has been read (or the request
 * failed), no timer of it is left for the collector to track, as AbortSignal.timeout's 30 s timer
 * was. The limit still covers reading the body, and the errors stay the same. Each case runs once
 * per pool (undici's and Node's own http, which the extension uses).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHook } from 'node:async_hooks';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import { setImmediate as turn } from 'node:timers/promises';
import type { AddressInfo } from 'node:net';
import { HttpTransport } from '../../src/client/http.ts';
import { ClientError } from '../../src/client/errors.ts';
import { openPool as undiciPool } from '../../src/client/undiciPool.ts';
import { openPool as nodeHttpPool } from '../../src/client/nodeHttpPool.ts';
import type { OpenPool } from '../../src/client/pool.ts';
import { hostOperations } from '../../src/wire/host.ts';
import { assetOperations } from '../../src/wire/assets.ts';

const pools: ReadonlyArray<readonly [string, OpenPool]> = [
  ['undici', undiciPool],
  ['node:http', nodeHttpPool],
];

/** A limit no other timer of the process uses, so its timers can be told apart. */
const LIMIT_MS = 29_987;

/** The timers (Node's Timeout resources, internal ones too) of `ms` not yet fired or cleared. */
function pendingTimers(ms: number): { count: () => Promise<number>; stop: () => void } {
  const live = new Map<number, object>();
  const hook = createHook({
    init(id, type, _trigger, resource) {
      if (type === 'Timeout') live.set(id, resource);
    },
    destroy(id) {
      live.delete(id);
    },
  }).enable();
  return {
    count: async () => {
      // A cleared timer's destroy is reported a turn later.
      await turn();
      await turn();
      return [...live.values()].filter((timer) => Reflect.get(timer, '_idleTimeout') === ms).length;
    },
    stop: () => void hook.disable(),
  };
}

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer(handler);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

for (const [name, openPool] of pools) {
  test(`${name}: after a burst of requests no request's timer is left pending`, async () => {
    const server = await serve((req, res) => {
      if (req.url === '/.well-known/health') return void res.end('ok');
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'not_found', message: 'no such asset' }));
    });
    const http = new HttpTransport(server.url, { openPool, timeoutMs: LIMIT_MS });
    const timers = pendingTimers(LIMIT_MS);
    try {
      const inFlight = http.call(hostOperations.health);
      assert.equal(await timers.count(), 1, 'a request in flight has its time limit');
      assert.equal(await inFlight, 'ok');
      const cancel = new AbortController();
      const burst = Array.from({ length: 200 }, (_, i) =>
        i % 4 === 3
          ? http.call(assetOperations.snapshot, { params: { asset: `x${i}` } }).then(
              () => assert.fail('expected a 404'),
              (e: unknown) => assert.ok(e instanceof ClientError && e.status === 404),
            )
          : http.call(hostOperations.health, { signal: cancel.signal }).then((said) => assert.equal(said, 'ok')),
      );
      await Promise.all(burst);
      assert.equal(await timers.count(), 0, 'every request\'s timer ended with it');
    } finally {
      timers.stop();
      await http.close();
      await server.close();
    }
  });

  test(`${name}: a reply whose body stalls still times out, and a cancel while reading says aborted`, async () => {
    const server = await serve((_req, res) => {
      // The headers and the start of the body, then nothing.
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '100' });
      res.write('o');
    });
    const http = new HttpTransport(server.url, { openPool, timeoutMs: 300 });
    const timers = pendingTimers(5_013);
    try {
      const started = Date.now();
      await assert.rejects(http.call(hostOperations.health), (e: unknown) => e instanceof ClientError && e.code === 'timeout');
      assert.ok(Date.now() - started >= 250, 'the limit ran while the body was read');
      const cancel = new AbortController();
      const asked = http.call(hostOperations.health, { signal: cancel.signal, timeoutMs: 5_013 });
      setTimeout(() => cancel.abort(), 100);
      await assert.rejects(asked, (e: unknown) => e instanceof ClientError && e.code === 'aborted');
      assert.equal(await timers.count(), 0, 'a cancelled request\'s timer ended with it');
    } finally {
      timers.stop();
      await http.close();
      await server.close();
    }
  });
}

test('a closed port is still unreachable, and leaves no timer', async () => {
  const http = new HttpTransport('http://127.0.0.1:9', { timeoutMs: LIMIT_MS });
  const timers = pendingTimers(LIMIT_MS);
  try {
    await assert.rejects(http.call(hostOperations.health), (e: unknown) => e instanceof ClientError && e.unreachable);
    assert.equal(await timers.count(), 0);
  } finally {
    timers.stop();
    await http.close();
  }
});
