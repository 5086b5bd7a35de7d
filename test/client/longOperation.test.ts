/**
 * The client's reading of long work's NDJSON replies against a server that cuts them up as a
 * network may: lines split across writes, several in one write, a character split between two.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SatchelClient, ClientError } from '../../src/client/satchelClient.ts';
import type { SyncProgress } from '../../src/client/sync.ts';

/** A server whose every request is answered by `reply`, and a client of it. */
async function withReplies(reply: (response: ServerResponse) => Promise<void>, run: (client: SatchelClient) => Promise<void>): Promise<void> {
  const server = createServer((request, response) => {
    request.resume();
    response.writeHead(200, { 'content-type': 'application/x-ndjson' });
    void reply(response).then(() => response.end());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const client = new SatchelClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, { timeoutMs: 5000 });
  try {
    await run(client);
  } finally {
    client.dispose();
    await new Promise((resolve) => server.close(resolve));
  }
}

/** Writes each part as its own chunk, flushed before the next. */
async function inPieces(response: ServerResponse, parts: ReadonlyArray<string | Buffer>): Promise<void> {
  for (const part of parts) {
    response.write(part);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

test('progress lines cut anywhere arrive whole and in order, then the result', async () => {
  const summaryLine = Buffer.from(`${JSON.stringify({ summary: { note: 'naïve café ✓' } })}\n`);
  // The last line's bytes are cut inside a multi-byte character.
  const cut = summaryLine.indexOf(Buffer.from('é')) + 1;
  await withReplies(
    (response) =>
      inPieces(response, [
        '{"progress":{"phase":"fet',
        'ching"}}\n{"progress":{"phase":"merging","done":1,"total":3}}\n\n{"progress":',
        '{"phase":"merging","done":3,"total":3}}\n',
        summaryLine.subarray(0, cut),
        summaryLine.subarray(cut),
      ]),
    async (client) => {
      const seen: SyncProgress[] = [];
      const summary = await client.sync.run({}, { onProgress: (progress) => seen.push(progress) });
      assert.deepEqual(seen, [{ phase: 'fetching' }, { phase: 'merging', done: 1, total: 3 }, { phase: 'merging', done: 3, total: 3 }]);
      assert.deepEqual(summary, { note: 'naïve café ✓' });
    },
  );
});

test('an error closing the reply is thrown with the status that error has as a reply of its own', async () => {
  const cases: ReadonlyArray<readonly [string, number]> = [
    ['conflict', 409],
    ['too_large', 413],
    ['unavailable', 503],
    ['invalid_input', 400],
    ['internal', 500],
    ['from_a_newer_host', 500],
  ];
  for (const [code, status] of cases) {
    await withReplies(
      (response) => inPieces(response, [`{"progress":{"copied":1}}\n{"error":{"code":"${code}","message":"no: ${code}"}}\n`]),
      async (client) => {
        const error = await client.backups.create().then(
          () => assert.fail('expected an error'),
          (e: unknown) => e,
        );
        assert.ok(error instanceof ClientError);
        assert.deepEqual([error.status, error.code, error.message], [status, code, `no: ${code}`]);
      },
    );
  }
});

test('a reply that ends without its closing line is a bad reply, not a hang or a result', async () => {
  await withReplies(
    (response) => inPieces(response, ['{"progress":{"deleted":1}}\n']),
    async (client) => {
      await assert.rejects(client.trash.empty(), (e: unknown) => e instanceof ClientError && e.status === 502 && e.code === 'bad_reply' && /emptied/.test(e.message));
    },
  );
});
