/** Sync between two machines through a local bare repository: creates, edits, merges, conflicts, deletes and renames. */
import { test } from 'node:test';
import { execFileSync } from 'node:child_process';
import assert from 'node:assert/strict';
import { library, remoteFiles, withMachines } from './syncSupport.ts';
import { recordsOf, seed, variedLibrary } from './vaultSupport.ts';
import { TEST_WRITE } from '../../support/authors.ts';

const SLOW = { timeout: 120_000 };

test('create on A appears on B, every field of it; the second sync of each has nothing to do', SLOW, async () => {
  await withMachines(async ({ a, b, remote }) => {
    const ids = await variedLibrary(a);
    const first = await a.sync.sync();
    assert.equal(first.sent, 8, 'six snippets and two conversations');
    assert.ok(remoteFiles(remote).includes('satchel.json'));
    const joined = await b.sync.sync();
    assert.equal(joined.received, 8);
    assert.deepEqual(library(b), library(a));
    assert.equal(recordsOf(b).read(ids[0]!)?.name, 'Plain');
    // The revisions B made are the sync's.
    assert.equal(b.history.list(ids[0]!).revisions[0]?.author.kind, 'sync');
    const again = [await a.sync.sync(), await b.sync.sync()];
    assert.deepEqual(again.map((s) => [s.sent, s.received]), [[0, 0], [0, 0]]);
    assert.equal(a.sync.status().changed, 0);
    assert.equal(b.sync.status().changed, 0);
  });
});

test('with a remote set, a snippet\'s description edited twice and a website renamed before a sync are noted once each (the notes no longer fail the write)', async () => {
  await withMachines(async ({ a }) => {
    const asset = await a.assets.writes.create(seed('x\n', { name: 'X' }), TEST_WRITE);
    a.assets.writes.edit(asset.id, { description: 'one' }, TEST_WRITE);
    a.assets.writes.edit(asset.id, { description: 'two' }, TEST_WRITE);
    a.assets.writes.createWebsite({ url: 'https://example.com/x', name: 'X', asset: asset.id }, TEST_WRITE);
    a.assets.writes.createWebsite({ url: 'https://example.com/x', name: 'X, renamed', asset: asset.id }, TEST_WRITE);
    assert.equal(a.sync.status().changed, 1);
  });
});

test('concurrent edits of different lines merge line by line; tags edited on both sides are unioned', SLOW, async () => {
  await withMachines(async ({ a, b }) => {
    const text = 'line 1\nline 2\nline 3\nline 4\nline 5\n';
    const asset = await a.assets.writes.create(seed(text, { name: 'Lines', tags: ['shared', 'drop-me'] }), TEST_WRITE);
    await a.sync.sync();
    await b.sync.sync();
    a.assets.writes.edit(asset.id, { content: { text: 'line 1 (A)\nline 2\nline 3\nline 4\nline 5\n' }, tags: ['shared', 'drop-me', 'from-a'] }, TEST_WRITE);
    b.assets.writes.edit(asset.id, { content: { text: 'line 1\nline 2\nline 3\nline 4\nline 5 (B)\n' }, tags: ['shared', 'from-b'] }, TEST_WRITE);
    await a.sync.sync();
    const merged = await b.sync.sync();
    assert.deepEqual(merged.notices, []);
    await a.sync.sync();
    const expected = 'line 1 (A)\nline 2\nline 3\nline 4\nline 5 (B)\n';
    for (const core of [a, b]) {
      const record = recordsOf(core).read(asset.id)!;
      assert.equal(record.content, expected);
      assert.deepEqual(record.tags, ['from-a', 'from-b', 'shared']);
    }
    assert.deepEqual(library(a), library(b));
  });
});

test('the same line edited on both sides: the remote version stays, the local one becomes a linked conflict copy, no markers', SLOW, async () => {
  await withMachines(async ({ a, b }) => {
    const asset = await a.assets.writes.create(seed('const retries = 3;\n', { name: 'Retries' }), TEST_WRITE);
    await a.sync.sync();
    await b.sync.sync();
    a.assets.writes.edit(asset.id, { content: { text: 'const retries = 5;\n' } }, TEST_WRITE);
    b.assets.writes.edit(asset.id, { content: { text: 'const retries = 10;\n' } }, TEST_WRITE);
    await a.sync.sync();
    const second = await b.sync.sync();
    assert.equal(second.notices.length, 1);
    assert.equal(second.notices[0]!.notice, 'conflict');
    const copy = second.notices[0]!.copy!;
    await a.sync.sync();
    for (const core of [a, b]) {
      const records = recordsOf(core);
      assert.equal(records.read(asset.id)!.content, 'const retries = 5;\n');
      const kept = records.read(copy)!;
      assert.equal(kept.content, 'const retries = 10;\n');
      assert.equal(kept.conflictOf, asset.id);
      assert.match(kept.name, /conflict copy/);
      assert.deepEqual(core.sync.conflicts(), [{ copy, original: asset.id, name: 'Retries (conflict copy)', language: 'ts', yours: core === b ? 'copy' : 'original' }]);
    }
    for (const record of library(a).values()) assert.doesNotMatch(String(record.content), /<<<<<<<|>>>>>>>/);
    assert.deepEqual(library(a), library(b));
  });
});

test('delete against edit, in both orders: the edit wins on both machines and the sync says so', SLOW, async () => {
  await withMachines(async ({ a, b }) => {
    const first = await a.assets.writes.create(seed('one\n', { name: 'First' }), TEST_WRITE);
    const second = await a.assets.writes.create(seed('two\n', { name: 'Second' }), TEST_WRITE);
    await a.sync.sync();
    await b.sync.sync();
    // First: A deletes and syncs first; B's edit comes after.
    a.assets.writes.delete(first.id, TEST_WRITE);
    await a.sync.sync();
    b.assets.writes.edit(first.id, { content: { text: 'one, edited on B\n' } }, TEST_WRITE);
    // Second: B edits and syncs first; A's delete (made before it saw the edit) comes after.
    b.assets.writes.edit(second.id, { name: 'Second, renamed on B' }, TEST_WRITE);
    const onB = await b.sync.sync();
    assert.deepEqual(onB.notices.map((n) => [n.id, n.notice]), [[first.id, 'local-edit-kept']]);
    a.assets.writes.delete(second.id, TEST_WRITE);
    const onA = await a.sync.sync();
    assert.deepEqual(onA.notices.map((n) => [n.id, n.notice]), [[second.id, 'remote-edit-kept']]);
    await b.sync.sync();
    for (const core of [a, b]) {
      assert.equal(recordsOf(core).read(first.id)?.content, 'one, edited on B\n');
      assert.equal(recordsOf(core).read(second.id)?.name, 'Second, renamed on B');
    }
    assert.deepEqual(library(a), library(b));
  });
});

test('a delete reaches the other machine (through core\'s delete), and a rename meets an edit of the code cleanly', SLOW, async () => {
  await withMachines(async ({ a, b }) => {
    const gone = await a.assets.writes.create(seed('bye\n', { name: 'Gone' }), TEST_WRITE);
    const kept = await a.assets.writes.create(seed('x = 1\ny = 2\n', { name: 'Old name', ext: 'py' }), TEST_WRITE);
    await a.sync.sync();
    await b.sync.sync();
    a.assets.writes.delete(gone.id, TEST_WRITE);
    a.assets.writes.edit(kept.id, { name: 'New name' }, TEST_WRITE);
    b.assets.writes.edit(kept.id, { content: { text: 'x = 1\ny = 3\n' } }, TEST_WRITE);
    await a.sync.sync();
    const onB = await b.sync.sync();
    assert.equal(onB.deletedHere, 1);
    await a.sync.sync();
    assert.equal(b.assets.exists(gone.id), false);
    for (const core of [a, b]) assert.deepEqual([recordsOf(core).read(kept.id)?.name, recordsOf(core).read(kept.id)?.content], ['New name', 'x = 1\ny = 3\n']);
    assert.deepEqual(library(a), library(b));
  });
});

test('two machines syncing at once: the push that loses fetches, merges and pushes again; both converge', SLOW, async () => {
  await withMachines(async ({ a, b }) => {
    await a.sync.sync();
    await b.sync.sync();
    for (let i = 0; i < 5; i++) {
      await a.assets.writes.create(seed(`a${i}\n`, { name: `From A ${i}` }), TEST_WRITE);
      await b.assets.writes.create(seed(`b${i}\n`, { name: `From B ${i}` }), TEST_WRITE);
    }
    const [onA, onB] = await Promise.all([a.sync.sync(), b.sync.sync()]);
    assert.ok(onA.attempts + onB.attempts >= 3, `one of them retried (${onA.attempts}, ${onB.attempts})`);
    await a.sync.sync();
    await b.sync.sync();
    assert.equal(library(a).size, 10);
    assert.deepEqual(library(a), library(b));
  });
});

test('a remote emptied (or most of the library deleted elsewhere) stops the sync, nothing changed, until confirmed', SLOW, async () => {
  await withMachines(async ({ a, b, remote }) => {
    for (let i = 0; i < 10; i++) await a.assets.writes.create(seed(`s${i}\n`, { name: `S ${i}` }), TEST_WRITE);
    await a.sync.sync();
    await b.sync.sync();
    for (const id of b.assets.identifiers().slice(0, 8)) b.assets.writes.delete(id, TEST_WRITE);
    await assert.rejects(b.sync.sync(), { name: 'MassDeleteError', message: /delete 8 of 10 snippets on the remote/ });
    assert.equal(remoteFiles(remote).filter((f) => f.endsWith('snippet.md')).length, 10, 'nothing was pushed');
    const confirmed = await b.sync.sync({ confirmDeletes: true });
    assert.equal(confirmed.deletedThere, 8);
    await assert.rejects(a.sync.sync(), { name: 'MassDeleteError', message: /delete 8 of 10 snippets on this machine/ });
    assert.equal(a.assets.identifiers().length, 10, 'A deleted nothing');
    // The branch deleted on the remote: A stops too, and may publish its library again.
    const { execFileSync } = await import('node:child_process');
    execFileSync('git', ['--git-dir', remote, 'update-ref', '-d', 'refs/heads/main']);
    await assert.rejects(a.sync.sync(), { name: 'MassDeleteError', message: /no longer has the branch/ });
    await a.sync.sync({ confirmDeletes: true });
    assert.equal(remoteFiles(remote).filter((f) => f.endsWith('snippet.md')).length, 10);
  });
});

test('the share of the library a sync deletes without asking is the caller\'s: a lower one stops a smaller delete, a higher one lets a larger go; outside 0-100 is refused', SLOW, async () => {
  await withMachines(async ({ a, b }) => {
    for (let i = 0; i < 20; i++) await a.assets.writes.create(seed(`s${i}\n`, { name: `S ${i}` }), TEST_WRITE);
    await a.sync.sync();
    await b.sync.sync();
    for (const id of b.assets.identifiers().slice(0, 6)) b.assets.writes.delete(id, TEST_WRITE);
    // 6 of 20 (30 %): under the default 50 %, over 25 %.
    await assert.rejects(b.sync.sync({ maxDeletePercent: 25 }), { name: 'MassDeleteError', message: /delete 6 of 20 snippets on the remote.*more than the 25%/ });
    await assert.rejects(b.sync.sync({ maxDeletePercent: 101 }), { name: 'InvalidInputError', message: /from 0 to 100/ });
    await assert.rejects(b.sync.sync({ maxDeletePercent: Number.NaN }), { name: 'InvalidInputError' });
    assert.equal((await b.sync.sync()).deletedThere, 6, 'the default lets 30 % go');
    // A deletes 8 of the 14 left: B would delete 8 of its 14 (57 %), stopped by default and at 0 %, let go at 100 %.
    await a.sync.sync();
    for (const id of a.assets.identifiers().slice(0, 8)) a.assets.writes.delete(id, TEST_WRITE);
    await a.sync.sync({ maxDeletePercent: 100 });
    await assert.rejects(b.sync.sync(), { name: 'MassDeleteError', message: /delete 8 of 14 snippets on this machine.*more than the 50%/ });
    await assert.rejects(b.sync.sync({ maxDeletePercent: 0 }), { name: 'MassDeleteError' });
    assert.equal(b.assets.identifiers().length, 14, 'B deleted nothing');
    assert.equal((await b.sync.sync({ maxDeletePercent: 100 })).deletedHere, 8);
  });
});

test('git missing: a clear message and nothing changed; a remote that is not a vault is refused', SLOW, async () => {
  const { Satchel } = await import('../../../src/core/satchel.ts');
  const { tempDir } = await import('../../support/helpers.ts');
  const { rmSync, writeFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { execFileSync } = await import('node:child_process');
  const { bareRepository } = await import('./syncSupport.ts');
  const root = tempDir('satchel-sync-nogit-');
  const core = Satchel.open({ dataDir: join(root, 'data'), importWorker: false, sync: { gitExecutable: join(root, 'no-such-git') } });
  try {
    await core.assets.writes.create(seed('x\n'), TEST_WRITE);
    core.sync.configure(bareRepository(root));
    await assert.rejects(core.sync.sync(), { name: 'GitMissingError', message: /no git executable was found on PATH.*nothing was changed/ });
    assert.equal(core.sync.status().changed, 0);
    // A repository with other content on the branch is not taken for a vault.
    const other = bareRepository(root, 'other.git');
    const work = join(root, 'work');
    execFileSync('git', ['init', '--quiet', '-b', 'main', work]);
    writeFileSync(join(work, 'README.md'), 'hello\n');
    execFileSync('git', ['-C', work, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '--quiet', '--allow-empty', '-m', 'x']);
    execFileSync('git', ['-C', work, 'add', 'README.md']);
    execFileSync('git', ['-C', work, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '--quiet', '-m', 'y']);
    execFileSync('git', ['-C', work, 'push', '--quiet', other, 'main']);
    const real = Satchel.open({ dataDir: join(root, 'data2'), importWorker: false });
    try {
      real.sync.configure(other);
      await assert.rejects(real.sync.sync(), { message: /is not a Satchel vault/ });
    } finally {
      await real.close();
    }
  } finally {
    await core.close();
    rmSync(root, { recursive: true, force: true });
  }
});

test('a snippet edited while a sync runs keeps the edit, and the next sync merges it with what the sync brought', SLOW, async () => {
  await withMachines(async ({ a, b }) => {
    const asset = await a.assets.writes.create(seed('1\n2\n3\n4\n', { name: 'Busy' }), TEST_WRITE);
    await a.sync.sync();
    await b.sync.sync();
    b.assets.writes.edit(asset.id, { content: { text: '1\n2\n3\n4 (B)\n' } }, TEST_WRITE);
    await b.sync.sync();
    a.assets.writes.edit(asset.id, { content: { text: '1 (A)\n2\n3\n4\n' } }, TEST_WRITE);
    let edited = false;
    await a.sync.sync({
      onProgress: (progress) => {
        // Between the sync's reading of A's snippet and its applying of the merge.
        if (progress.phase === 'pushing' && !edited) {
          edited = true;
          a.assets.writes.edit(asset.id, { content: { text: '1 (A)\n2 (A, during the sync)\n3\n4\n' } }, TEST_WRITE);
        }
      },
    });
    assert.ok(edited);
    assert.equal(recordsOf(a).read(asset.id)?.content, '1 (A)\n2 (A, during the sync)\n3\n4\n', 'the edit made during the sync was not overwritten');
    assert.equal(a.sync.status().changed, 1);
    const next = await a.sync.sync();
    assert.deepEqual(next.notices, []);
    await b.sync.sync();
    for (const core of [a, b]) assert.equal(recordsOf(core).read(asset.id)?.content, '1 (A)\n2 (A, during the sync)\n3\n4 (B)\n');
    assert.deepEqual(library(a), library(b));
  });
});

test('a conflict settled: keep mine makes the copy the snippet, keep theirs drops it, keep both keeps it unlisted; the other machine follows', SLOW, async () => {
  await withMachines(async ({ a, b }) => {
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await a.assets.writes.create(seed(`value = ${i}\n`, { name: `Setting ${i}`, ext: 'py' }), TEST_WRITE)).id);
    await a.sync.sync();
    await b.sync.sync();
    for (const [i, id] of ids.entries()) {
      a.assets.writes.edit(id, { content: { text: `value = ${i} (A)\n` } }, TEST_WRITE);
      b.assets.writes.edit(id, { content: { text: `value = ${i} (B)\n` } }, TEST_WRITE);
    }
    await a.sync.sync();
    await b.sync.sync();
    const conflicts = new Map(b.sync.conflicts().map((conflict) => [conflict.original, conflict]));
    assert.equal(conflicts.size, 3);
    assert.match(conflicts.get(ids[0]!)!.name, /^Setting 0 \(conflict copy\)$/);
    b.sync.resolve(conflicts.get(ids[0]!)!.copy, 'mine', TEST_WRITE);
    b.sync.resolve(conflicts.get(ids[1]!)!.copy, 'theirs', TEST_WRITE);
    b.sync.resolve(conflicts.get(ids[2]!)!.copy, 'both', TEST_WRITE);
    assert.deepEqual(b.sync.conflicts(), []);
    await b.sync.sync();
    await a.sync.sync();
    for (const core of [a, b]) {
      const records = recordsOf(core);
      assert.deepEqual([records.read(ids[0]!)?.content, records.read(ids[0]!)?.name], ['value = 0 (B)\n', 'Setting 0']);
      assert.equal(records.read(ids[1]!)?.content, 'value = 1 (A)\n');
      assert.equal(records.read(conflicts.get(ids[1]!)!.copy), undefined);
      assert.equal(records.read(conflicts.get(ids[2]!)!.copy)?.content, 'value = 2 (B)\n');
      assert.equal(records.read(conflicts.get(ids[2]!)!.copy)?.conflictOf, undefined);
    }
    assert.equal(a.sync.conflicts().length, 0);
    assert.deepEqual(library(a), library(b));
  });
});

test('closing the store during a sync stops the sync before its push, and the store closes only after it; the next run sends everything', SLOW, async () => {
  const { openMachine, bareRepository } = await import('./syncSupport.ts');
  const { tempDir } = await import('../../support/helpers.ts');
  const { rmSync } = await import('node:fs');
  const { join } = await import('node:path');
  const root = tempDir('satchel-sync-close-');
  const remote = bareRepository(root);
  const core = openMachine(join(root, 'a'), remote);
  try {
    await core.assets.writes.create(seed('one\n'), TEST_WRITE);
    let closed: Promise<void> | undefined;
    const syncing = core.sync.sync({ onProgress: (p) => void (p.phase === 'fetched' && (closed ??= core.close())) });
    await assert.rejects(syncing, { name: /AbortError|Error/ });
    await closed;
    assert.deepEqual(remoteFiles(remote), [], 'nothing was pushed');
    const again = openMachine(join(root, 'a'));
    try {
      assert.equal((await again.sync.sync()).sent, 1);
    } finally {
      await again.close();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a delete is a trash entry on the other machine (by the sync); a snippet deleted here that the other machine changed comes back out of the trash', SLOW, async () => {
  await withMachines(async ({ a, b }) => {
    const gone = await a.assets.writes.create(seed('bye\n', { name: 'Gone' }), TEST_WRITE);
    const back = await a.assets.writes.create(seed('x\n', { name: 'Back' }), TEST_WRITE);
    await a.sync.sync();
    await b.sync.sync();
    a.assets.writes.delete(gone.id, TEST_WRITE);
    await a.sync.sync();
    await b.sync.sync();
    const entry = b.trash.get(gone.id);
    assert.equal(entry.deletedBy.kind, 'sync', 'B keeps it in its trash, deleted by the sync');
    // B deletes Back into its trash while A edits it: the edit wins, and B's trash entry goes.
    b.assets.writes.delete(back.id, TEST_WRITE);
    a.assets.writes.edit(back.id, { content: { text: 'x, edited on A\n' } }, TEST_WRITE);
    await a.sync.sync();
    const onB = await b.sync.sync();
    assert.deepEqual(onB.notices.map((n) => n.notice), ['remote-edit-kept']);
    assert.equal(recordsOf(b).read(back.id)?.content, 'x, edited on A\n');
    assert.throws(() => b.trash.get(back.id), { name: 'NotFoundError' });
    // Restoring from the trash is a change like any other: it reaches A.
    b.trash.restore(gone.id, TEST_WRITE);
    await b.sync.sync();
    await a.sync.sync();
    assert.equal(recordsOf(a).read(gone.id)?.content, 'bye\n');
    assert.deepEqual(library(a), library(b));
  });
});

test('the commit a sync pushes names each snippet it sends once (an edited one was named twice: "X, X, Y")', SLOW, async () => {
  await withMachines(async ({ a, remote }) => {
    const x = await a.assets.writes.create(seed('x = 1\n', { name: 'X' }), TEST_WRITE);
    await a.sync.sync();
    a.assets.writes.edit(x.id, { content: { text: 'x = 2\n' } }, TEST_WRITE);
    await a.assets.writes.create(seed('y = 1\n', { name: 'Y' }), TEST_WRITE);
    assert.equal((await a.sync.sync()).sent, 2);
    const subject = execFileSync('git', ['--git-dir', remote, 'log', '-1', '--format=%s', 'main'], { encoding: 'utf8' }).trim();
    assert.equal(subject, 'Sync: 2 changed (X, Y)');
  });
});
