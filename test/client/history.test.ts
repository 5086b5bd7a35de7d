/**
 * The client's side of history: its author header on every write, another author for one call,
 * the revision a read or write answers with, conditional writes refused with a ClientError that
 * names the current revision, and the history operations.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer } from '../support/helpers.ts';
import { SatchelClient, ClientError } from '../../src/client/satchelClient.ts';
import { authorOf } from '../../src/core/history/authors.ts';

const application = { id: 'satchel-test', name: 'VS_CODE', version: '1', platform: 'LINUX', onboarded: true, privacy: 'OPEN' } as const;

test('the client names its author, reads revisions, and makes conditional writes', async () => {
  const server = await startTestServer();
  const client = new SatchelClient(server.url, { author: authorOf('vscode', 'Satchel for VS Code') });
  try {
    const created = await client.assets.createFromText({ text: 'const fromClient = 1;\n', application, language: 'ts', name: 'from client' });
    const listed = await client.history.list(created.id);
    assert.deepEqual(listed.revisions[0]!.author, { kind: 'vscode', name: 'Satchel for VS Code' });
    const { asset, revision } = await client.assets.getRevised(created.id);
    assert.equal(revision, listed.current);

    const renamed = await client.assets.updateRevised({ ...asset, name: 'renamed' }, { expectedRevision: revision });
    assert.notEqual(renamed.revision, revision);
    const stale = await client.assets.update({ ...asset, name: 'lost' }, { expectedRevision: revision }).then(
      () => undefined,
      (error: unknown) => error,
    );
    assert.ok(stale instanceof ClientError);
    assert.equal(stale.status, 412);
    assert.ok(stale.staleRevision);
    assert.equal(stale.currentRevision, renamed.revision);

    // An agent working through the extension's client writes under its own name, for that call only.
    const agent = authorOf('agent', 'Copilot');
    const edited = await client.history.edit(created.id, { content: 'const fromClient = 2;\n', tags: ['edited'] }, { expectedRevision: renamed.revision, author: agent });
    const after = await client.history.list(created.id);
    assert.equal(after.current, edited.revision);
    assert.deepEqual(after.revisions[0]!.author, agent);
    const first = await client.history.get(created.id, listed.current);
    assert.deepEqual(first.content, { text: 'const fromClient = 1;\n' });
    const restored = await client.history.restore(created.id, listed.current, { expectedRevision: edited.revision });
    assert.equal(restored.restoredFrom, listed.current);
    assert.deepEqual(restored.author, { kind: 'vscode', name: 'Satchel for VS Code' });
    assert.equal((await client.assets.get(created.id)).name, 'from client');

    await assert.rejects(client.assets.delete(created.id, { expectedRevision: edited.revision }), (error: unknown) => error instanceof ClientError && error.staleRevision);
    assert.equal(await client.assets.delete(created.id, { expectedRevision: restored.id }), created.id);
    assert.equal((await client.history.list(created.id)).deleted, true);
  } finally {
    client.dispose();
    await server.close();
  }
});
