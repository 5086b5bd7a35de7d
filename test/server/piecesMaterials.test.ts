/**
 * The Pieces material tools over what Satchel holds, through the SDK's client at Pieces' URL:
 * conversations (with the messages that matched), messages, tags, websites, annotations (by type)
 * and anchors found by their words with `similarity` and `exact`, listed by material_identifiers
 * and read by their batch snapshots; `ask_pieces_ltm` finds snippets and messages as events.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startTestServer, type TestServer } from '../support/helpers.ts';
import { callToolOk, connectMcp } from '../support/mcpClient.ts';
import { TEST_WRITE } from '../support/authors.ts';

let t: TestServer;
let client: Client;
let conversation: string;
let snippet: string;

before(async () => {
  t = await startTestServer();
  const core = t.core;
  const created = core.conversations.create(
    {
      type: 'COPILOT',
      name: 'Jest mocks under ESM',
      messages: [
        { role: 'USER', fragment: { string: { raw: 'My Jest test fails after moving to ESM: the repository mock is undefined.' } } },
        { role: 'ASSISTANT', fragment: { string: { raw: 'Use jest.unstable_mockModule before a dynamic import; jest.mock is not hoisted under ESM.' } } },
      ],
      annotations: [{ type: 'DOCUMENTATION', text: 'How to mock modules in Jest with ESM' }],
      anchors: [{ type: 'FILE', fullpath: '/home/dev/shop/src/userService.test.ts', name: 'user service tests' }],
    },
    false,
  );
  conversation = created.id;
  const asset = await core.assets.writes.create(
    {
      type: 'SEEDED_ASSET',
      asset: {
        format: { fragment: { string: { raw: 'jest.unstable_mockModule("./repo.js", () => ({ save: jest.fn() }));\n' }, metadata: { ext: 'js' } } },
        metadata: { name: 'ESM jest module mock', tags: [{ text: 'jest-esm' }], websites: [{ url: 'https://jestjs.io/docs/ecmascript-modules', name: 'Jest ESM docs' }] },
      },
    },
    TEST_WRITE,
  );
  snippet = asset.id;
  client = await connectMcp(t.url, 'Cursor', '/model_context_protocol/2025-03-26/mcp');
});

after(async () => {
  await client.close();
  await t.close();
});

async function json(name: string, args: Record<string, unknown>): Promise<Record<string, any>> {
  const first = (await callToolOk(client, name, args)).content[0];
  return JSON.parse(first?.type === 'text' ? first.text : '{}');
}

test('conversations are found by their name and messages, without their messages, with the messages that matched', async () => {
  const found = await json('conversations_full_text_search', { query: 'unstable_mockModule' });
  assert.equal(found.count, 1);
  assert.equal(found.results[0].conversation.id, conversation);
  assert.equal(found.results[0].conversation.messages, undefined);
  assert.match(found.results[0].matched_messages[0].text, /unstable_mockModule/);
  const byName = await json('conversations_full_text_search', { query: 'Jest mocks under ESM' });
  assert.equal(byName.results[0].exact, true);
  const messages = await json('conversation_messages_full_text_search', { query: 'repository mock undefined' });
  assert.equal(messages.count, 2, 'both hold "mock"');
  assert.equal(messages.results[0].message.role, 'USER', 'the one holding every word first');
  assert.equal(messages.results[0].similarity, 1);
  assert.match(messages.results[0].message.text, /repository mock is undefined/);
  assert.ok(messages.results[1].similarity < 1);
  const ids = await json('material_identifiers', { material_type: 'CONVERSATION_MESSAGES' });
  assert.equal(ids.count, 2);
  const snapshot = await json('conversation_messages_batch_snapshot', { identifiers: ids.identifiers });
  assert.equal(snapshot.count, 2);
  const conversations = await json('conversations_batch_snapshot', { identifiers: [conversation] });
  assert.equal(conversations.items[0].name, 'Jest mocks under ESM');
});

test('tags, websites, annotations (by type) and anchors are found by their words and read by id', async () => {
  const tags = await json('tags_full_text_search', { query: 'jest-esm' });
  assert.equal(tags.results[0].tag.text, 'jest-esm');
  assert.equal(tags.results[0].exact, true);
  const tagIds = await json('material_identifiers', { material_type: 'TAGS' });
  assert.deepEqual((await json('tags_batch_snapshot', { identifiers: tagIds.identifiers })).items.map((tag: { text: string }) => tag.text), ['jest-esm']);
  const sites = await json('websites_full_text_search', { query: 'jestjs.io' });
  assert.equal(sites.results[0].website.url, 'https://jestjs.io/docs/ecmascript-modules');
  const documentation = await json('annotations_full_text_search', { query: 'mock modules', annotation_type: 'DOCUMENTATION' });
  assert.equal(documentation.count, 1);
  assert.equal(documentation.annotation_type, 'DOCUMENTATION');
  assert.equal((await json('annotations_full_text_search', { query: 'mock modules', annotation_type: 'COMMENT' })).count, 0);
  const anchors = await json('anchors_full_text_search', { query: 'userService.test.ts' });
  assert.equal(anchors.count, 1);
  assert.equal(anchors.results[0].anchor.anchor_point_count, 1);
  const points = await json('material_identifiers', { material_type: 'ANCHOR_POINTS' });
  const point = await json('anchor_points_batch_snapshot', { identifiers: [...points.identifiers, 'nope'] });
  assert.equal(point.items[0].fullpath, '/home/dev/shop/src/userService.test.ts');
  assert.deepEqual(point.missing_ids, ['nope']);
  const vector = await json('tags_vector_search', { query: 'jest-esm' });
  assert.equal(vector.results[0].identifier, tagIds.identifiers[0]);
  assert.match(vector.next_steps, /no vectors for tags/);
});

test('ask_pieces_ltm finds the snippet and the messages as events, with scores', async () => {
  const answer = await json('ask_pieces_ltm', { question: 'how do I mock a module in jest with ESM?', chat_llm: 'gpt-4o', topics: ['unstable_mockModule'] });
  const types = new Set(answer.events.map((event: { type: string }) => event.type));
  assert.ok(types.has('SNIPPET') && types.has('CONVERSATION_MESSAGE'), JSON.stringify(answer.events));
  assert.ok(answer.events.some((event: { id: string }) => event.id === snippet));
  assert.ok(answer.events.every((event: { score: number }) => event.score > 0));
  assert.deepEqual(answer.summaries, []);
});
