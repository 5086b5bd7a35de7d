/**
 * The HTTP doors agents inside VS Code write through (the language-model tools call them through
 * src/client): updates and deletes only on the revision the agent read (two racing agents: one
 * wins, the other is refused with the revision to re-read, nothing lost), and the review setting,
 * which the user turns on and off over HTTP (an agent may not), kept in the store so a host that
 * opens it later honours it; while it is on, agent writes count for nothing (search, completion,
 * connector) until accepted.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, tempDir, type TestServer } from '../support/helpers.ts';
import { SatchelClient, ClientError } from '../../src/client/satchelClient.ts';
import { authorOf } from '../../src/core/history/authors.ts';
import { rmSync } from 'node:fs';

const USER = authorOf('vscode', 'Satchel for VS Code');
const COPILOT = authorOf('agent', 'VS Code agent');
const CLAUDE = authorOf('agent', 'Claude (VS Code)');

const CODE = 'export function lerp(a: number, b: number, t: number): number {\n  return a + (b - a) * t;\n}\n';

function stale(error: unknown): boolean {
  return error instanceof ClientError && error.status === 412 && error.staleRevision;
}

test('two agents updating one revision through the agent doors at once: one wins, the other gets 412 with the current revision, nothing is lost', async () => {
  const host = await startTestServer();
  const user = new SatchelClient(host.url, { author: USER });
  try {
    const saved = await user.agentChanges.save({ content: CODE, name: 'lerp', language: 'ts' }, COPILOT);
    assert.equal(saved.status, 'applied');
    const id = saved.asset!;
    const read = saved.revision!;
    const settled = await Promise.allSettled([
      user.agentChanges.update(id, { content: `${CODE}// first agent\n` }, { expectedRevision: read, author: COPILOT }),
      user.agentChanges.update(id, { content: `${CODE}// second agent\n` }, { expectedRevision: read, author: CLAUDE }),
    ]);
    const won = settled.filter((r) => r.status === 'fulfilled');
    const lost = settled.filter((r) => r.status === 'rejected');
    assert.equal(won.length, 1, JSON.stringify(settled));
    assert.equal(lost.length, 1);
    const winner = won[0]!.value;
    assert.equal(winner.status, 'applied');
    const refusal = lost[0]!.reason as ClientError;
    assert.ok(stale(refusal), String(refusal));
    assert.equal(refusal.currentRevision, winner.revision, 'the refusal names the revision to read again');

    // The loser reads again and redoes its change on the winner's text: both agents' work is kept.
    const again = await user.assets.getRevised(id);
    assert.equal(again.revision, winner.revision);
    const loser = settled[0]!.status === 'rejected' ? COPILOT : CLAUDE;
    const retried = await user.agentChanges.update(id, { content: `${host.core.assets.text(id)}// retried\n` }, { expectedRevision: again.revision!, author: loser });
    assert.equal(retried.status, 'applied');
    assert.match(host.core.assets.text(id)!, /\/\/ (first|second) agent\n\/\/ retried\n$/);
    const history = host.core.history.list(id).revisions;
    assert.equal(history.length, 3);
    assert.equal(host.core.history.get(id, history[2]!.id).content.text, CODE, 'the original is kept');

    // A delete on the stale revision is refused the same way; without a revision it is refused outright.
    await assert.rejects(user.agentChanges.delete(id, { expectedRevision: read, author: COPILOT }), stale);
    await assert.rejects(
      user.agentChanges.delete(id, { expectedRevision: '', author: COPILOT }),
      (error: unknown) => error instanceof ClientError && error.status === 400,
    );
    assert.equal(host.core.assets.exists(id), true);
  } finally {
    user.dispose();
    await host.close();
  }
});

test('a write through an agent door is an agent\'s whatever the caller calls itself, and is marked', async () => {
  const host = await startTestServer();
  const user = new SatchelClient(host.url, { author: USER });
  try {
    const saved = await user.agentChanges.save({ content: CODE, name: 'lerp' });
    const change = (await user.agentChanges.list()).changes.find((c) => c.asset === saved.asset);
    assert.equal(change?.agent.kind, 'agent');
    assert.equal(change?.kind, 'created');
  } finally {
    user.dispose();
    await host.close();
  }
});

test('the user turns review on over HTTP (an agent may not); agent writes then wait, hidden from search, completion and the connector', async () => {
  const host = await startTestServer();
  const user = new SatchelClient(host.url, { author: USER });
  const agent = new SatchelClient(host.url, { author: COPILOT });
  try {
    assert.equal((await user.agentChanges.list()).reviewing, false);
    await assert.rejects(agent.agentChanges.setReviewing(false), (error: unknown) => error instanceof ClientError && error.status === 403);
    assert.deepEqual(await user.agentChanges.setReviewing(true), { reviewing: true });
    assert.equal((await user.agentChanges.list()).reviewing, true);
    await assert.rejects(agent.agentChanges.setReviewing(false), (error: unknown) => error instanceof ClientError && error.status === 403, 'an agent cannot turn review off');
    assert.equal(host.core.agentChanges.reviewing, true);

    const CODE2 = 'export function quokkaShuffle<T>(items: T[]): T[] {\n  return [...items].sort(() => Math.random() - 0.5);\n}\n';
    const proposed = await agent.agentChanges.save({ content: CODE2, name: 'quokkaShuffle', language: 'ts' });
    assert.equal(proposed.status, 'proposed');
    assert.equal(proposed.asset, undefined);
    assert.equal((await user.assets.search('quokkaShuffle')).iterable?.length ?? 0, 0);
    assert.deepEqual((await user.snippets.completions('quokka', { language: 'typescript' })).candidates, []);
    assert.equal((await user.connector.saved(CODE2)).kind, 'not_saved');

    await user.agentChanges.accept(proposed.change!);
    assert.equal((await user.assets.search('quokkaShuffle')).iterable?.length, 1);
    assert.equal((await user.snippets.completions('quokka', { language: 'typescript' })).candidates.length, 1);
    assert.equal((await user.connector.saved(CODE2)).kind, 'saved');

    assert.deepEqual(await user.agentChanges.setReviewing(false), { reviewing: false });
    const counted = await agent.agentChanges.save({ content: 'SELECT 1 AS wombat_marker;\n', name: 'wombat' });
    assert.equal(counted.status, 'applied');
  } finally {
    agent.dispose();
    user.dispose();
    await host.close();
  }
});

test('the review choice is kept in the store: a host opening it later honours it unless told otherwise', async () => {
  const dataDir = tempDir();
  /** A host on the data directory for one look, closed whatever the look finds. */
  const opened = async <T>(options: { agents?: { reviewChanges?: boolean } }, look: (host: TestServer) => Promise<T>): Promise<T> => {
    const host = await startTestServer({ dataDir, ...options });
    try {
      return await look(host);
    } finally {
      await host.close();
    }
  };
  try {
    await opened({}, async (host) => {
      const user = new SatchelClient(host.url, { author: USER });
      try {
        await user.agentChanges.setReviewing(true);
      } finally {
        user.dispose();
      }
    });
    // Opened without a choice (the CLI with no flag, a window whose user never set it): still reviewing.
    assert.equal(await opened({}, async (host) => host.core.agentChanges.reviewing), true);
    // Told otherwise at start (a window whose setting says off): off, and kept.
    assert.equal(await opened({ agents: { reviewChanges: false } }, async (host) => host.core.agentChanges.reviewing), false);
    assert.equal(await opened({}, async (host) => host.core.agentChanges.reviewing), false);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
