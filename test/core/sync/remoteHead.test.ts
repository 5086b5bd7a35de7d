/**
 * A remote made with plain `git init --bare`, whose HEAD names master: Satchel's first push goes
 * to the branch HEAD names, so a `git clone` of it checks the vault out, and a second machine finds
 * it. A branch the user named is kept whatever HEAD says.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../support/helpers.ts';
import { TEST_WRITE } from '../../support/authors.ts';
import { bareRepository, library, openMachine, remoteFiles } from './syncSupport.ts';
import { seed } from './vaultSupport.ts';

function clone(remote: string, into: string): string {
  // git clone prints its warnings (an unborn HEAD: "remote HEAD refers to nonexistent ref") on stderr.
  return execFileSync('git', ['clone', remote, into], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }) + execFileSync('git', ['-C', into, 'status', '--short', '--branch'], { encoding: 'utf8' });
}

test('an empty remote whose HEAD names master: the vault goes to master, a clone checks it out, a second machine joins it', { timeout: 120_000 }, async () => {
  const root = tempDir('satchel-sync-head-');
  const remote = bareRepository(root, 'remote.git', 'master');
  const a = openMachine(join(root, 'a'), remote);
  const b = openMachine(join(root, 'b'), remote);
  try {
    await a.assets.writes.create(seed('echo hi\n', { name: 'Hi', ext: 'sh' }), TEST_WRITE);
    const first = await a.sync.sync();
    assert.equal(first.branch, 'master');
    assert.equal(a.sync.status().branch, 'master');
    assert.ok(remoteFiles(remote, 'master').includes('satchel.json'));
    assert.deepEqual(remoteFiles(remote, 'main'), [], 'no second branch');
    const work = join(root, 'clone');
    const said = clone(remote, work);
    assert.match(said, /^## master\.\.\.origin\/master/m);
    assert.ok(existsSync(join(work, 'satchel.json')), 'the clone has the vault checked out');
    assert.equal(readdirSync(join(work, 'assets')).length, 1);
    // B, set up with the same remote and no branch, finds the vault on master.
    const joined = await b.sync.sync();
    assert.deepEqual([joined.branch, joined.received], ['master', 1]);
    assert.deepEqual(library(b), library(a));
    // The extension passes the remote on every sync: the branch followed stays.
    b.sync.configure(remote);
    assert.equal(b.sync.settings()?.branch, 'master');
    assert.equal((await b.sync.sync()).received, 0);
  } finally {
    await a.close();
    await b.close();
    rmSync(root, { recursive: true, force: true });
  }
});

test('a branch the user named is kept whatever the remote\'s HEAD names', { timeout: 60_000 }, async () => {
  const root = tempDir('satchel-sync-head-named-');
  const remote = bareRepository(root, 'remote.git', 'master');
  const a = openMachine(join(root, 'a'));
  try {
    a.sync.configure(remote, 'snippets');
    await a.assets.writes.create(seed('x\n'), TEST_WRITE);
    assert.equal((await a.sync.sync()).branch, 'snippets');
    assert.ok(remoteFiles(remote, 'snippets').includes('satchel.json'));
    assert.deepEqual(remoteFiles(remote, 'master'), []);
  } finally {
    await a.close();
    rmSync(root, { recursive: true, force: true });
  }
});
