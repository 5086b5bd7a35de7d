/**
 * MCP's conversation tools answer what an agent can use, never the whole store (issue 26): a list
 * of `limit` conversations, most recently updated first; a conversation a page of messages at a
 * time, each cut to a preview with its full length, and where the next page starts.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startTestServer, type TestServer } from '../support/helpers.ts';
import { callTool, callToolOk, connectMcp } from '../support/mcpClient.ts';

let t: TestServer;
let client: Client;

before(async () => {
  t = await startTestServer();
  client = await connectMcp(t.url, 'satchel-conversations-test');
});
after(async () => {
  await client.close();
  await t.close();
});

async function call<T>(name: string, args: Record<string, unknown>): Promise<{ text: string; structured: T }> {
  const result = await callToolOk(client, name, args);
  const first = result.content[0];
  const text = first?.type === 'text' ? first.text : '';
  return { text, structured: result.structuredContent as T };
}

interface Page {
  total: number;
  offset: number;
  next_offset?: number;
  messages: Array<{ role: string; text: string; chars: number; truncated: boolean }>;
}

test('read_conversation answers a page of previews and the offset of the next page', async () => {
  const long = `${'A long answer. '.repeat(1_000)}THE END`;
  const conversation = t.core.conversations.create(
    {
      type: 'COPILOT',
      name: 'Paged',
      messages: Array.from({ length: 45 }, (_, i) => ({
        role: i % 2 === 0 ? ('USER' as const) : ('ASSISTANT' as const),
        fragment: { string: { raw: i === 1 ? long : `message ${i}` } },
      })),
    },
    false,
  );

  const first = await call<Page>('read_conversation', { id: conversation.id });
  assert.equal(first.structured.total, 45);
  assert.equal(first.structured.offset, 0);
  assert.equal(first.structured.messages.length, 20, 'twenty by default');
  assert.equal(first.structured.next_offset, 20);
  const preview = first.structured.messages[1]!;
  assert.equal(preview.chars, long.length);
  assert.equal(preview.truncated, true);
  // The opening of the message, less a word the cut touches (it may be part of a value too short to be found: issue 32).
  assert.equal(preview.text, long.slice(0, 4_000).replace(/\S+$/u, ''), 'a preview is the opening of the message');
  assert.equal(first.structured.messages[2]!.truncated, false);
  assert.match(first.text, /messages 1–20 of 45/);
  assert.match(first.text, /\[… the first 4000 of 15007 characters\]/);
  assert.match(first.text, /25 more message\(s\): call read_conversation with offset 20\./);

  const last = await call<Page>('read_conversation', { id: conversation.id, offset: 40, limit: 10 });
  assert.deepEqual(
    last.structured.messages.map((message) => message.text),
    ['message 40', 'message 41', 'message 42', 'message 43', 'message 44'],
  );
  assert.equal(last.structured.next_offset, undefined, 'no next page after the last');

  const past = await call<Page>('read_conversation', { id: conversation.id, offset: 100 });
  assert.deepEqual(past.structured.messages, []);
  assert.equal(past.structured.total, 45);
});

test('read_conversation refuses a limit over 100 and a negative offset', async () => {
  const { id } = t.core.conversations.create({ type: 'COPILOT', name: 'bounds' }, false);
  for (const args of [{ limit: 101 }, { offset: -1 }]) {
    const result = await callTool(client, 'read_conversation', { id, ...args });
    assert.equal(result.isError, true, JSON.stringify(args));
    assert.match(result.content[0]?.type === 'text' ? result.content[0].text : '', /Input validation error/);
  }
});

test('list_conversations answers the `limit` conversations updated last, with their message counts', async () => {
  const made: string[] = [];
  for (let i = 0; i < 4; i++) {
    made.push(t.core.conversations.create({ type: 'COPILOT', name: `listed ${i}`, messages: [{ role: 'USER', fragment: { string: { raw: 'hi' } } }] }, false).id);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  // A message makes its conversation the one updated last.
  t.core.conversations.createMessage(made[0]!, { role: 'ASSISTANT', fragment: { string: { raw: 'hello' } } }, false);
  const { structured } = await call<{ conversations: Array<{ id: string; name: string; messages: number }> }>('list_conversations', { limit: 3 });
  assert.deepEqual(
    structured.conversations.map((c) => [c.name, c.messages]),
    [
      ['listed 0', 2],
      ['listed 3', 1],
      ['listed 2', 1],
    ],
  );
});
