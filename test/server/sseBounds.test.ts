/**
 * The SSE transport's bounds: a stream whose client stops reading is dropped past BUFFERED_LIMIT;
 * at most MAX_SESSIONS streams are open (the next is refused as busy, and one closed frees its
 * place); a message for a closed session is refused; the host's close ends every open stream.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { request as httpRequest, type ClientRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { BUFFERED_LIMIT, SseTransport } from '../../src/server/mcp/sseTransport.ts';
import { MAX_SESSIONS } from '../../src/server/mcp/sseRoute.ts';
import { request, startTestServer } from '../support/helpers.ts';
import { CLOSE_GRACE_MS } from '../../src/server/server.ts';

/** A response whose client reads nothing: every byte written stays buffered. */
class UnreadResponse extends EventEmitter {
  writableLength = 0;
  destroyed = false;
  writeHead(): this {
    return this;
  }
  write(chunk: string): boolean {
    this.writableLength += Buffer.byteLength(chunk);
    return false;
  }
  end(): this {
    return this;
  }
  destroy(): this {
    this.destroyed = true;
    this.emit('close');
    return this;
  }
}

test('a stream whose client stops reading is dropped once BUFFERED_LIMIT bytes wait, and whoever waits for an answer stops waiting', async () => {
  const res = new UnreadResponse();
  const transport = new SseTransport(res as unknown as ServerResponse, '/messages');
  let closed = false;
  transport.onclose = () => (closed = true);
  await transport.start();
  const waiting = transport.receive({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  const big = 'x'.repeat(1024 * 1024);
  for (let i = 0; !transport.closed && i < 64; i++) await transport.send({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: big } });
  assert.equal(transport.closed, true);
  assert.equal(res.destroyed, true);
  assert.ok(res.writableLength > BUFFERED_LIMIT);
  assert.equal(closed, true);
  await waiting;
  await assert.rejects(transport.send({ jsonrpc: '2.0', id: 2, result: {} }), /closed/);
});

test('at most MAX_SESSIONS SSE streams; the next is refused as busy until one closes; a closed session refuses messages; closing the host ends the streams', async () => {
  const t = await startTestServer();
  const url = new URL(t.url);
  const open: Array<{ req: ClientRequest; res: IncomingMessage; endpoint: Promise<string> }> = [];
  const openStream = () =>
    new Promise<{ req: ClientRequest; res: IncomingMessage; endpoint: Promise<string> }>((resolve, reject) => {
      const req = httpRequest({ host: url.hostname, port: url.port, path: '/model_context_protocol/2024-11-05/sse', headers: { accept: 'text/event-stream' } }, (res) => {
        const endpoint = new Promise<string>((found) => {
          let text = '';
          res.on('data', (chunk: Buffer) => {
            text += chunk.toString('utf8');
            const match = /event: endpoint\ndata: (\S+)/.exec(text);
            if (match) found(match[1]!);
          });
        });
        resolve({ req, res, endpoint });
      });
      req.on('error', reject);
      req.end();
    });
  let closedAt: number | undefined;
  try {
    for (let i = 0; i < MAX_SESSIONS; i++) open.push(await openStream());
    assert.ok(open.every((stream) => stream.res.statusCode === 200));
    assert.match(await open[0]!.endpoint, /^\/model_context_protocol\/2024-11-05\/messages\?sessionId=/);
    const refused = await request(t.url, 'GET', '/model_context_protocol/2024-11-05/sse');
    assert.equal(refused.status, 503);
    assert.equal(refused.json?.error?.code, 'busy');

    const first = open.shift()!;
    const endpoint = await first.endpoint;
    first.req.destroy();
    let again: Awaited<ReturnType<typeof openStream>> | undefined;
    for (let attempt = 0; attempt < 50 && again === undefined; attempt++) {
      const next = await openStream();
      if (next.res.statusCode === 200) again = next;
      else {
        next.req.destroy();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
    assert.ok(again, 'a closed stream frees its place');
    open.push(again);
    const gone = await request(t.url, 'POST', endpoint, { body: { jsonrpc: '2.0', id: 1, method: 'ping' } });
    assert.equal(gone.status, 404);

    const ended = Promise.all(open.map((stream) => new Promise<void>((resolve) => stream.res.on('close', () => resolve()))));
    const start = Date.now();
    await t.close();
    await ended;
    closedAt = Date.now() - start;
    assert.ok(closedAt < CLOSE_GRACE_MS, `the host closed its streams at once, not after the grace for requests (${closedAt} ms)`);
  } finally {
    for (const stream of open) stream.req.destroy();
    if (closedAt === undefined) await t.close();
  }
});
