/**
 * A snippet saved without a name is named after its first line; when that line assigns a key, the name
 * holds most of the key where no rule can find it (cut short with "…"). With the store's own door and
 * the real detector, no agent's reply — Satchel's MCP tools, the tools on Pieces' MCP path, a search by
 * the name's words — carries any eight characters of the key; the user's own copy keeps the name.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callToolOk, connectMcp } from '../support/mcpClient.ts';
import { startTestServer, type TestServer } from '../support/helpers.ts';
import { TEST_WRITE } from '../support/authors.ts';
import { seed } from '../core/sync/vaultSupport.ts';

const KEY = 'PtYgjmUhBel31iEl2hpChYgCfrL1spNxnyVmihA+';
/** A deploy script's environment, long enough for check_snippet_saved to compare. */
const ENV = [
  `AWS_SECRET_ACCESS_KEY=${KEY}`,
  'AWS_DEFAULT_REGION=eu-west-1',
  'S3_BUCKET=deploy-artifacts-production',
  'CLOUDFRONT_DISTRIBUTION=E2QWRTY7ABCDEF',
  'DEPLOY_ENVIRONMENT=production',
  'LOG_LEVEL=info',
  'RETRY_ATTEMPTS=5',
  'UPLOAD_CONCURRENCY=8',
  '',
].join('\n');

let t: TestServer;
let id = '';
let name = '';
const clients: Client[] = [];

before(async () => {
  t = await startTestServer();
  const created = await t.core.assets.writes.create(seed(ENV, { ext: 'sh' }), TEST_WRITE);
  id = created.id;
  name = created.name ?? '';
});
after(async () => {
  for (const client of clients) await client.close();
  await t.close();
});

/** The eight-character pieces of the key a text holds. */
function piecesOfKey(text: string): string[] {
  const pieces: string[] = [];
  for (let at = 0; at + 8 <= KEY.length; at++) if (text.includes(KEY.slice(at, at + 8))) pieces.push(KEY.slice(at, at + 8));
  return pieces;
}

test('the name holds most of the key here, as saved', () => {
  assert.ok(name.startsWith(`AWS_SECRET_ACCESS_KEY=${KEY.slice(0, 20)}`), name);
  assert.equal(t.core.assets.get(id).name, name);
});

test('Satchel\'s MCP tools show the name with the key\'s placeholder', async () => {
  const client = await connectMcp(t.url, 'satchel-echoes-test');
  clients.push(client);
  const got = await callToolOk(client, 'get_snippet', { id });
  const revision = (got.structuredContent as { revision: string }).revision;
  const replies = [
    await callToolOk(client, 'list_recent_snippets', { limit: 5 }),
    got,
    await callToolOk(client, 'search_snippets', { query: 'AWS_SECRET_ACCESS_KEY' }),
    await callToolOk(client, 'check_snippet_saved', { content: ENV }),
    await callToolOk(client, 'update_snippet', { id, expected_revision: revision, tags: ['aws'] }),
    await client.listResources(),
  ].map((reply) => JSON.stringify(reply));
  assert.match(replies[1]!, /"name":"AWS_SECRET_ACCESS_KEY=«secret: [^»]+»…"/);
  assert.match(replies[2]!, new RegExp(id), 'the search by the name\'s words finds it');
  assert.match(replies[3]!, new RegExp(id), 'the same code is found saved');
  for (const reply of replies.slice(3)) assert.match(reply, /AWS_SECRET_ACCESS_KEY=«secret: /);
  for (const reply of replies) assert.deepEqual(piecesOfKey(reply), []);
  assert.equal(t.core.assets.get(id).name, name, 'the user\'s copy keeps its name');
});

test('the tools on Pieces\' MCP path carry no piece of the key either', async () => {
  const client = await connectMcp(t.url, 'satchel-echoes-pieces-test', '/model_context_protocol/2025-03-26/mcp');
  clients.push(client);
  const asked = await callToolOk(client, 'ask_pieces_ltm', { question: 'which AWS secret access key do we use?', chat_llm: 'gpt-4o' });
  assert.match(JSON.stringify(asked), /AWS_SECRET_ACCESS_KEY=«secret: /);
  assert.deepEqual(piecesOfKey(JSON.stringify(asked)), []);
});

test('a conversation titled after its first question, the key cut short there, reads and lists with the key\'s placeholder in its title', async () => {
  const client = await connectMcp(t.url, 'satchel-echoes-conversation-test');
  clients.push(client);
  const title = `Why does AWS_SECRET_ACCESS_KEY=${KEY.slice(0, 24)}…`;
  const made = t.core.conversations.create({ type: 'COPILOT', name: title, messages: [] } as never, false);
  t.core.conversations.createMessage(made.id, { role: 'USER', fragment: { string: { raw: `AWS_SECRET_ACCESS_KEY=${KEY}\nWhy does this fail in CI?` } } }, false);
  const read = JSON.stringify(await callToolOk(client, 'read_conversation', { id: made.id }));
  assert.match(read, /Why does AWS_SECRET_ACCESS_KEY=«secret: [^»]+»…/);
  assert.deepEqual(piecesOfKey(read), []);
  const listed = JSON.stringify(await callToolOk(client, 'list_conversations', {}));
  assert.match(listed, /Why does AWS_SECRET_ACCESS_KEY=«secret: [^»]+»…/);
  assert.deepEqual(piecesOfKey(listed), []);
  assert.equal(t.core.conversations.reads.messagePage(made.id, 0, 1, 10).name, title, 'the user\'s copy keeps its title');
});

test('an agent that renames the snippet from the name it read keeps the user\'s text under the placeholder', async () => {
  const client = await connectMcp(t.url, 'satchel-echoes-rename-test');
  clients.push(client);
  const got = await callToolOk(client, 'get_snippet', { id });
  const read = got.structuredContent as { name: string; revision: string };
  assert.match(read.name, /«secret: /);
  const renamed = await callToolOk(client, 'update_snippet', { id, expected_revision: read.revision, name: `${read.name} (prod)` });
  assert.deepEqual(piecesOfKey(JSON.stringify(renamed)), []);
  assert.equal(t.core.assets.get(id).name, `${name} (prod)`, 'the stored name has the key\'s opening back, as the user had it');
});
