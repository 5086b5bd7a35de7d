/**
 * What one MCP call costs and how many run at once: servers are built once and lent to one
 * exchange at a time (never mixing clients, never after an `initialize` or a timed-out exchange),
 * and past a line of waiting calls /mcp answers busy. The health of a host under 200 concurrent
 * calls is test/reliability/mcpCalls.test.ts's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { callTool, connectMcp } from '../support/mcpClient.ts';
import { startTestServer, withCore } from '../support/helpers.ts';
import { McpServers } from '../../src/server/mcp/mcpServer.ts';
import { DEFAULT_SLOT_LIMITS, ExchangeSlots } from '../../src/server/mcp/exchangeSlots.ts';
import { HttpError } from '../../src/server/errors.ts';
import { authorOf } from '../../src/core/history/authors.ts';
import { searchSlots } from '../../src/server/searchSlots.ts';

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** One tools/call through a fresh transport on `server`, as the route makes it. */
async function exchangeOn(server: ReturnType<McpServers['take']>, body: unknown): Promise<unknown> {
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    const reply = await transport.handleRequest(new Request('http://127.0.0.1/mcp', { method: 'POST', headers: MCP_HEADERS }), { parsedBody: body });
    return JSON.parse(await reply.text()) as unknown;
  } finally {
    await server.close();
  }
}

test('a kept server is lent again to its own author only, and serves every exchange it is lent for', async () => {
  await withCore(async (core) => {
    const servers = new McpServers(core, searchSlots());
    const claude = authorOf('mcp', 'Claude Code');
    const cursor = authorOf('mcp', 'Cursor');
    const first = servers.take(claude);
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_recent_snippets', arguments: { limit: 1 } } };
    await exchangeOn(first, call);
    servers.keep(claude, first);
    assert.notEqual(servers.take(cursor), first, 'another client gets a server of its own');
    assert.equal(servers.take(claude), first);
    // Lent again, it answers as a fresh one would (the same request id as before).
    assert.deepEqual(await exchangeOn(first, call), await exchangeOn(servers.take(claude), call));
    assert.throws(() => {
      const connected = servers.take(claude);
      void connected.connect(new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined }));
      servers.keep(claude, connected);
    }, /only once closed/);
  });
});

test('saves through /mcp are by each client\'s own name when clients interleave, however servers are lent', async () => {
  const t = await startTestServer();
  const names = ['Claude Code', 'Cursor', 'Continue'];
  const clients = await Promise.all(names.map((name) => connectMcp(t.url, name)));
  try {
    const saves = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const client = clients[i % clients.length]!;
        const result = await callTool(client, 'save_snippet', { content: `export const interleaved${i} = ${i};\n`, language: 'ts' });
        return { id: (result.structuredContent as { id: string }).id, name: names[i % names.length]! };
      }),
    );
    for (const save of saves) {
      const history = await (await fetch(`${t.url}/satchel/assets/${save.id}/revisions`)).json() as { revisions: Array<{ author: unknown }> };
      assert.deepEqual(history.revisions[0]!.author, { kind: 'mcp', name: save.name });
    }
    // A bare call without a session id after all of them is still "MCP client".
    const bare = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: MCP_HEADERS,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'save_snippet', arguments: { content: 'export const bare = 1;\n' } } }),
    });
    const id = ((await bare.json()) as { result: { structuredContent: { id: string } } }).result.structuredContent.id;
    const history = await (await fetch(`${t.url}/satchel/assets/${id}/revisions`)).json() as { revisions: Array<{ author: unknown }> };
    assert.deepEqual(history.revisions[0]!.author, { kind: 'mcp', name: 'MCP client' });
  } finally {
    await Promise.all(clients.map((client) => client.close()));
    await t.close();
  }
});

test('exchange slots: at most `running` at once, the rest in order, refused as busy past the line or the wait', async () => {
  const slots = new ExchangeSlots({ running: 2, waiting: 2, waitMs: 200 });
  const gates: Array<() => void> = [];
  const started: number[] = [];
  const held = (i: number) => () =>
    new Promise<number>((resolve) => {
      started.push(i);
      gates.push(() => resolve(i));
    });
  const runs = [0, 1, 2, 3].map((i) => slots.run(held(i)));
  await assert.rejects(slots.run(held(4)), (error: unknown) => error instanceof HttpError && error.status === 503 && error.code === 'busy');
  assert.deepEqual(started, [], 'each starts on a turn of its own');
  await turn();
  assert.deepEqual(started, [0]);
  await turn();
  await turn();
  assert.deepEqual(started, [0, 1]);
  assert.deepEqual(slots.load, { running: 2, waiting: 2 });
  gates.shift()!();
  await runs[0];
  await turn();
  assert.deepEqual(started, [0, 1, 2], 'the first waiting call runs on the next turn');
  // The last one waits longer than 200 ms for its turn and is refused.
  await assert.rejects(runs[3]!, (error: unknown) => error instanceof HttpError && error.code === 'busy' && /waited 0.2 s/.test(error.message));
  for (const open of gates.splice(0)) open();
  assert.deepEqual(await Promise.all(runs.slice(0, 3)), [0, 1, 2]);
  assert.deepEqual(slots.load, { running: 0, waiting: 0 });
});

test('exchange slots: a call whose client left while it waited never runs', async () => {
  const slots = new ExchangeSlots({ running: 1, waiting: 4, waitMs: 5_000 });
  let release = (): void => {};
  const first = slots.run(() => new Promise<void>((resolve) => (release = resolve)));
  await turn();
  const left = new AbortController();
  let ran = false;
  const second = slots.run(async () => {
    ran = true;
  }, left.signal);
  left.abort();
  assert.equal(await second, undefined);
  release();
  await first;
  await turn();
  assert.equal(ran, false);
  assert.deepEqual(slots.load, { running: 0, waiting: 0 });
});

test('past the running calls and the waiting line, /mcp answers a JSON-RPC error, 503 busy with Retry-After; the others are answered', async () => {
  const t = await startTestServer();
  try {
    // Searches by query wait on the semantic recall first: held there, they keep their slots.
    let open = (): void => {};
    const opened = new Promise<void>((resolve) => (open = resolve));
    // plan() is where every search by query asks (prepare() goes through it too).
    const plan = t.core.recall.plan.bind(t.core.recall);
    t.core.recall.plan = async (query: string) => {
      await opened;
      return plan(query);
    };
    const { running, waiting } = DEFAULT_SLOT_LIMITS;
    const extra = 20;
    const refused: Array<{ status: number; retryAfter: string | null; body: unknown }> = [];
    let refusedAll = (): void => {};
    const allRefused = new Promise<void>((resolve) => (refusedAll = resolve));
    const calls = Array.from({ length: running + waiting + extra }, async (_, i) => {
      const reply = await fetch(`${t.url}/mcp`, {
        method: 'POST',
        headers: MCP_HEADERS,
        body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'search_snippets', arguments: { query: 'anything' } } }),
      });
      const answer = { status: reply.status, retryAfter: reply.headers.get('retry-after'), body: await reply.json() };
      if (reply.status === 503 && refused.push(answer) === extra) refusedAll();
      return answer;
    });
    // Refused at once while every slot is held and the line is full.
    await allRefused;
    for (const answer of refused) {
      assert.equal(answer.retryAfter, '1');
      assert.deepEqual(answer.body, {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32000, message: `More than ${waiting} MCP requests are waiting for their turn; retry shortly.`, data: { code: 'busy' } },
      });
    }
    open();
    const answers = await Promise.all(calls);
    assert.equal(answers.filter((answer) => answer.status === 200).length, running + waiting);
    assert.equal(answers.filter((answer) => answer.status === 503).length, extra);
  } finally {
    await t.close();
  }
});
