/**
 * The MCP server at /mcp, driven by the SDK's own client against a real host on port 0: every tool
 * and the snippet resources, checked against the store; a save seen on an asset stream; bad
 * arguments. The HTTP edge of /mcp is mcpEdge.test.ts's.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { WebSocket } from 'ws';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { callTool, connectMcp } from '../support/mcpClient.ts';
import { startTestServer, request, waitFor, type TestServer } from '../support/helpers.ts';
import { DATABASE_FILE } from '../../src/core/store/database.ts';
import { MAX_CONTENT_CHARS } from '../../src/server/mcp/snippetViews.ts';
import { TEST_WRITE } from '../support/authors.ts';

let t: TestServer;
let client: Client;

before(async () => {
  t = await startTestServer();
  client = await connectMcp(t.url, 'satchel-test');
});
after(async () => {
  await client.close();
  await t.close();
});

function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return callTool(client, name, args);
}

function text(result: CallToolResult): string {
  const first = result.content[0];
  assert.equal(first?.type, 'text');
  return first.type === 'text' ? first.text : '';
}

function structured<T>(result: CallToolResult): T {
  assert.notEqual(result.isError, true, text(result));
  assert.ok(result.structuredContent, 'a structured result');
  return result.structuredContent as T;
}

const RETRY = `export async function retryWithBackoff<T>(task: () => Promise<T>, attempts = 5): Promise<T> {
  let delay = 100;
  for (let attempt = 1; ; attempt++) {
    try {
      return await task();
    } catch (error) {
      if (attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay *= 2;
    }
  }
}
`;

const PY = `def parse_config(path):
    """Reads a TOML configuration file into a dictionary."""
    import tomllib
    with open(path, "rb") as handle:
        return tomllib.load(handle)
`;

interface Saved {
  id: string;
  name: string;
  language: string;
  tags: string[];
}

test('the tools are listed with JSON schemas and descriptions', async () => {
  const { tools } = await client.listTools();
  const names = tools.map((tool) => tool.name).sort();
  assert.deepEqual(names, [
    'check_snippet_saved',
    'delete_snippet',
    'get_snippet',
    'list_conversations',
    'list_recent_snippets',
    'read_conversation',
    'recall_memories',
    'save_memory',
    'save_snippet',
    'search_snippets',
    'update_snippet',
  ]);
  for (const tool of tools) {
    assert.ok((tool.description ?? '').length > 40, `${tool.name} describes itself`);
    assert.equal(tool.inputSchema.type, 'object');
    assert.ok(tool.outputSchema, `${tool.name} publishes its output schema`);
  }
  const search = tools.find((tool) => tool.name === 'search_snippets');
  assert.deepEqual(Object.keys(search?.inputSchema.properties ?? {}).sort(), ['language', 'limit', 'query', 'tags']);
  const save = tools.find((tool) => tool.name === 'save_snippet');
  assert.deepEqual(save?.inputSchema.required, ['content']);
  assert.equal(save?.annotations?.readOnlyHint, false);
  assert.equal(search?.annotations?.readOnlyHint, true);
});

test('save_snippet writes durably through core and the write appears on /assets/stream', async () => {
  const ws = new WebSocket(`${t.url.replace('http', 'ws')}/assets/stream/identifiers`);
  const frames: Array<{ iterable: Array<{ asset: { id: string } }> }> = [];
  ws.on('message', (data) => frames.push(JSON.parse(String(data))));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  try {
    await waitFor(() => frames.length >= 1); // the connect frame
    const result = await call('save_snippet', {
      content: RETRY,
      name: 'Retry with backoff',
      tags: ['async', 'retry'],
      language: 'TypeScript',
      websites: ['https://example.com/backoff'],
    });
    const saved = structured<Saved>(result);
    assert.match(text(result), /Saved "Retry with backoff"/);
    assert.equal(saved.language, 'ts');
    assert.deepEqual(saved.tags, ['async', 'retry']);

    // Committed before the answer: another connection to the database file already sees the row.
    const db = new DatabaseSync(join(t.dataDir, DATABASE_FILE), { readOnly: true });
    try {
      assert.ok(db.prepare('SELECT id FROM assets WHERE id = ?').get(saved.id), 'the row is committed');
    } finally {
      db.close();
    }
    const stored = t.core.assets.get(saved.id);
    assert.equal(t.core.assets.text(saved.id), RETRY);
    assert.equal(stored.name, 'Retry with backoff');
    assert.deepEqual(stored.tags?.iterable.map((tag) => tag.text), ['async', 'retry']);
    assert.deepEqual(stored.websites?.iterable.map((site) => site.url), ['https://example.com/backoff']);

    await waitFor(() => frames.slice(1).some((frame) => frame.iterable.some((entry) => entry.asset.id === saved.id)));
  } finally {
    ws.close();
  }
});

test('save_snippet detects the language when none is given and derives a name', async () => {
  const saved = structured<Saved>(await call('save_snippet', { content: PY, tags: ['config'] }));
  const format = t.core.assets.get(saved.id).formats.iterable[0];
  assert.equal(saved.language, format?.classification.specific);
  assert.equal(saved.language, 'py');
  assert.equal(saved.name, 'parse_config');
});

test('search_snippets finds by query, tags and language, and honours the limit', async () => {
  const ids = new Map(t.core.assets.list().map((asset) => [asset.name, asset.id]));
  const retryId = ids.get('Retry with backoff');
  const pyId = ids.get('parse_config');
  assert.ok(retryId && pyId);

  const byQuery = structured<{ snippets: Array<{ id: string; preview: string; language: string }> }>(
    await call('search_snippets', { query: 'retryWithBackoff' }),
  );
  assert.equal(byQuery.snippets[0]?.id, retryId);
  assert.ok(byQuery.snippets[0]?.preview.startsWith('export async function retryWithBackoff'));
  assert.ok(byQuery.snippets[0]!.preview.length <= 241, 'a short preview');

  const byTag = structured<{ snippets: Array<{ id: string }> }>(await call('search_snippets', { tags: ['config'] }));
  assert.deepEqual(byTag.snippets.map((s) => s.id), [pyId]);

  const byLanguage = structured<{ snippets: Array<{ id: string }> }>(await call('search_snippets', { language: 'python' }));
  assert.deepEqual(byLanguage.snippets.map((s) => s.id), [pyId]);

  const none = await call('search_snippets', { query: 'retryWithBackoff', language: 'py' });
  assert.deepEqual(structured<{ snippets: unknown[] }>(none).snippets, []);
  assert.match(text(none), /No saved snippet matches/);

  const limited = structured<{ snippets: unknown[] }>(await call('search_snippets', { language: 'ts', limit: 1 }));
  assert.equal(limited.snippets.length, 1);
});

test('a language search follows a snippet whose language was changed afterwards', async () => {
  const id = structured<Saved>(await call('save_snippet', { content: 'package main\n\nfunc main() { println("hi") }\n', language: 'ts' })).id;
  try {
    t.core.assets.writes.reclassify(id, 'go', TEST_WRITE);
    const go = structured<{ snippets: Array<{ id: string; language: string }> }>(await call('search_snippets', { language: 'Go' }));
    assert.deepEqual(go.snippets.map((s) => [s.id, s.language]), [[id, 'go']]);
    const ts = structured<{ snippets: Array<{ id: string }> }>(await call('search_snippets', { language: 'ts' }));
    assert.ok(!ts.snippets.some((s) => s.id === id));
  } finally {
    t.core.assets.writes.delete(id, TEST_WRITE);
  }
});

test('get_snippet returns the full content, tags, websites and linked conversations', async () => {
  const id = t.core.assets.list().find((asset) => asset.name === 'Retry with backoff')!.id;
  const conversation = t.core.conversations.create(
    { type: 'COPILOT', name: 'About retries', assets: { iterable: [{ id }] }, messages: [{ role: 'USER', fragment: { string: { raw: 'How long is the last delay?' } } }] },
    false,
  );
  const result = await call('get_snippet', { id });
  const detail = structured<{ content: string; tags: string[]; websites: Array<{ url: string }>; conversations: Array<{ id: string; name: string }>; languageName: string }>(result);
  assert.equal(detail.content, RETRY);
  assert.deepEqual(detail.tags, ['async', 'retry']);
  assert.deepEqual(detail.websites.map((site) => site.url), ['https://example.com/backoff']);
  assert.deepEqual(detail.conversations, [{ id: conversation.id, name: 'About retries' }]);
  assert.equal(detail.languageName, 'TypeScript');
  assert.ok(text(result).includes('```ts\nexport async function retryWithBackoff'), 'the code in a fence');
});

test('a snippet larger than an agent can use is cut in get_snippet and whole as a resource', async () => {
  const big = `const table = [\n${'  "0123456789abcdef",\n'.repeat(20_000)}];\n`;
  const id = structured<Saved>(await call('save_snippet', { content: big, name: 'Big table', language: 'js' })).id;
  try {
    const result = await call('get_snippet', { id });
    const detail = structured<{ content: string; truncated: boolean; length: number }>(result);
    assert.equal(detail.truncated, true);
    assert.equal(detail.length, big.length);
    assert.equal(detail.content, big.slice(0, MAX_CONTENT_CHARS));
    assert.match(text(result), new RegExp(`read satchel://assets/${id} for all of it`));
    const read = await client.readResource({ uri: `satchel://assets/${id}` });
    assert.equal((read.contents[0] as { text: string }).text, big);
  } finally {
    t.core.assets.writes.delete(id, TEST_WRITE);
  }
});

test('list_recent_snippets lists the newest first', async () => {
  const newest = t.core.assets.identifiers();
  const recent = structured<{ snippets: Array<{ id: string }> }>(await call('list_recent_snippets', { limit: 1 }));
  assert.deepEqual(recent.snippets.map((s) => s.id), newest.slice(0, 1));
  const all = structured<{ snippets: Array<{ id: string }> }>(await call('list_recent_snippets', {}));
  assert.deepEqual(all.snippets.map((s) => s.id), newest.slice(0, 10));
});

test('check_snippet_saved answers with the connector decision and records no copy', async () => {
  const copies = () => (t.core.context.database.prepare('SELECT COUNT(*) AS n FROM connector_copies').get() as { n: number }).n;
  const before = copies();
  const retryId = t.core.assets.list().find((asset) => asset.name === 'Retry with backoff')!.id;
  const reindented = RETRY.replace(/ {2}/g, '\t').replace('delay *= 2', 'delay = delay * 2');
  for (let round = 0; round < 2; round++) {
    // Asked twice, answered twice: a question is not a repeated copy.
    const saved = structured<{ saved: boolean; matches: Array<{ id: string; similarity: number }> }>(
      await call('check_snippet_saved', { content: reindented }),
    );
    assert.equal(saved.saved, true);
    assert.equal(saved.matches[0]?.id, retryId);
    assert.ok(saved.matches[0]!.similarity >= 0.5);
  }
  const fresh = structured<{ saved: boolean; worthSaving: boolean }>(
    await call('check_snippet_saved', {
      content: `class LruCache<K, V> {\n  private readonly entries = new Map<K, V>();\n  constructor(private readonly capacity: number) {}\n  get(key: K): V | undefined {\n    const value = this.entries.get(key);\n    if (value !== undefined) { this.entries.delete(key); this.entries.set(key, value); }\n    return value;\n  }\n}\n`,
    }),
  );
  assert.deepEqual(fresh, { saved: false, worthSaving: true, matches: [] });
  const trivial = structured<{ saved: boolean; reason: string }>(await call('check_snippet_saved', { content: 'x = 1' }));
  assert.equal(trivial.saved, false);
  assert.equal(trivial.reason, 'too_short');
  assert.equal(copies(), before);
});

test('list_conversations and read_conversation read the store', async () => {
  const created = t.core.conversations.create(
    {
      type: 'COPILOT',
      name: 'Parsing TOML',
      messages: [
        { role: 'USER', fragment: { string: { raw: 'How do I read a TOML file?' } } },
        { role: 'ASSISTANT', fragment: { string: { raw: 'Use tomllib.load on a binary file handle.' } } },
      ],
    },
    false,
  );
  const listed = structured<{ conversations: Array<{ id: string; name: string; messages: number }> }>(await call('list_conversations', {}));
  assert.equal(listed.conversations.length, t.core.conversations.identifiers().iterable.length);
  assert.deepEqual(listed.conversations.find((c) => c.id === created.id), {
    id: created.id,
    name: 'Parsing TOML',
    messages: 2,
    snippets: [],
    updated: created.updated.value,
  });
  const read = await call('read_conversation', { id: created.id });
  const body = structured<{ messages: Array<{ role: string; text: string }> }>(read);
  assert.deepEqual(
    body.messages.map((m) => [m.role, m.text]),
    [
      ['USER', 'How do I read a TOML file?'],
      ['ASSISTANT', 'Use tomllib.load on a binary file handle.'],
    ],
  );
  assert.match(text(read), /## assistant .*\nUse tomllib\.load/);
});

test('snippets are resources: a template, a listing, and reads by URI', async () => {
  const { resourceTemplates } = await client.listResourceTemplates();
  assert.deepEqual(resourceTemplates.map((template) => template.uriTemplate), ['satchel://assets/{id}']);
  const { resources } = await client.listResources();
  const newest = t.core.assets.identifiers();
  assert.deepEqual(resources.map((resource) => resource.uri), newest.map((id) => `satchel://assets/${id}`));
  const retry = t.core.assets.list().find((asset) => asset.name === 'Retry with backoff')!;
  const read = await client.readResource({ uri: `satchel://assets/${retry.id}` });
  assert.deepEqual(read.contents, [{ uri: `satchel://assets/${retry.id}`, mimeType: 'text/plain', text: RETRY }]);
  await assert.rejects(client.readResource({ uri: 'satchel://assets/no-such-snippet' }), (error: unknown) => {
    assert.ok(error instanceof McpError);
    assert.equal(error.code, -32002);
    return true;
  });
});

test('bad arguments are MCP errors and change nothing', async () => {
  const count = t.core.assets.identifiers().length;
  const cases: Array<[string, Record<string, unknown>, RegExp]> = [
    ['get_snippet', { id: 5 }, /Input validation error/],
    ['get_snippet', {}, /Input validation error/],
    ['get_snippet', { id: 'no-such-snippet' }, /not found/],
    ['search_snippets', {}, /Give a query, tags or a language/],
    ['search_snippets', { query: 'x', limit: 1000 }, /Input validation error/],
    ['search_snippets', { language: 'klingon' }, /Unknown language "klingon"/],
    ['save_snippet', { content: '   \n' }, /only whitespace/],
    ['save_snippet', { content: 'const a = 1;', language: 'klingon' }, /Unknown language/],
    ['save_snippet', { content: 'const a = 1;', tags: 'a,b' }, /Input validation error/],
    ['save_snippet', { content: 'const a = 1;', websites: ['not a url'] }, /Input validation error/],
    ['read_conversation', { id: 'no-such-conversation' }, /not found/],
    ['list_recent_snippets', { limit: 0 }, /Input validation error/],
    ['check_snippet_saved', { content: '' }, /Input validation error/],
    ['no_such_tool', {}, /not found/],
  ];
  for (const [name, args, message] of cases) {
    const result = await call(name, args);
    assert.equal(result.isError, true, `${name} ${JSON.stringify(args)}`);
    assert.match(text(result), message, `${name} ${JSON.stringify(args)}`);
  }
  assert.equal(t.core.assets.identifiers().length, count);
  assert.equal((await request(t.url, 'GET', '/.well-known/health')).status, 200);
});

test('many clients at once, each with its own stateless exchange', async () => {
  const clients = await Promise.all(Array.from({ length: 12 }, () => connectMcp(t.url, 'satchel-test')));
  try {
    const results = await Promise.all(clients.map((c) => callTool(c, 'search_snippets', { query: 'retry' })));
    for (const result of results) assert.notEqual(result.isError, true);
  } finally {
    await Promise.all(clients.map((c) => c.close()));
  }
});
