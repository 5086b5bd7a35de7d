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

let t: TestServer;
let id = '';
let name = '';
const clients: Client[] = [];

before(async () => {
  t = await startTestServer();
  const created = await t.core.assets.writes.create(seed(`AWS_SECRET_ACCESS_KEY=${KEY}\nAWS_DEFAULT_REGION=eu-west-1\n`, { ext: 'sh' }), TEST_WRITE);
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
  const replies = [
    await callToolOk(client, 'list_recent_snippets', { limit: 5 }),
    await callToolOk(client, 'get_snippet', { id }),
    await callToolOk(client, 'search_snippets', { query: 'AWS_SECRET_ACCESS_KEY' }),
  ].map((reply) => JSON.stringify(reply));
  assert.match(replies[1]!, /"name":"AWS_SECRET_ACCESS_KEY=«secret: [^»]+»…"/);
  assert.match(replies[2]!, new RegExp(id), 'the search by the name\'s words finds it');
  for (const reply of replies) assert.deepEqual(piecesOfKey(reply), []);
});

test('the tools on Pieces\' MCP path carry no piece of the key either', async () => {
  const client = await connectMcp(t.url, 'satchel-echoes-pieces-test', '/model_context_protocol/2025-03-26/mcp');
  clients.push(client);
  const asked = await callToolOk(client, 'ask_pieces_ltm', { question: 'which AWS secret access key do we use?', chat_llm: 'gpt-4o' });
  assert.match(JSON.stringify(asked), /AWS_SECRET_ACCESS_KEY=«secret: /);
  assert.deepEqual(piecesOfKey(JSON.stringify(asked)), []);
});
