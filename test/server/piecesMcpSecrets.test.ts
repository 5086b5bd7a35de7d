/**
 * Pieces' MCP tools through the agents' door for secrets (issue 32), with the real detector: memories,
 * snippets and messages answered by ask_pieces_ltm, the full-text searches, batch snapshots and
 * recall_memories show each value as its placeholder, and a search for a value finds nothing.
 * Every reply is grepped for every planted value.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { callToolOk, connectMcp } from '../support/mcpClient.ts';
import { startTestServer, type TestServer } from '../support/helpers.ts';
import { TEST_WRITE } from '../support/authors.ts';
import { seed } from '../core/sync/vaultSupport.ts';
import { PLANTED, plantedIn } from '../support/fakeSecrets.ts';

const STREAMABLE = '/model_context_protocol/2025-03-26/mcp';

let t: TestServer;
let client: Client;
const replies: string[] = [];

before(async () => {
  t = await startTestServer();
  await t.core.assets.writes.create(
    seed(`import boto3\ns3 = boto3.client("s3", aws_access_key_id="${PLANTED.awsKeyId}", aws_secret_access_key="${PLANTED.awsSecret}")\n`, { name: 'deploy bucket client', ext: 'py' }),
    TEST_WRITE,
  );
  client = await connectMcp(t.url, 'Cursor', STREAMABLE);
});
after(async () => {
  await client.close();
  await t.close();
});

async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const result = await callToolOk(client, name, args);
  replies.push(JSON.stringify(result));
  return result;
}

test('a memory and a snippet holding credentials come back from every Pieces tool with placeholders, never a value', async () => {
  const saved = await call('create_pieces_memory', {
    summary_description: 'deploy bucket credentials',
    summary: `We deploy with the token ${PLANTED.githubToken} and the bucket client.\n\nexport GITHUB_TOKEN=${PLANTED.githubToken}`,
    connected_client: 'Cursor',
  });
  assert.match(JSON.stringify(saved.content), /GitHub token.*kept on this machine/, 'the agent is told the value was kept and flagged');
  const asked = await call('ask_pieces_ltm', { question: 'how do we deploy the bucket?', chat_llm: 'gpt-4o' });
  assert.match(JSON.stringify(asked), /deploy bucket/, 'the answer finds the memory and the snippet');
  assert.match(JSON.stringify(asked), /«secret: /, 'their values as placeholders');
  const searched = await call('workstream_summaries_full_text_search', { query: 'deploy bucket' });
  const ids = (searched.structuredContent as { results: Array<{ summary: { id: string } }> }).results.map((r) => r.summary.id);
  assert.ok(ids.length > 0, JSON.stringify(searched.structuredContent).slice(0, 400));
  await call('workstream_summaries_batch_snapshot', { identifiers: ids });
  await call('recall_memories', { query: 'deploy bucket' });
  assert.deepEqual(plantedIn(replies.join('\n')), []);
});

test('a Pieces search for a value itself finds nothing', async () => {
  for (const [tool, args] of [
    ['ask_pieces_ltm', { question: PLANTED.awsKeyId, chat_llm: 'gpt-4o' }],
    ['workstream_summaries_full_text_search', { query: PLANTED.githubToken }],
  ] as const) {
    const result = await call(tool, args);
    assert.match(JSON.stringify(result), /does not search for the values of secrets/, tool);
  }
  assert.deepEqual(plantedIn(replies.join('\n')), []);
});
