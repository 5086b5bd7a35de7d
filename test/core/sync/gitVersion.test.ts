/** Sync refuses a git older than the commands it runs need, naming both versions, before anything changed. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Satchel } from '../../../src/core/satchel.ts';
import { parseGitVersion } from '../../../src/core/sync/git.ts';
import { tempDir } from '../../support/helpers.ts';
import { TEST_WRITE } from '../../support/authors.ts';
import { bareRepository, fakeGit, remoteFiles } from './syncSupport.ts';
import { seed } from './vaultSupport.ts';

test('git --version as builds print it: plain, Apple, Windows; something else reads as none', () => {
  assert.deepEqual(parseGitVersion('git version 2.39.2'), { numbers: [2, 39, 2], text: '2.39.2' });
  assert.deepEqual(parseGitVersion('git version 2.37.1 (Apple Git-137.1)')?.numbers, [2, 37, 1]);
  assert.deepEqual(parseGitVersion('git version 2.41.0.windows.1'), { numbers: [2, 41, 0], text: '2.41.0.windows.1' });
  assert.deepEqual(parseGitVersion('git version 2.30')?.numbers, [2, 30, 0]);
  assert.equal(parseGitVersion('hub version 2.14.2'), undefined);
});

test('a git older than 2.29 on the machine: the sync stops naming the found and needed versions; nothing was changed', { timeout: 60_000 }, async () => {
  const root = tempDir('satchel-sync-oldgit-');
  const remote = bareRepository(root);
  const dataDir = join(root, 'data');
  const core = Satchel.open({ dataDir, importWorker: false, sync: { gitExecutable: fakeGit(root, '2.20.1') } });
  try {
    core.sync.configure(remote);
    await core.assets.writes.create(seed('x\n'), TEST_WRITE);
    await assert.rejects(core.sync.sync(), { name: 'GitTooOldError', message: /needs git 2\.29\.0 or later, and the git on PATH is 2\.20\.1\..*nothing was changed/ });
    assert.equal(core.sync.status().changed, 1, 'the change is still to send');
    assert.equal(existsSync(join(dataDir, 'sync', 'repo.git')), false, 'no repository was made');
    assert.deepEqual(remoteFiles(remote), []);
    // 2.29 itself is enough: the fake git is then asked to do the sync's work (and fails at it).
    const enough = Satchel.open({ dataDir: join(root, 'data2'), importWorker: false, sync: { gitExecutable: fakeGit(root, '2.29.0', 'git-2.29') } });
    try {
      enough.sync.configure(remote);
      await assert.rejects(enough.sync.sync(), { name: 'GitError', message: /fake git asked: (-c \S+ )*init --bare/ });
    } finally {
      await enough.close();
    }
  } finally {
    await core.close();
    rmSync(root, { recursive: true, force: true });
  }
});
