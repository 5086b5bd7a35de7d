/**
 * MCP save_snippet is a door like the others (docs/limits.md): its schema states the store's limits
 * (core/limits.ts) to the agent, and a save over any of them is a tool error naming the limit and the
 * size sent, with nothing stored.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { callTool, callToolOk, connectMcp } from '../support/mcpClient.ts';
import { startTestServer, type TestServer } from '../support/helpers.ts';
import { LIMITS } from '../../src/core/limits.ts';

let t: TestServer;
let client: Client;

before(async () => {
  t = await startTestServer();
  client = await connectMcp(t.url, 'satchel-limits-test');
});
after(async () => {
  await client.close();
  await t.close();
});

function text(result: CallToolResult): string {
  const first = result.content[0];
  return first?.type === 'text' ? first.text : '';
}

test('save_snippet publishes the store limits in its input schema', async () => {
  const { tools } = await client.listTools();
  const save = tools.find((tool) => tool.name === 'save_snippet')!;
  const properties = save.inputSchema.properties as Record<string, { maxLength?: number; maxItems?: number; items?: { maxLength?: number } }>;
  assert.equal(properties['content']?.maxLength, LIMITS.contentChars);
  assert.equal(properties['name']?.maxLength, LIMITS.nameChars);
  assert.equal(properties['tags']?.maxItems, LIMITS.tagsPerAsset);
  assert.equal(properties['tags']?.items?.maxLength, LIMITS.tagChars);
  assert.equal(properties['websites']?.maxItems, LIMITS.websitesPerAsset);
  assert.equal(properties['websites']?.items?.maxLength, LIMITS.urlChars);
});

test('save_snippet over a limit is a tool error naming the limit and the size; nothing is stored', async () => {
  const before = t.core.assets.identifiers().length;
  const longUrl = `https://example.com/${'p'.repeat(LIMITS.urlChars)}`;
  const cases: Array<[Record<string, unknown>, RegExp]> = [
    [{ content: 'x'.repeat(LIMITS.contentChars + 1) }, /text content has 4,194,305 characters; the limit is 4,194,304/],
    [{ content: 'const a = 1;', tags: Array.from({ length: LIMITS.tagsPerAsset + 1 }, (_, i) => `t${i}`) }, /A snippet has 129 tags; the limit is 128/],
    [{ content: 'const a = 1;', tags: ['t'.repeat(LIMITS.tagChars + 1)] }, /A tag has 257 characters; the limit is 256/],
    [{ content: 'const a = 1;', name: 'n'.repeat(LIMITS.nameChars + 1) }, /A name has 513 characters; the limit is 512/],
    [{ content: 'const a = 1;', websites: Array.from({ length: LIMITS.websitesPerAsset + 1 }, (_, i) => `https://example.com/${i}`) }, /A snippet has 65 websites; the limit is 64/],
    [{ content: 'const a = 1;', websites: [longUrl] }, new RegExp(`url has ${longUrl.length.toLocaleString('en-US')} characters; the limit is 2,048`)],
  ];
  for (const [args, message] of cases) {
    const result = await callTool(client, 'save_snippet', args);
    assert.equal(result.isError, true, JSON.stringify(args).slice(0, 100));
    assert.match(text(result), message);
  }
  assert.equal(t.core.assets.identifiers().length, before, 'nothing stored');

  await callToolOk(client, 'save_snippet', { content: 'const atTheLimit = 1;', tags: Array.from({ length: LIMITS.tagsPerAsset }, (_, i) => `t${i}`) });
  assert.equal(t.core.assets.identifiers().length, before + 1);
});
