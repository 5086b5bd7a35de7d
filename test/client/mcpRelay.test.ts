/**
 * The relay (client/mcpRelay.ts) against a stateful streamable HTTP server of the SDK's, which does
 * what Satchel's stateless host does not: progress on a request's stream, list changes on the GET
 * stream, and cancellation through `notifications/cancelled`. The agent's side is an in-memory
 * transport pair with the SDK's Client on the other end.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpRelay } from '../../src/client/mcpRelay.ts';

interface Upstream {
  readonly url: URL;
  readonly server: McpServer;
  readonly headers: IncomingHttpHeaders[];
  /** Calls of `vanish` the server received (each cut off). */
  readonly vanished: () => number;
  /** Resolves when the `slow` tool's call was cancelled on the server. */
  readonly slowAborted: Promise<void>;
  close(): Promise<void>;
}

async function upstream(): Promise<Upstream> {
  const server = new McpServer({ name: 'upstream', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
  let aborted!: () => void;
  const slowAborted = new Promise<void>((resolve) => (aborted = resolve));
  server.registerTool('echo', { inputSchema: { text: z.string() } }, ({ text }) => ({ content: [{ type: 'text', text: `echo: ${text}` }] }));
  server.registerTool('slow', { inputSchema: {} }, async (_args, extra) => {
    const token = extra._meta?.progressToken;
    if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: 1, total: 10, message: 'started' } });
    await new Promise<void>((resolve) => {
      extra.signal.addEventListener('abort', () => resolve());
      setTimeout(resolve, 10_000).unref();
    });
    if (extra.signal.aborted) aborted();
    return { content: [{ type: 'text', text: 'done' }] };
  });
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: randomUUID });
  await server.connect(transport);
  const headers: IncomingHttpHeaders[] = [];
  let vanished = 0;
  const http = createServer((req, res) => {
    headers.push(req.headers);
    if (req.method !== 'POST') return void transport.handleRequest(req, res);
    // A call of `vanish` finds the host gone while it has the request: the connection just ends.
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString()) as { method?: string; params?: { name?: string } };
      if (body.method === 'tools/call' && body.params?.name === 'vanish') {
        vanished++;
        req.socket.destroy();
        return;
      }
      void transport.handleRequest(req, res, body);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const port = (http.address() as AddressInfo).port;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    server,
    headers,
    slowAborted,
    vanished: () => vanished,
    close: async () => {
      await server.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

async function relayTo(up: Upstream): Promise<{ client: Client; relay: McpRelay; log: string[] }> {
  const [agentEnd, relayEnd] = InMemoryTransport.createLinkedPair();
  const log: string[] = [];
  const relay = new McpRelay({ agent: relayEnd, locate: () => Promise.resolve({ url: up.url, identity: 'one' }), log: (line) => log.push(line) });
  await relay.start();
  const client = new Client({ name: 'relay test', version: '1.0.0' });
  await client.connect(agentEnd);
  return { client, relay, log };
}

test('requests and answers pass through, to 127.0.0.1 with its own Host and no Origin', async () => {
  const up = await upstream();
  const { client, relay } = await relayTo(up);
  try {
    const result = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
    assert.deepEqual(result.content, [{ type: 'text', text: 'echo: hi' }]);
    assert.ok(up.headers.length >= 3, 'initialize, initialized, the call');
    for (const headers of up.headers) {
      assert.equal(headers.host, up.url.host, 'the Host a loopback guard accepts');
      assert.equal(headers.origin, undefined, 'no Origin: not a browser');
    }
    // The session id the server gave is sent back on every later request.
    assert.ok(up.headers.slice(1).every((headers) => typeof headers['mcp-session-id'] === 'string'));
  } finally {
    await client.close();
    await relay.close();
    await up.close();
  }
});

test("progress on a request's stream reaches the agent, and the agent's cancellation ends the call on the server", async () => {
  const up = await upstream();
  const { client, relay } = await relayTo(up);
  try {
    const stop = new AbortController();
    const progress: string[] = [];
    const call = client.callTool({ name: 'slow', arguments: {} }, undefined, {
      signal: stop.signal,
      onprogress: (p) => {
        progress.push(`${p.progress}/${p.total} ${p.message}`);
        stop.abort();
      },
    });
    await assert.rejects(call, /abort/i);
    assert.deepEqual(progress, ['1/10 started']);
    await Promise.race([up.slowAborted, new Promise((_, reject) => setTimeout(() => reject(new Error('the server never saw the cancellation')), 3000))]);
    assert.equal(relay.pending, 0, 'the cancelled exchange is ended, not left open');
  } finally {
    await client.close();
    await relay.close();
    await up.close();
  }
});

test("the server's list_changed on its GET stream reaches the agent", async () => {
  const up = await upstream();
  const { client, relay } = await relayTo(up);
  try {
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed++);
    // The GET stream opens after `initialized`; until it is open the server has nowhere to send.
    for (let i = 0; i < 40 && changed === 0; i++) {
      up.server.sendToolListChanged();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.ok(changed > 0, 'notifications/tools/list_changed arrived');
    assert.ok(up.headers.some((headers) => headers.accept === 'text/event-stream'), 'the GET stream was opened');
  } finally {
    await client.close();
    await relay.close();
    await up.close();
  }
});

test('a request cut off while the host had it is answered with an error saying so, and not sent twice', async () => {
  const up = await upstream();
  const { client, relay, log } = await relayTo(up);
  try {
    await assert.rejects(client.callTool({ name: 'vanish', arguments: {} }), /stopped while answering tools\/call; it may or may not have been done/);
    assert.equal(up.vanished(), 1, 'a write may have been done: never sent again');
    assert.equal(relay.pending, 0);
    // The next request finds the host again (here the same one) and goes on.
    const result = await client.callTool({ name: 'echo', arguments: { text: 'after' } });
    assert.deepEqual(result.content, [{ type: 'text', text: 'echo: after' }]);
    assert.deepEqual(log.filter((line) => /could not/.test(line)), []);
  } finally {
    await client.close();
    await relay.close();
    await up.close();
  }
});

test('with no host found, each request is answered with the reason instead of hanging', async () => {
  const [agentEnd, relayEnd] = InMemoryTransport.createLinkedPair();
  const relay = new McpRelay({ agent: relayEnd, locate: () => Promise.reject(new Error('No Satchel host serves /tmp/x')), log: () => undefined });
  await relay.start();
  const client = new Client({ name: 'relay test', version: '1.0.0' });
  try {
    await assert.rejects(client.connect(agentEnd), /No Satchel host serves \/tmp\/x/);
  } finally {
    await client.close();
    await relay.close();
  }
});
