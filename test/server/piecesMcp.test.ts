/**
 * Pieces MCP configs unchanged: the SDK's own clients, pointed at the URLs agents set up for
 * Pieces use (streamable HTTP at /model_context_protocol/2025-03-26/mcp, the legacy SSE transport
 * at /model_context_protocol/2024-11-05/sse), list and call ask_pieces_ltm and create_pieces_memory
 * and get Satchel's answers, a memory citing a changed file is reported stale, the kinds Satchel
 * does not record answer empty, /mcp keeps its own tool set, and the new paths keep the guards.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startTestServer, request, tempDir, type TestServer } from '../support/helpers.ts';
import { callTool, callToolOk, connectMcp } from '../support/mcpClient.ts';

const STREAMABLE = '/model_context_protocol/2025-03-26/mcp';
const SSE = '/model_context_protocol/2024-11-05/sse';

let t: TestServer;
before(async () => {
  t = await startTestServer();
});
after(async () => {
  await t.close();
});

function connect(kind: 'streamable' | 'sse' | 'satchel', name = 'Cursor'): Promise<Client> {
  return kind === 'sse' ? connectMcp(t.url, name, SSE, 'sse') : connectMcp(t.url, name, kind === 'satchel' ? '/mcp' : STREAMABLE);
}

function json(result: CallToolResult): Record<string, any> {
  const first = result.content[0];
  assert.equal(first?.type, 'text');
  return JSON.parse(first.type === 'text' ? first.text : '{}');
}

function text(result: CallToolResult): string {
  const first = result.content[0];
  return first?.type === 'text' ? first.text : '';
}

const PIECES_TOOLS = [
  'ask_pieces_ltm', 'create_pieces_memory',
  ...['workstream_summaries', 'conversations', 'tags', 'annotations', 'persons', 'anchors', 'workstream_events', 'websites', 'hints', 'models',
    'wpe_sources', 'wpe_source_windows', 'entities', 'conversation_messages'].map((kind) => `${kind}_full_text_search`),
  ...['materials', 'workstream_summaries', 'hints', 'tags', 'workstream_events'].map((kind) => `${kind}_vector_search`),
  'material_identifiers', 'extract_temporal_range',
  ...['workstream_summaries', 'conversations', 'tags', 'annotations', 'persons', 'anchors', 'anchor_points', 'workstream_events', 'hints', 'models',
    'ranges', 'websites', 'entities', 'conversation_messages', 'wpe_sources', 'wpe_source_windows'].map((kind) => `${kind}_batch_snapshot`),
];

test("Pieces' streamable HTTP URL: all 39 Pieces tools and Satchel's own are listed; /mcp lists Satchel's own and the memory tools only", async () => {
  assert.equal(PIECES_TOOLS.length, 39);
  const pieces = await connect('streamable');
  const satchel = await connect('satchel');
  try {
    const offered = new Set((await pieces.listTools()).tools.map((tool) => tool.name));
    for (const name of PIECES_TOOLS) assert.ok(offered.has(name), `${name} is offered`);
    for (const name of ['search_snippets', 'save_snippet', 'save_memory', 'recall_memories']) assert.ok(offered.has(name), `${name} is offered too`);
    const ask = (await pieces.listTools()).tools.find((tool) => tool.name === 'ask_pieces_ltm')!;
    assert.deepEqual([...(ask.inputSchema.required ?? [])].sort(), ['chat_llm', 'question']);
    const own = new Set((await satchel.listTools()).tools.map((tool) => tool.name));
    assert.equal(own.has('ask_pieces_ltm'), false);
    assert.equal(own.has('persons_full_text_search'), false);
    assert.ok(own.has('save_memory') && own.has('recall_memories') && own.has('search_snippets'));
  } finally {
    await pieces.close();
    await satchel.close();
  }
});

test('create_pieces_memory then ask_pieces_ltm over streamable HTTP: the memory comes back with its score; a cited file changed, it is "may be stale"', async () => {
  const project = tempDir('satchel-pieces-project-');
  mkdirSync(join(project, 'src'));
  const cited = join(project, 'src', 'redis.ts');
  writeFileSync(cited, 'export const ttlSeconds = 3600;\n');
  const client = await connect('streamable', 'Claude Code');
  try {
    const created = await callToolOk(client, 'create_pieces_memory', {
      summary_description: 'Search API Redis caching implementation',
      summary: 'Resolved the search API bottleneck with a Redis caching layer: 800 ms down to 120 ms. Cache TTL one hour, invalidated on product updates.',
      project,
      files: [cited],
      externalLinks: ['https://github.com/org/repo/pull/42'],
      connected_client: 'Claude Code',
    });
    assert.match(text(created), /Memory "Search API Redis caching implementation" saved/);
    const id = (created.structuredContent as { id: string }).id;

    let answer = json(await callToolOk(client, 'ask_pieces_ltm', { question: 'how did we make the search API caching faster?', chat_llm: 'gpt-4o-mini', topics: ['redis'] }));
    assert.equal(answer.summaries[0].id, id);
    assert.ok(answer.summaries[0].score > 0);
    assert.match(answer.summaries[0].combined_string, /Redis caching layer/);
    assert.equal(answer.summaries[0].may_be_stale, false);
    assert.equal(answer.summaries[0].project, project);
    assert.deepEqual(answer.summaries[0].links, ['https://github.com/org/repo/pull/42']);
    assert.match(answer.note, /no language model/);

    writeFileSync(cited, 'export const ttlSeconds = 60;\n');
    answer = json(await callToolOk(client, 'ask_pieces_ltm', { question: 'redis caching', chat_llm: 'gpt-4o-mini' }));
    assert.equal(answer.summaries[0].may_be_stale, true);
    assert.match(answer.summaries[0].stale_note, /redis\.ts changed/);
    assert.match(answer.note, /may be stale/);

    // The memory is the agent's change, listed for review like a saved snippet.
    const changes = await request(t.url, 'GET', '/satchel/agent-changes');
    assert.ok(JSON.stringify(changes.json).includes(id));

    // Found again by the summaries tools, listed by time, read whole.
    const searched = json(await callToolOk(client, 'workstream_summaries_full_text_search', { query: 'Redis caching' }));
    assert.equal(searched.results[0].summary.id, id);
    assert.equal(searched.results[0].summary.may_be_stale, true);
    const listed = json(await callToolOk(client, 'material_identifiers', { material_type: 'WORKSTREAM_SUMMARIES', created: { from: '2000-01-01T00:00:00Z' } }));
    assert.deepEqual(listed.identifiers, [id]);
    const snapshot = json(await callToolOk(client, 'workstream_summaries_batch_snapshot', { identifiers: [id, 'no-such-id'] }));
    assert.equal(snapshot.count, 1);
    assert.deepEqual(snapshot.missing_ids, ['no-such-id']);
    assert.match(snapshot.items[0].annotations.iterable[0].text, /800 ms down to 120 ms/);
    const future = json(await callToolOk(client, 'material_identifiers', { material_type: 'WORKSTREAM_SUMMARIES', created: { from: '2999-01-01T00:00:00Z' } }));
    assert.equal(future.count, 0);
  } finally {
    await client.close();
  }
});

test('the kinds Satchel does not record answer empty with a line saying so; time phrases become ranges; a bad time is a tool error', async () => {
  const client = await connect('streamable');
  try {
    for (const [name, args] of [
      ['persons_full_text_search', { query: 'john' }],
      ['workstream_events_full_text_search', { query: 'error', context_type: 'CLIPBOARD' }],
      ['hints_vector_search', { query: 'anything' }],
    ] as const) {
      const answer = json(await callToolOk(client, name, args));
      assert.equal(answer.count, 0);
      assert.match(answer.note ?? answer.next_steps, /Satchel does not record/);
    }
    const events = json(await callToolOk(client, 'workstream_events_batch_snapshot', { identifiers: ['a'] }));
    assert.deepEqual([events.count, events.missing_ids], [0, ['a']]);
    const ids = json(await callToolOk(client, 'material_identifiers', { material_type: 'PERSONS' }));
    assert.deepEqual([ids.count, ids.identifiers], [0, []]);
    const range = json(await callToolOk(client, 'extract_temporal_range', { query: 'what did I do yesterday' }));
    assert.equal(range.count, 1);
    assert.ok(Date.parse(range.ranges[0].to) - Date.parse(range.ranges[0].from) > 23 * 3600_000);
    assert.deepEqual(json(await callToolOk(client, 'extract_temporal_range', { query: 'no time here' })).ranges, []);
    const bad = await callTool(client, 'tags_full_text_search', { query: 'x', created: { from: 'last tuesday' } });
    assert.equal(bad.isError, true);
    assert.match(text(bad), /created\.from.*not an ISO 8601 time/);
  } finally {
    await client.close();
  }
});

test("Pieces' SSE URL (the SDK's SSEClientTransport): lists and calls create_pieces_memory and ask_pieces_ltm; the memory is written as the client that connected", async () => {
  const client = await connect('sse', 'goose');
  try {
    const tools = new Set((await client.listTools()).tools.map((tool) => tool.name));
    assert.ok(tools.has('ask_pieces_ltm') && tools.has('create_pieces_memory'));
    const created = await callToolOk(client, 'create_pieces_memory', { summary_description: 'Deploy checklist for the billing service', summary: 'Run the billing migrations before the canary.' });
    const id = (created.structuredContent as { id: string }).id;
    const answer = json(await callToolOk(client, 'ask_pieces_ltm', { question: 'billing deploy migrations', chat_llm: 'claude' }));
    assert.equal(answer.summaries[0].id, id);
    assert.equal(answer.summaries[0].connected_client, 'goose');
    const history = await request(t.url, 'GET', `/satchel/assets/${id}/revisions`);
    assert.match(JSON.stringify(history.json), /goose/);
  } finally {
    await client.close();
  }
});

test('the new paths are behind the loopback Host and Origin guards; a message for no session is refused', async () => {
  const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
  const headers = { accept: 'application/json, text/event-stream' };
  for (const path of [STREAMABLE, '/model_context_protocol/2024-11-05/messages?sessionId=x']) {
    const foreign = await request(t.url, 'POST', path, { body: initialize, headers: { ...headers, origin: 'https://evil.example' } });
    assert.equal(foreign.status, 403, path);
    const rebound = await raw('POST', path, JSON.stringify(initialize), { host: 'evil.example', 'content-type': 'application/json' });
    assert.equal(rebound.status, 421, path);
  }
  const foreignStream = await raw('GET', SSE, '', { origin: 'https://evil.example' });
  assert.equal(foreignStream.status, 403);
  const reboundStream = await raw('GET', SSE, '', { host: 'evil.example' });
  assert.equal(reboundStream.status, 421);
  const noSession = await request(t.url, 'POST', '/model_context_protocol/2024-11-05/messages?sessionId=nope', { body: initialize });
  assert.equal(noSession.status, 404);
  assert.equal(noSession.json?.jsonrpc, '2.0');
  const get = await request(t.url, 'GET', STREAMABLE);
  assert.equal(get.status, 405);
});

/** A request with headers fetch would not let us set (Host); resolves at the status line for a stream. */
function raw(method: string, path: string, body: string, headers: Record<string, string>): Promise<{ status: number }> {
  const url = new URL(t.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, method, headers: { ...(body ? { 'content-length': Buffer.byteLength(body) } : {}), ...headers } }, (res) => {
      resolve({ status: res.statusCode ?? 0 });
      res.destroy();
    });
    req.on('error', reject);
    req.end(body || undefined);
  });
}

test("/mcp's own save_memory and recall_memories: a memory whose cited file is gone is recalled as may be stale", async () => {
  const dir = tempDir('satchel-memory-mcp-');
  const cited = join(dir, 'deploy.sh');
  writeFileSync(cited, 'make deploy\n');
  const client = await connect('satchel', 'Codex');
  try {
    const saved = await callToolOk(client, 'save_memory', { title: 'How staging deploys', text: 'Run deploy.sh after the migrations.', files: [cited], tags: ['deploy'] });
    const id = (saved.structuredContent as { id: string }).id;
    let recalled = (await callToolOk(client, 'recall_memories', { query: 'staging deploys' })).structuredContent as { memories: Array<Record<string, any>> };
    assert.equal(recalled.memories[0]!.id, id);
    assert.equal(recalled.memories[0]!.may_be_stale, false);
    // A snippet search finds it too, marked as a memory rather than passed off as code.
    const found = await callToolOk(client, 'search_snippets', { query: 'staging deploys' });
    assert.deepEqual((found.structuredContent as { snippets: Array<{ id: string; memory?: boolean }> }).snippets.map((s) => [s.id, s.memory]), [[id, true]]);
    assert.match(text(found), /memory, Markdown/);
    const { rmSync } = await import('node:fs');
    rmSync(cited);
    const result = await callToolOk(client, 'recall_memories', {});
    recalled = result.structuredContent as { memories: Array<Record<string, any>> };
    assert.equal(recalled.memories[0]!.may_be_stale, true);
    assert.match(text(result), /May be stale.*deploy\.sh is gone/);
  } finally {
    await client.close();
  }
});
