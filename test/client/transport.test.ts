import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { once } from 'node:events';
import { startTestServer, waitFor, withClient } from '../support/helpers.ts';
import { SatchelClient, ClientError } from '../../src/client/satchelClient.ts';
import { Satchel } from '../../src/core/satchel.ts';
import { serve } from '../../src/server/server.ts';
import { silentLogger } from '../../src/core/context.ts';

test('health and version come back as plain strings', async () => {
  await withClient(async (client) => {
    assert.equal(await client.health(), 'ok');
    assert.match(await client.version(), /^\d+\.\d+\.\d+/);
  });
});

test('an error reply becomes a ClientError with the server status, code and message', async () => {
  await withClient(async (client) => {
    const error = await client.models.get('no-such-model').then(
      () => assert.fail('expected an error'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof ClientError);
    assert.equal(error.status, 404);
    assert.equal(typeof error.code, 'string');
    assert.ok(error.message.length > 0);
  });
});

test('a closed port gives an unreachable ClientError, not a raw socket error', async () => {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const port = (probe.address() as { port: number }).port;
  probe.close();
  const client = new SatchelClient(`http://127.0.0.1:${port}`, { timeoutMs: 2000 });
  try {
    await assert.rejects(client.health(), (e: unknown) => e instanceof ClientError && e.unreachable && e.code === 'unreachable');
  } finally {
    client.dispose();
  }
});

test('a stream reconnects after the server restarts on the same port and gets a fresh full frame', async () => {
  const t = await startTestServer();
  const port = t.server.port;
  const client = new SatchelClient(t.url, { stream: { minDelayMs: 50, maxDelayMs: 200 } });
  const frames: unknown[] = [];
  const states: boolean[] = [];
  const stream = client.stream<string>('/.well-known/stream/health');
  stream.onFrame((frame) => frames.push(frame));
  stream.onDidChangeConnected((connected) => states.push(connected));
  let second: { close(): Promise<void> } | undefined;
  try {
    await waitFor(() => frames.length === 1);
    assert.deepEqual(frames, ['ok']);
    await t.server.close();
    await waitFor(() => states.includes(false));

    const core = Satchel.open({ dataDir: t.dataDir, logger: silentLogger });
    const server = await serve(core, { logger: silentLogger, port });
    second = { close: async () => { await server.close(); await core.close(); } };
    await waitFor(() => frames.length === 2);
    assert.deepEqual(states, [true, false, true]);
    assert.equal(stream.isConnected, true);
  } finally {
    client.dispose();
    await second?.close();
    await t.close();
  }
  assert.equal(stream.isConnected, true, 'dispose does not fire events after the fact');
});

