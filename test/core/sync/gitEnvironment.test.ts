/** The user's git setup cannot break sync: a SHA-256 default, global hooks, signing settings; a remote's own refusal is said plainly. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { library, remoteFiles, withMachines } from './syncSupport.ts';
import { seed } from './vaultSupport.ts';
import { TEST_WRITE } from '../../support/authors.ts';

const SLOW = { timeout: 120_000 };

/** Runs `fn` with these variables in the environment the sync's git inherits, as they were after. */
async function withEnvironment(values: Record<string, string>, fn: () => Promise<void>): Promise<void> {
  const before = Object.fromEntries(Object.keys(values).map((key) => [key, process.env[key]]));
  Object.assign(process.env, values);
  try {
    await fn();
  } finally {
    for (const [key, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

function hook(dir: string, name: string, body: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), `#!/bin/sh\n${body}\n`);
  chmodSync(join(dir, name), 0o755);
}

test('GIT_DEFAULT_HASH=sha256 in the environment: the private repository is SHA-1 all the same and sync works', SLOW, async () => {
  await withMachines(async ({ a, b, dirs }) => {
    await a.assets.writes.create(seed('one\n', { name: 'One' }), TEST_WRITE);
    await withEnvironment({ GIT_DEFAULT_HASH: 'sha256' }, async () => {
      assert.equal((await a.sync.sync()).sent, 1);
      assert.equal((await b.sync.sync()).received, 1);
    });
    const format = execFileSync('git', ['--git-dir', join(dirs.a, 'sync', 'repo.git'), 'rev-parse', '--show-object-format'], { encoding: 'utf8' }).trim();
    assert.equal(format, 'sha1');
    assert.deepEqual(library(a), library(b));
  });
});

test('a global core.hooksPath whose pre-push and reference-transaction hooks refuse, commit.gpgsign and push.gpgSign with no working gpg: sync works', SLOW, async () => {
  await withMachines(async ({ a, b, root, remote }) => {
    const hooks = join(root, 'global-hooks');
    hook(hooks, 'pre-push', 'echo "pre-push: refused" >&2; exit 1');
    // The global hooks run for the local remote's receive-pack too (its own business): this one refuses in the private repository only.
    hook(hooks, 'reference-transaction', 'case "$(pwd)" in */sync/repo.git*) echo "reference-transaction: refused" >&2; exit 1;; esac');
    const config = join(root, 'gitconfig');
    writeFileSync(config, `[core]\n\thooksPath = ${hooks}\n[commit]\n\tgpgsign = true\n[push]\n\tgpgSign = true\n[gpg]\n\tprogram = /bin/false\n`);
    await a.assets.writes.create(seed('one\n', { name: 'One' }), TEST_WRITE);
    await withEnvironment({ GIT_CONFIG_GLOBAL: config }, async () => {
      assert.equal((await a.sync.sync()).sent, 1);
      assert.equal((await b.sync.sync()).received, 1);
    });
    assert.ok(remoteFiles(remote).some((file) => file.endsWith('snippet.md')));
  });
});

test('a remote whose rules refuse the push (signed commits required): a plain message with the remote\'s words, nothing changed here', SLOW, async () => {
  await withMachines(async ({ a, remote }) => {
    hook(join(remote, 'hooks'), 'pre-receive', 'echo "GH006: Protected branch update failed for refs/heads/main. Commits must have verified signatures." >&2; exit 1');
    await a.assets.writes.create(seed('one\n', { name: 'One' }), TEST_WRITE);
    await assert.rejects(a.sync.sync(), { name: 'PushRefusedError', message: /remote refused the sync's push: .*Commits must have verified signatures.*unsigned/ });
    assert.equal(a.sync.status().changed, 1);
    assert.deepEqual(remoteFiles(remote), []);
  });
});
