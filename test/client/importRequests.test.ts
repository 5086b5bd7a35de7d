/**
 * The client's import requests against a server that records when each arrives: two are under way at
 * once, but the next is sent only once the host has taken the one before (its reply began), so the
 * host never reads two import bodies at once.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SatchelClient } from '../../src/client/satchelClient.ts';

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

test('each import request is sent once the host has taken the one before, while that one still runs', async () => {
  const events: string[] = [];
  let arrived = 0;
  const summary = { filesDone: 1, found: 1, imported: 1, updated: 0, duplicates: 0, failed: 0, files: 1, failures: [], formats: {}, cancelled: false, elapsedMs: 1 };
  const server = createServer((request, response) => {
    const n = ++arrived;
    events.push(`arrived ${n}`);
    request.resume();
    request.on('end', async () => {
      // The host takes the body a moment after it is read (parses it, queues the import)…
      await pause(40);
      response.writeHead(200, { 'content-type': 'application/x-ndjson' });
      response.write('');
      events.push(`taken ${n}`);
      // …and the import runs on for longer than that.
      await pause(400);
      response.end(`${JSON.stringify({ summary })}\n`);
      events.push(`done ${n}`);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const client = new SatchelClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, { timeoutMs: 5000 });
  try {
    // Files too large to share a request (16 MB of text each): one request each.
    const files = [0, 1, 2].map((i) => ({ name: `big-${i}.code-snippets`, read: async () => ({ name: `big-${i}.code-snippets`, content: `{"s${i}":{"body":"${'x'.repeat(9 * 1024 * 1024)}"}}` }) }));
    const result = await client.imports.importFiles(files);
    assert.equal(result.imported, 3);
  } finally {
    client.dispose();
    await new Promise((resolve) => server.close(resolve));
  }
  assert.equal(arrived, 3);
  for (const n of [2, 3]) {
    assert.ok(events.indexOf(`arrived ${n}`) > events.indexOf(`taken ${n - 1}`), `request ${n} before the host took ${n - 1}: ${events.join(', ')}`);
    assert.ok(events.indexOf(`arrived ${n}`) < events.indexOf(`done ${n - 1}`), `request ${n} only after ${n - 1} ended: ${events.join(', ')}`);
  }
});
