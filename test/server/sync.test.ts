/** POST /satchel/sync and GET /satchel/sync over HTTP: NDJSON progress then the summary, a bad remote refused, the status. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { startTestServer, tempDir } from '../support/helpers.ts';
import { ClientError, SatchelClient } from '../../src/client/satchelClient.ts';
import { bareRepository } from '../core/sync/syncSupport.ts';
import { seed } from '../core/sync/vaultSupport.ts';
import { TEST_WRITE } from '../support/authors.ts';
import type { SyncProgress } from '../../src/core/sync/syncEngine.ts';

test('a sync through the host: progress lines, then the summary; the status names the remote without its credentials', { timeout: 60_000 }, async () => {
  const root = tempDir('satchel-http-sync-');
  const server = await startTestServer({ importWorker: false });
  const client = new SatchelClient(server.url);
  try {
    await server.core.assets.writes.create(seed('SELECT 1;\n', { ext: 'sql' }), TEST_WRITE);
    const phases: SyncProgress['phase'][] = [];
    const summary = await client.sync.run({ remote: bareRepository(root) }, { onProgress: (p) => phases.push(p.phase) });
    assert.equal(summary.sent, 1);
    for (const phase of ['fetching', 'merging', 'committed', 'pushing', 'pushed', 'done'] as const) assert.ok(phases.includes(phase), `${phase} in ${phases.join(',')}`);
    const status = await client.sync.status();
    assert.equal(status.changed, 0);
    assert.equal(status.last?.sent, 1);
    server.core.sync.configure('https://me:s3cret@example.com/lib.git');
    assert.equal((await client.sync.status()).remote, 'https://example.com/lib.git');
    // A remote that reads as an option is refused before git sees it.
    const refused = await fetch(`${server.url}/satchel/sync`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ remote: '--upload-pack=touch /tmp/x' }) });
    assert.equal(refused.status, 400);
    assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'invalid_input');
    // The share a sync may delete without asking is a percentage.
    for (const maxDeletePercent of [150, -1, '50']) {
      const bad = await fetch(`${server.url}/satchel/sync`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ maxDeletePercent }) });
      assert.equal(bad.status, 400, `maxDeletePercent ${maxDeletePercent}`);
    }
  } finally {
    client.dispose();
    await server.close();
    rmSync(root, { recursive: true, force: true });
  }
});

test('the share a sync may delete, sent with the request, is the one the host applies', { timeout: 60_000 }, async () => {
  const root = tempDir('satchel-http-sync-share-');
  const server = await startTestServer({ importWorker: false });
  const client = new SatchelClient(server.url);
  try {
    for (let i = 0; i < 10; i++) await server.core.assets.writes.create(seed(`SELECT ${i};\n`, { ext: 'sql', name: `Query ${i}` }), TEST_WRITE);
    await client.sync.run({ remote: bareRepository(root) });
    for (const id of server.core.assets.identifiers().slice(0, 6)) server.core.assets.writes.delete(id, TEST_WRITE);
    // 6 of 10: over the 55 % sent, and over the default 50 %; under the 70 % sent.
    await assert.rejects(client.sync.run({ maxDeletePercent: 55 }), (error: unknown) => error instanceof ClientError && error.status === 409 && /6 of 10 .*more than the 55%/.test(error.message));
    const summary = await client.sync.run({ maxDeletePercent: 70 });
    assert.equal(summary.deletedThere, 6);
  } finally {
    client.dispose();
    await server.close();
    rmSync(root, { recursive: true, force: true });
  }
});

test('a conflict over HTTP: the host names its sides, gives both versions with what differs, and settles the fields chosen', { timeout: 120_000 }, async () => {
  const { openMachine } = await import('../core/sync/syncSupport.ts');
  const { recordsOf } = await import('../core/sync/vaultSupport.ts');
  const root = tempDir('satchel-http-sync-conflict-');
  const remote = bareRepository(root);
  const server = await startTestServer({ importWorker: false });
  const client = new SatchelClient(server.url);
  const other = openMachine(`${root}/other`, remote);
  try {
    const { id } = await server.core.assets.writes.create(seed('const retries = 3;\n', { name: 'Retries' }), TEST_WRITE);
    await client.sync.run({ remote });
    await other.sync.sync();
    server.core.assets.writes.edit(id, { content: { text: 'const retries = 5;\n' }, name: 'Retries, here' }, TEST_WRITE);
    other.assets.writes.edit(id, { content: { text: 'const retries = 10;\n' } }, TEST_WRITE);
    await client.sync.run();
    await other.sync.sync();
    await client.sync.run();
    const [conflict] = await client.sync.conflicts();
    assert.deepEqual([conflict?.original, conflict?.yours], [id, 'original'], 'the host\'s version won: the copy is the other machine\'s');
    const sides = await client.sync.conflict(conflict!.copy);
    assert.deepEqual([sides.mine.code, sides.theirs?.code, sides.differs], ['const retries = 5;\n', 'const retries = 10;\n', ['name', 'code']]);
    const bad = await fetch(`${server.url}/satchel/sync/conflicts/${conflict!.copy}/resolve`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ keep: 'theirs', fields: ['colour'] }) });
    assert.equal(bad.status, 400);
    await assert.rejects(client.sync.conflict('no-such-copy'), (error: unknown) => error instanceof ClientError && error.status === 404);
    await client.sync.resolve(conflict!.copy, 'theirs', ['code']);
    const settled = recordsOf(server.core).read(id)!;
    assert.deepEqual([settled.content, settled.name], ['const retries = 10;\n', 'Retries, here']);
    assert.deepEqual(await client.sync.conflicts(), []);
  } finally {
    client.dispose();
    await other.close();
    await server.close();
    rmSync(root, { recursive: true, force: true });
  }
});
