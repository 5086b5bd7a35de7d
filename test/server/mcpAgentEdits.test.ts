/**
 * Agents editing through MCP, driven by the SDK's own clients against a real host on port 0:
 * update_snippet and delete_snippet on the revision the agent read (a stale one refused with the
 * revision to read again), two agents racing on one revision, the marks listed until the user
 * accepts or reverts them (src/wire/agentChanges.ts through the client), and review mode, where an
 * agent's write is a proposal that search, completion and the connector do not see until accepted.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { callTool, connectMcp } from '../support/mcpClient.ts';
import { startTestServer, type TestServer } from '../support/helpers.ts';
import { SatchelClient, ClientError } from '../../src/client/satchelClient.ts';
import { authorOf } from '../../src/core/history/authors.ts';
import { LIMITS } from '../../src/core/limits.ts';

const USER = authorOf('vscode', 'Satchel for VS Code');

let t: TestServer;
let claude: Client;
let cursor: Client;
let user: SatchelClient;

before(async () => {
  t = await startTestServer();
  claude = await connectMcp(t.url, 'Claude Code');
  cursor = await connectMcp(t.url, 'Cursor');
  user = new SatchelClient(t.url, { author: USER });
});
after(async () => {
  await claude.close();
  await cursor.close();
  user.dispose();
  await t.close();
});

function text(result: CallToolResult): string {
  const first = result.content[0];
  return first?.type === 'text' ? first.text : '';
}

function ok<T>(result: CallToolResult): T {
  assert.notEqual(result.isError, true, text(result));
  return result.structuredContent as T;
}

const CODE = 'export function clamp(value: number, low: number, high: number): number {\n  return Math.min(high, Math.max(low, value));\n}\n';

interface Detail {
  id: string;
  name: string;
  content: string;
  tags: string[];
  revision: string;
}

async function saveOne(client: Client, content = CODE, name = 'clamp'): Promise<{ id: string; revision: string }> {
  const saved = ok<{ id: string; revision: string; status: string }>(await callTool(client, 'save_snippet', { content, name, language: 'ts' }));
  assert.equal(saved.status, 'saved');
  return saved;
}

test('the edit tools state their inputs, limits and that the revision read is required', async () => {
  const { tools } = await claude.listTools();
  const update = tools.find((tool) => tool.name === 'update_snippet');
  const remove = tools.find((tool) => tool.name === 'delete_snippet');
  assert.ok(update && remove);
  assert.deepEqual([...(update.inputSchema.required ?? [])].sort(), ['expected_revision', 'id']);
  assert.deepEqual([...(remove.inputSchema.required ?? [])].sort(), ['expected_revision', 'id']);
  const properties = update.inputSchema.properties as Record<string, { maxLength?: number; maxItems?: number }>;
  assert.deepEqual(Object.keys(properties).sort(), ['content', 'description', 'expected_revision', 'id', 'language', 'name', 'tags']);
  assert.equal(properties.content?.maxLength, LIMITS.contentChars);
  assert.equal(properties.name?.maxLength, LIMITS.nameChars);
  assert.equal(properties.tags?.maxItems, LIMITS.tagsPerAsset);
  assert.match(update.description ?? '', /expected_revision/);
  assert.match(remove.description ?? '', /trash/);
  assert.equal(update.annotations?.destructiveHint, true);
  assert.equal(remove.annotations?.readOnlyHint, false);
});

test('get_snippet, search_snippets and list_recent_snippets give each snippet its current revision', async () => {
  const saved = await saveOne(claude, `${CODE}// revisions\n`, 'clamp with revisions');
  const current = t.core.history.current(saved.id);
  assert.equal(saved.revision, current);
  const got = await callTool(claude, 'get_snippet', { id: saved.id });
  assert.equal(ok<Detail>(got).revision, current);
  assert.match(text(got), new RegExp(`revision: ${current}`));
  const found = await callTool(claude, 'search_snippets', { query: 'clamp with revisions' });
  assert.equal(ok<{ snippets: Detail[] }>(found).snippets.find((s) => s.id === saved.id)?.revision, current);
  assert.match(text(found), new RegExp(`revision ${current}`), 'the text an agent reads names it too');
  const recent = ok<{ snippets: Detail[] }>(await callTool(claude, 'list_recent_snippets', { limit: 5 }));
  assert.equal(recent.snippets.find((s) => s.id === saved.id)?.revision, current);
});

test('update_snippet changes content, name, tags and description as the agent, marked until the user accepts', async () => {
  const saved = await saveOne(cursor);
  await user.agentChanges.acceptAll();
  const result = await callTool(claude, 'update_snippet', {
    id: saved.id,
    expected_revision: saved.revision,
    content: `${CODE}export const unit = (v: number) => clamp(v, 0, 1);\n`,
    name: 'clamp and unit',
    tags: ['math', 'numbers'],
    description: 'Bounds a number.',
  });
  const updated = ok<{ status: string; revision: string; change: string; name: string }>(result);
  assert.equal(updated.status, 'updated');
  assert.match(text(result), /Updated "clamp and unit"/);
  assert.notEqual(updated.revision, saved.revision);
  const asset = t.core.assets.get(saved.id);
  assert.equal(asset.name, 'clamp and unit');
  assert.deepEqual(asset.tags?.iterable.map((tag) => tag.text), ['math', 'numbers']);
  assert.equal(t.core.assets.text(saved.id), `${CODE}export const unit = (v: number) => clamp(v, 0, 1);\n`);
  const revision = t.core.history.list(saved.id).revisions[0]!;
  assert.deepEqual(revision.author, { kind: 'mcp', name: 'Claude Code' });
  assert.deepEqual([...revision.changes].sort(), ['content', 'description', 'name', 'tags']);

  // Listed (with the revisions around it) until accepted.
  let listed = await user.agentChanges.list();
  const change = listed.changes.find((c) => c.id === updated.change);
  assert.deepEqual(
    change && [change.kind, change.status, change.agent.name, change.asset, change.before, change.after],
    ['changed', 'applied', 'Claude Code', saved.id, saved.revision, updated.revision],
  );
  assert.deepEqual(await user.agentChanges.accept(updated.change), { change: updated.change, status: 'accepted', asset: saved.id });
  listed = await user.agentChanges.list();
  assert.equal(listed.changes.some((c) => c.id === updated.change), false);

  // The same update again is told it changed nothing (on the revision it now has).
  const again = ok<{ status: string }>(await callTool(claude, 'update_snippet', { id: saved.id, expected_revision: updated.revision, name: 'clamp and unit' }));
  assert.equal(again.status, 'unchanged');
});

test('a stale expected_revision is refused with the current revision and what to do; nothing is written', async () => {
  const saved = await saveOne(claude, `${CODE}// stale\n`, 'stale clamp');
  const mine = await user.history.edit(saved.id, { name: 'renamed by the user' });
  const result = await callTool(claude, 'update_snippet', { id: saved.id, expected_revision: saved.revision, content: 'overwrite()' });
  assert.equal(result.isError, true);
  const message = text(result);
  assert.match(message, new RegExp(`changed since revision ${saved.revision}: its current revision is ${mine.revision}`));
  assert.match(message, /name by Satchel for VS Code/);
  assert.match(message, /Nothing was written\. Read it again with get_snippet/);
  assert.match(message, new RegExp(`expected_revision "${mine.revision}"`));
  const refusedDelete = await callTool(claude, 'delete_snippet', { id: saved.id, expected_revision: saved.revision });
  assert.equal(refusedDelete.isError, true);
  assert.match(text(refusedDelete), /call delete_snippet again/);
  assert.equal(t.core.assets.text(saved.id), `${CODE}// stale\n`);
  assert.equal(t.core.history.current(saved.id), mine.revision);

  const unknown = await callTool(claude, 'update_snippet', { id: 'no-such-snippet', expected_revision: saved.revision, name: 'x' });
  assert.equal(unknown.isError, true);
  assert.match(text(unknown), /Snippet "no-such-snippet" not found .*search_snippets/);
  const nothing = await callTool(claude, 'update_snippet', { id: saved.id, expected_revision: mine.revision });
  assert.equal(nothing.isError, true);
  assert.match(text(nothing), /Nothing to change/);
  const tooLong = await callTool(claude, 'update_snippet', { id: saved.id, expected_revision: mine.revision, name: 'n'.repeat(LIMITS.nameChars + 1) });
  assert.equal(tooLong.isError, true);
  assert.match(text(tooLong), /the limit is 512/);
});

test('two agents updating one revision at once: one wins, the other is told to re-read, and after its retry nothing is lost', async () => {
  const saved = await saveOne(claude, `${CODE}// race\n`, 'raced clamp');
  const results = await Promise.all([
    callTool(claude, 'update_snippet', { id: saved.id, expected_revision: saved.revision, content: `${CODE}// claude's version\n` }),
    callTool(cursor, 'update_snippet', { id: saved.id, expected_revision: saved.revision, content: `${CODE}// cursor's version\n` }),
  ]);
  const won = results.filter((r) => r.isError !== true);
  const lost = results.filter((r) => r.isError === true);
  assert.equal(won.length, 1, results.map(text).join('\n'));
  assert.equal(lost.length, 1);
  const winner = won[0]!.structuredContent as { revision: string };
  assert.match(text(lost[0]!), new RegExp(`its current revision is ${winner.revision}`));

  // The loser reads again and redoes its change on what the winner left.
  const loser = results[0]!.isError === true ? claude : cursor;
  const reread = ok<Detail>(await callTool(loser, 'get_snippet', { id: saved.id }));
  assert.equal(reread.revision, winner.revision);
  const retried = ok<{ status: string }>(
    await callTool(loser, 'update_snippet', { id: saved.id, expected_revision: reread.revision, content: `${reread.content}// and the other's\n` }),
  );
  assert.equal(retried.status, 'updated');
  const history = t.core.history.list(saved.id).revisions;
  assert.equal(history.length, 3, 'the original, the winner, the retry');
  assert.deepEqual(new Set(history.slice(0, 2).map((r) => r.author.name)), new Set(['Claude Code', 'Cursor']));
  assert.equal(t.core.history.get(saved.id, history[2]!.id).content.text, `${CODE}// race\n`);
  assert.match(t.core.assets.text(saved.id)!, /\/\/ (claude|cursor)'s version\n\/\/ and the other's\n$/);
});

test("delete_snippet removes the snippet as the agent's change, and the user's revert brings an update back", async () => {
  const saved = await saveOne(cursor, `${CODE}// to delete\n`, 'doomed clamp');
  const gone = await callTool(claude, 'delete_snippet', { id: saved.id, expected_revision: saved.revision });
  assert.equal(ok<{ status: string }>(gone).status, 'deleted');
  assert.match(text(gone), /Deleted "doomed clamp"/);
  assert.equal(t.core.assets.exists(saved.id), false);
  const deleted = (await user.agentChanges.list()).changes.find((c) => c.asset === saved.id && c.kind === 'deleted');
  assert.equal(deleted?.agent.name, 'Claude Code');
  const again = await callTool(claude, 'get_snippet', { id: saved.id });
  assert.equal(again.isError, true);

  // Reverting an update restores the revision before it, as the user's write.
  const kept = await saveOne(cursor, `${CODE}// keep me\n`, 'kept clamp');
  const update = ok<{ change: string; revision: string }>(await callTool(claude, 'update_snippet', { id: kept.id, expected_revision: kept.revision, content: 'broken(' }));
  const reverted = await user.agentChanges.revert(update.change);
  assert.equal(reverted.status, 'reverted');
  assert.equal(t.core.assets.text(kept.id), `${CODE}// keep me\n`);
  const [restored] = t.core.history.list(kept.id).revisions;
  assert.deepEqual(restored!.author, USER);
  assert.equal(restored!.restoredFrom, kept.revision);
  assert.equal(t.core.history.get(kept.id, update.revision).content.text, 'broken(', "the agent's revision stays in the history");
});

test('the review routes refuse agents, answer 404 for an unknown change, and 412 for a revert the snippet moved past', async () => {
  const saved = await saveOne(claude, `${CODE}// review routes\n`, 'reviewed clamp');
  const update = ok<{ change: string }>(await callTool(claude, 'update_snippet', { id: saved.id, expected_revision: saved.revision, tags: ['x'] }));
  const agentClient = new SatchelClient(t.url, { author: authorOf('agent', 'VS Code agent') });
  try {
    await assert.rejects(agentClient.agentChanges.accept(update.change), (error: unknown) => error instanceof ClientError && error.status === 403);
    await assert.rejects(agentClient.agentChanges.revert(update.change), (error: unknown) => error instanceof ClientError && error.status === 403);
    await assert.rejects(agentClient.agentChanges.acceptAll(), (error: unknown) => error instanceof ClientError && error.status === 403);
  } finally {
    agentClient.dispose();
  }
  await assert.rejects(user.agentChanges.accept('no-such-change'), (error: unknown) => error instanceof ClientError && error.status === 404);
  await user.history.edit(saved.id, { description: 'the user wrote this' });
  await assert.rejects(user.agentChanges.revert(update.change), (error: unknown) => error instanceof ClientError && error.status === 412 && error.staleRevision === true);
  assert.equal((await user.agentChanges.get(update.change)).status, 'applied', 'still listed');
});

test("an agent's edit of a snippet over the content limit (an older store's) is refused at both agent doors, naming the limit; the user's rename goes through", async () => {
  const saved = await saveOne(claude, `${CODE}// over the limit\n`, 'legacy clamp');
  // Grown as a store written before the limit holds it.
  const big = `${CODE}${'z'.repeat(LIMITS.contentChars + 1000)}`;
  t.core.context.database.prepare(`UPDATE assets SET data = json_set(data, '$.formats.iterable[0].fragment.string.raw', ?) WHERE id = ?`).run(big, saved.id);
  const revision = t.core.history.current(saved.id);
  const limit = `has ${big.length.toLocaleString('en-US')} characters; the limit is ${LIMITS.contentChars.toLocaleString('en-US')}`;
  for (const edit of [{ content: `${CODE}// shorter\n` }, { name: 'legacy clamp renamed' }]) {
    const refused = await callTool(claude, 'update_snippet', { id: saved.id, expected_revision: revision, ...edit });
    assert.equal(refused.isError, true, text(refused));
    assert.ok(text(refused).includes(limit), text(refused));
    assert.match(text(refused), /agents read only its opening and do not change it/);
  }
  const agentClient = new SatchelClient(t.url, { author: authorOf('agent', 'VS Code agent') });
  try {
    await assert.rejects(agentClient.agentChanges.update(saved.id, { name: 'renamed by an agent' }, { expectedRevision: revision }), (error: unknown) => {
      assert.ok(error instanceof ClientError);
      assert.equal(error.status, 413);
      assert.ok(error.message.includes(limit), error.message);
      return true;
    });
  } finally {
    agentClient.dispose();
  }
  assert.equal(t.core.history.current(saved.id), revision, 'nothing written');
  assert.equal(t.core.assets.text(saved.id), big);
  await user.history.edit(saved.id, { name: 'legacy clamp (mine)' });
  assert.equal(t.core.assets.get(saved.id, { transferables: false }).name, 'legacy clamp (mine)');
  assert.equal(t.core.assets.text(saved.id)?.length, big.length);
});

test('while agent writes wait for review, proposals count for nothing (search, completion, connector) until accepted', async () => {
  const host = await startTestServer({ agents: { reviewChanges: true } });
  const agent = await connectMcp(host.url, 'Claude Code');
  const person = new SatchelClient(host.url, { author: USER });
  try {
    const application = { id: 'test', name: 'OPEN_SOURCE', version: '1', platform: 'LINUX', onboarded: false, privacy: 'OPEN' } as never;
    const existing = await person.assets.createFromText({ text: 'export const greeting = "hello";\n', application, language: 'ts', name: 'greeting' });
    const existingRevision = host.core.history.current(existing.id);
    const before = host.core.assets.identifiers().length;

    const PROPOSED_CODE = 'export function zebraStripeRows(rows: string[]): string[] {\n  return rows.map((row, i) => (i % 2 ? `odd ${row}` : row));\n}\n';
    const saved = await callTool(agent, 'save_snippet', { content: PROPOSED_CODE, name: 'zebraStripeRows', language: 'ts' });
    const proposal = ok<{ status: string; id?: string; change: string }>(saved);
    assert.equal(proposal.status, 'proposed');
    assert.equal(proposal.id, undefined);
    assert.match(text(saved), /waits for the user's review/);
    const edit = ok<{ status: string; change: string }>(await callTool(agent, 'update_snippet', { id: existing.id, expected_revision: existingRevision, content: 'export const greeting = "proposed_greeting_text";\n' }));
    assert.equal(edit.status, 'proposed');
    const removal = ok<{ status: string; change: string }>(await callTool(agent, 'delete_snippet', { id: existing.id, expected_revision: existingRevision }));
    assert.equal(removal.status, 'proposed');

    // Nothing counts: no new snippet, no change, no delete; search, completion and the connector see none of it.
    assert.equal(host.core.assets.identifiers().length, before);
    assert.equal(host.core.assets.text(existing.id), 'export const greeting = "hello";\n');
    assert.equal(host.core.history.current(existing.id), existingRevision);
    assert.equal(ok<{ snippets: unknown[] }>(await callTool(agent, 'search_snippets', { query: 'zebraStripeRows' })).snippets.length, 0);
    assert.equal(ok<{ snippets: unknown[] }>(await callTool(agent, 'search_snippets', { query: 'proposed_greeting_text' })).snippets.length, 0);
    assert.deepEqual((await person.snippets.completions('zebra', { language: 'typescript' })).candidates, []);
    assert.equal((await person.connector.saved(PROPOSED_CODE)).kind, 'not_saved');
    const listed = await person.agentChanges.list();
    assert.equal(listed.reviewing, true);
    assert.deepEqual(listed.changes.map((c) => [c.kind, c.status]), [
      ['deleted', 'proposed'],
      ['changed', 'proposed'],
      ['created', 'proposed'],
    ]);
    assert.equal((await person.agentChanges.get(proposal.change)).save?.content, PROPOSED_CODE);

    // Accepted: the snippet exists, by the agent, and everything finds it.
    const accepted = await person.agentChanges.accept(proposal.change);
    assert.equal(accepted.status, 'accepted');
    assert.ok(accepted.asset);
    assert.equal(host.core.history.list(accepted.asset).revisions[0]!.author.name, 'Claude Code');
    assert.deepEqual(ok<{ snippets: Array<{ id: string }> }>(await callTool(agent, 'search_snippets', { query: 'zebraStripeRows' })).snippets.map((s) => s.id), [accepted.asset]);
    assert.equal((await person.snippets.completions('zebra', { language: 'typescript' })).candidates.length, 1);
    assert.equal((await person.connector.saved(PROPOSED_CODE)).kind, 'saved');

    // The user edits the snippet the agent proposed to change: accepting that proposal now fails clearly.
    await person.history.edit(existing.id, { name: 'greeting (mine)' });
    await assert.rejects(person.agentChanges.accept(edit.change), (error: unknown) => {
      assert.ok(error instanceof ClientError);
      assert.equal(error.status, 412);
      assert.match(error.message, /changed since the agent proposed this change/);
      return true;
    });
    // Rejected: nothing of it ever counts.
    assert.equal((await person.agentChanges.revert(edit.change)).status, 'rejected');
    assert.equal((await person.agentChanges.revert(removal.change)).status, 'rejected');
    assert.equal(host.core.assets.exists(existing.id), true);
    assert.equal(host.core.assets.text(existing.id), 'export const greeting = "hello";\n');
    assert.deepEqual((await person.agentChanges.list()).changes, []);
  } finally {
    await agent.close();
    person.dispose();
    await host.close();
  }
});
