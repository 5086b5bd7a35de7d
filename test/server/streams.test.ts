import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket } from 'ws';
import { StreamRegistry, type StreamSubscriber } from '../../src/server/streams.ts';
import { silentLogger } from '../../src/core/context.ts';

async function harness(maxBufferedBytes: number) {
  const streams = new StreamRegistry(silentLogger, { maxBufferedBytes, pingIntervalMs: 60_000 });
  const server = createServer((_req, res) => res.end());
  server.on('upgrade', (req, socket, head) => streams.handleUpgrade(req, socket, head));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    streams,
    url,
    async close() {
      streams.dispose();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

test('path parameters are decoded and the handler registration is disposed on close', async () => {
  const h = await harness(1 << 20);
  let disposed = false;
  h.streams.register('/model/:model/progress', (subscriber, params) => {
    subscriber.send({ model: params.model });
    return { dispose: () => (disposed = true) };
  });
  const ws = new WebSocket(`${h.url}/model/a%20b/progress`);
  const frame = await new Promise<string>((resolve) => ws.once('message', (data) => resolve(String(data))));
  assert.deepEqual(JSON.parse(frame), { model: 'a b' });
  ws.close();
  for (let i = 0; i < 50 && !disposed; i++) await new Promise((r) => setTimeout(r, 10));
  assert.equal(disposed, true);
  assert.equal(h.streams.subscriberCount, 0);
  await h.close();
});

test('a subscriber that stops reading is dropped instead of buffered without bound', async () => {
  const h = await harness(256 * 1024);
  let subscriber: StreamSubscriber | undefined;
  h.streams.register('/firehose', (s) => {
    subscriber = s;
  });
  const ws = new WebSocket(`${h.url}/firehose`);
  await new Promise((resolve) => ws.once('open', resolve));
  // Stop reading at the TCP level: the server's send buffer fills up.
  (ws as unknown as { _socket: { pause(): void } })._socket.pause();
  for (let i = 0; i < 50 && !subscriber; i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(subscriber);
  const frame = 'x'.repeat(64 * 1024);
  let sent = 0;
  for (; sent < 2000 && !subscriber.closed; sent++) {
    subscriber.send(frame);
    if (sent % 20 === 0) await new Promise((r) => setImmediate(r));
  }
  assert.equal(subscriber.closed, true, 'the slow subscriber was dropped');
  assert.ok(sent < 2000, `dropped after ${sent} frames`);
  await h.close();
});

test('a message sent in parts arrives as one message, and frames sent meanwhile follow it', async () => {
  const h = await harness(1 << 20);
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  h.streams.register('/parts', (subscriber) => {
    subscriber.sendParts(
      (async function* () {
        yield Buffer.from('{"iterable":["');
        yield Buffer.alloc(300 * 1024, 0x61);
        await released;
        yield Buffer.from('"]}');
      })(),
    );
    // A change while the message is under way: it may not go between the message's fragments.
    subscriber.send({ change: 1 });
    setTimeout(release, 50);
  });
  const ws = new WebSocket(`${h.url}/parts`);
  const messages: string[] = [];
  await new Promise<void>((resolve, reject) => {
    ws.on('message', (data) => {
      messages.push(String(data));
      if (messages.length === 2) resolve();
    });
    ws.once('error', reject);
  });
  assert.equal(messages[0], `{"iterable":["${'a'.repeat(300 * 1024)}"]}`);
  assert.deepEqual(JSON.parse(messages[1]!), { change: 1 });
  ws.close();
  await h.close();
});

test('a refused or unknown stream answers with the JSON error shape of the HTTP routes', async () => {
  const h = await harness(1 << 20);
  h.streams.register('/known', () => undefined);
  const refusedWith = (path: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; type: string | undefined; body: unknown }>((resolve, reject) => {
      const ws = new WebSocket(`${h.url}${path}`, { headers });
      ws.on('unexpected-response', (_req, res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], body: JSON.parse(text) }));
      });
      ws.on('open', () => reject(new Error(`${path} was accepted`)));
      ws.on('error', () => undefined);
    });
  const missing = await refusedWith('/nowhere');
  assert.equal(missing.status, 404);
  assert.equal(missing.type, 'application/json');
  assert.deepEqual(missing.body, { error: { code: 'route_not_found', message: 'No stream at /nowhere' } });
  const foreign = await refusedWith('/known', { origin: 'https://evil.example' });
  assert.equal(foreign.status, 403);
  assert.equal((foreign.body as { error: { code: string } }).error.code, 'foreign_origin');
  await h.close();
});
