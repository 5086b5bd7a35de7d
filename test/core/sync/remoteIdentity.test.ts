/** A remote is the repository it names, not the way it was typed: the same one spelled otherwise does not start over. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, symlinkSync } from 'node:fs';
import { tempDir } from '../../support/helpers.ts';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { absoluteRemote, remoteIdentity } from '../../../src/core/sync/remoteIdentity.ts';
import { bareRepository, withMachines } from './syncSupport.ts';
import { seed } from './vaultSupport.ts';
import { TEST_WRITE } from '../../support/authors.ts';

test('one hosted repository however it is typed: scp-like SSH, ssh://, https:// with or without .git, a trailing slash, the host\'s case', () => {
  const same = [
    'git@github.com:owner/repo.git',
    'git@GitHub.com:owner/repo',
    'ssh://git@github.com/owner/repo.git',
    'ssh://git@github.com:22/owner/repo/',
    'https://github.com/owner/repo',
    'https://github.com/owner/repo.git/',
    'https://user:token@github.com:443/owner/repo.git',
    '  https://GITHUB.COM/owner/repo  ',
  ];
  for (const url of same) assert.equal(remoteIdentity(url), 'github.com/owner/repo', url);
  assert.notEqual(remoteIdentity('https://github.com/owner/other'), remoteIdentity('https://github.com/owner/repo'));
  assert.notEqual(remoteIdentity('https://gitlab.com/owner/repo'), remoteIdentity('https://github.com/owner/repo'));
  assert.notEqual(remoteIdentity('ssh://git@host:2222/owner/repo'), remoteIdentity('ssh://git@host/owner/repo'), 'another port is another server');
});

test('one local repository: a trailing slash, file:// of it, a relative path, a symbolic link', () => {
  const root = tempDir('satchel-identity-');
  const path = bareRepository(root, 'remote.git');
  const link = join(root, 'link.git');
  symlinkSync(path, link);
  try {
    const identity = remoteIdentity(path);
    for (const url of [`${path}/`, pathToFileURL(path).href, `${pathToFileURL(path).href}/`, link]) assert.equal(remoteIdentity(url), identity, url);
    assert.equal(remoteIdentity('remote.git', root), identity);
    assert.notEqual(remoteIdentity(join(root, 'elsewhere.git')), identity);
    // The CLI makes a relative path absolute before a host (started elsewhere) is given it; other remotes are left as typed.
    assert.equal(absoluteRemote('remote.git', '/srv'), '/srv/remote.git');
    assert.equal(absoluteRemote('git@host:owner/repo.git', '/srv'), 'git@host:owner/repo.git');
    assert.equal(absoluteRemote('-upload-pack=x', '/srv'), '-upload-pack=x');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('the same remote set again spelled otherwise keeps what was synced (a delete made elsewhere stays deleted); another remote starts over; git is given the URL as typed', { timeout: 120_000 }, async () => {
  await withMachines(async ({ a, b, remote, root }) => {
    const gone = await a.assets.writes.create(seed('bye\n', { name: 'Gone' }), TEST_WRITE);
    await a.assets.writes.create(seed('kept\n', { name: 'Kept' }), TEST_WRITE);
    await a.sync.sync();
    await b.sync.sync();
    b.assets.writes.delete(gone.id, TEST_WRITE);
    await b.sync.sync();
    const synced = a.sync.state.synced();
    for (const spelled of [`${remote}/`, pathToFileURL(remote).href]) {
      a.sync.configure(spelled);
      assert.equal(a.sync.state.synced(), synced, spelled);
      assert.equal(a.sync.settings()?.remote, spelled);
    }
    const summary = await a.sync.sync();
    assert.equal(summary.deletedHere, 1);
    assert.equal(a.assets.exists(gone.id), false, 'the delete made on B is not undone');
    a.sync.configure(bareRepository(root, 'another.git'));
    assert.equal(a.sync.state.synced(), undefined);
  });
});
