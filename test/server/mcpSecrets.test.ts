/**
 * The agents' door for secrets (issue 32) over MCP, driven by the SDK's client against a real host: every
 * tool result and resource shows placeholders, a search for a value (or a piece of one) finds nothing, an
 * agent that saves a credential is told it was kept and flagged, and an update that writes a placeholder
 * back keeps the stored value. Every reply is grepped for every planted value.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { callTool, connectMcp } from '../support/mcpClient.ts';
import { startTestServer, type TestServer } from '../support/helpers.ts';
import { TEST_WRITE } from '../support/authors.ts';
import { seed } from '../core/sync/vaultSupport.ts';
import { FakeSecrets, PLANTED, plantedIn } from '../support/fakeSecrets.ts';

let t: TestServer;
let client: Client;
const ids: Record<string, string> = {};
/** Every reply an agent got in this file, joined: grepped at the end too. */
const replies: string[] = [];

const LIBRARY: Record<string, { text: string; name: string; ext: string }> = {
  aws: { text: `import boto3\nclient = boto3.client("s3", aws_access_key_id="${PLANTED.awsKeyId}", aws_secret_access_key="${PLANTED.awsSecret}")\n`, name: 'S3 client', ext: 'py' },
  github: { text: `curl -H "Authorization: Bearer ${PLANTED.githubToken}" https://api.github.com/user\n`, name: 'GitHub user', ext: 'sh' },
  slack: { text: `const slack = new WebClient("${PLANTED.slackToken}");\n`, name: `Slack ${PLANTED.slackToken}`, ext: 'ts' },
  stripe: { text: `const stripe = new Stripe("${PLANTED.stripeKey}");\n`, name: 'Stripe client', ext: 'ts' },
  postgres: { text: `DATABASE_URL=postgres://app:${PLANTED.postgresPassword}@db.internal:5432/app\n`, name: 'Postgres URL', ext: 'sh' },
};

before(async () => {
  t = await startTestServer({ secrets: new FakeSecrets() });
  for (const [key, s] of Object.entries(LIBRARY)) ids[key] = (await t.core.assets.writes.create(seed(s.text, { name: s.name, ext: s.ext, tags: ['creds'] }), TEST_WRITE)).id;
  client = await connectMcp(t.url, 'satchel-secrets-test');
});
after(async () => {
  await client.close();
  await t.close();
});

async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const result = await callTool(client, name, args);
  replies.push(JSON.stringify(result));
  return result;
}

function textOf(result: CallToolResult): string {
  const first = result.content[0];
  return first?.type === 'text' ? first.text : '';
}

test('search, list, get and check_snippet_saved show placeholders, never a value', async () => {
  for (const args of [{ query: 'client' }, { tags: ['creds'] }, { language: 'ts' }, { query: 'stripe' }]) {
    const result = await call('search_snippets', args);
    assert.notEqual(result.isError, true, textOf(result));
    assert.deepEqual(plantedIn(JSON.stringify(result)), [], JSON.stringify(args));
  }
  const recent = await call('list_recent_snippets', { limit: 10 });
  assert.equal((recent.structuredContent as { snippets: unknown[] }).snippets.length, 5);
  assert.match(textOf(recent), /«secret: Slack token»/);
  for (const id of Object.values(ids)) {
    const got = await call('get_snippet', { id });
    assert.notEqual(got.isError, true);
    assert.deepEqual(plantedIn(JSON.stringify(got)), []);
  }
  const aws = (await call('get_snippet', { id: ids.aws })).structuredContent as { content: string };
  assert.match(aws.content, /aws_secret_access_key="«secret: AWS secret access key»"/);
  const check = await call('check_snippet_saved', { content: LIBRARY.stripe!.text });
  assert.deepEqual(plantedIn(JSON.stringify(check)), []);
});

test('a search for a value, or a piece of one, finds nothing; a search by what the agent can read still finds the snippet', async () => {
  for (const value of [...Object.values(PLANTED), PLANTED.awsSecret.slice(0, 12), 'sk_live', `Bearer ${PLANTED.githubToken}`]) {
    const result = await call('search_snippets', { query: value });
    const found = (result.structuredContent as { snippets: unknown[] }).snippets;
    assert.equal(found.length, 0, `searching ${value.slice(0, 6)}… found ${JSON.stringify(found)}`);
  }
  const byWords = (await call('search_snippets', { query: 'Stripe client' })).structuredContent as { snippets: Array<{ id: string }> };
  assert.ok(byWords.snippets.some((s) => s.id === ids.stripe));
});

test('resources: the listing names and every snippet read show placeholders', async () => {
  const listed = await client.listResources();
  replies.push(JSON.stringify(listed));
  assert.deepEqual(plantedIn(JSON.stringify(listed)), []);
  for (const id of Object.values(ids)) {
    const read = await client.readResource({ uri: `satchel://assets/${id}` });
    replies.push(JSON.stringify(read));
    assert.deepEqual(plantedIn(JSON.stringify(read)), []);
  }
});

test('an agent that saves a credential is told it was kept and flagged; the reply does not repeat it; the store keeps it', async () => {
  const saved = await call('save_snippet', { content: `openai.api_key = "x"\nstripe.api_key = "${PLANTED.stripeKey}"\n`, name: 'Payments setup', language: 'python' });
  assert.notEqual(saved.isError, true, textOf(saved));
  assert.match(textOf(saved), /holds a secret: Stripe secret key \(line 2\)/);
  assert.match(textOf(saved), /kept on this machine and the snippet is flagged/);
  const facts = saved.structuredContent as { id: string; secrets: Array<{ label: string; line: number }> };
  assert.deepEqual(facts.secrets.map((s) => [s.label, s.line]), [['Stripe secret key', 2]]);
  assert.deepEqual(plantedIn(JSON.stringify(saved)), []);
  assert.ok(t.core.assets.text(facts.id)?.includes(PLANTED.stripeKey), 'the user\'s copy holds the value');
});

test('an update that writes the placeholder back (the agent read it redacted) keeps the stored value', async () => {
  const read = (await call('get_snippet', { id: ids.aws })).structuredContent as { content: string; revision: string };
  const updated = await call('update_snippet', { id: ids.aws, expected_revision: read.revision, content: `# S3 with keys\n${read.content}` });
  assert.notEqual(updated.isError, true, textOf(updated));
  assert.equal(t.core.assets.text(ids.aws!), `# S3 with keys\n${LIBRARY.aws!.text}`);
  assert.deepEqual(plantedIn(JSON.stringify(updated)), []);
  const renamed = await call('update_snippet', { id: ids.slack, expected_revision: t.core.history.current(ids.slack!), name: 'Slack «secret: Slack token» bot' });
  assert.notEqual(renamed.isError, true, textOf(renamed));
  assert.equal(t.core.assets.get(ids.slack!, { transferables: false }).name, `Slack ${PLANTED.slackToken} bot`);
  assert.deepEqual(plantedIn(JSON.stringify(renamed)), []);
});

test('no reply in this file carried a value', () => {
  assert.ok(replies.length > 20);
  assert.deepEqual(plantedIn(replies.join('\n')), []);
});
