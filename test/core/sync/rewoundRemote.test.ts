/** A remote that lost commits this machine had synced (force-push, restored backup, recreated repository): nothing synced is rolled back or trashed. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { bareRepository, library, remoteFiles, withMachines } from './syncSupport.ts';
import { recordsOf, seed } from './vaultSupport.ts';
import { TEST_WRITE } from '../../support/authors.ts';

const SLOW = { timeout: 120_000 };

function snippetFolders(remote: string): string[] {
  return remoteFiles(remote)
    .filter((file) => file.endsWith('/snippet.md'))
    .map((file) => file.split('/')[2]!);
}

test('the remote branch set back one commit: the edit and the new snippet stay, are sent back, and the summary says so', SLOW, async () => {
  await withMachines(async ({ a, b, remote }) => {
    const x = await a.assets.writes.create(seed('old text\n', { name: 'X' }), TEST_WRITE);
    await a.sync.sync();
    await b.sync.sync();
    a.assets.writes.edit(x.id, { content: { text: 'new text\n' } }, TEST_WRITE);
    const y = await a.assets.writes.create(seed('brand new\n', { name: 'Y' }), TEST_WRITE);
    await a.sync.sync();
    // The remote loses A's last push (a backup restored, a force-push).
    execFileSync('git', ['--git-dir', remote, 'update-ref', 'refs/heads/main', 'refs/heads/main~1']);
    const summary = await a.sync.sync();
    assert.equal(summary.deletedHere, 0);
    assert.equal(summary.received, 0);
    assert.deepEqual(summary.notices.map((n) => n.notice), ['remote-rewound']);
    assert.equal(recordsOf(a).read(x.id)?.content, 'new text\n', 'X keeps its new text');
    assert.equal(recordsOf(a).read(y.id)?.content, 'brand new\n', 'Y is not trashed');
    assert.ok(snippetFolders(remote).includes(y.id), 'Y is on the remote again');
    await b.sync.sync();
    assert.equal(recordsOf(b).read(x.id)?.content, 'new text\n');
    assert.deepEqual(library(a), library(b));
    assert.deepEqual((await a.sync.sync()).notices, [], 'said once');
  });
});

test('a recreated repository republished by a machine that was behind: the newer machine keeps its edits and new snippets (a union), and both converge', SLOW, async () => {
  await withMachines(async ({ a, b, remote, root }) => {
    const x = await a.assets.writes.create(seed('old text\n', { name: 'X' }), TEST_WRITE);
    const kept = await a.assets.writes.create(seed('kept\n', { name: 'Kept' }), TEST_WRITE);
    const first = (await a.sync.sync()).commit;
    await b.sync.sync();
    a.assets.writes.edit(x.id, { content: { text: 'new text\n' } }, TEST_WRITE);
    const fresh: string[] = [];
    for (let i = 0; i < 4; i++) fresh.push((await a.assets.writes.create(seed(`new ${i}\n`, { name: `New ${i}` }), TEST_WRITE)).id);
    await a.sync.sync();
    // The repository is recreated; B, which never saw A's last sync, follows the guard's advice and publishes its library.
    rmSync(remote, { recursive: true, force: true });
    bareRepository(root);
    await assert.rejects(b.sync.sync(), { name: 'MassDeleteError' });
    await b.sync.sync({ confirmDeletes: true });
    assert.equal(snippetFolders(remote).length, 2);
    const summary = await a.sync.sync();
    assert.equal(summary.deletedHere, 0);
    // No shared history, unless B's republishing made, in the same second, the very commit A's first sync
    // made (same tree, message and time: the same id), which is then truly the last commit both hold.
    assert.deepEqual(summary.notices.map((n) => n.notice), ['remote-rewound']);
    assert.ok(['', first].includes(summary.notices[0]!.id), `merged from ${summary.notices[0]!.id}`);
    assert.equal(recordsOf(a).read(x.id)?.content, 'new text\n', 'X keeps its new text, no conflict copy');
    for (const id of fresh) assert.ok(a.assets.exists(id), 'the new snippets are not trashed');
    assert.equal(a.sync.conflicts().length, 0);
    assert.deepEqual(new Set(snippetFolders(remote)), new Set([x.id, kept.id, ...fresh]));
    await b.sync.sync();
    assert.equal(recordsOf(b).read(x.id)?.content, 'new text\n');
    assert.deepEqual(library(a), library(b));
  });
});
