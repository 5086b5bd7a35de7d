/**
 * `satchel sync`: the first call with --remote sets it; with no host the command syncs the store
 * itself, with a host serving the directory the sync is the host's. Without git on PATH it says so
 * and changes nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Satchel } from '../../src/core/satchel.ts';
import { tryStartHost } from '../../src/hosting/host.ts';
import { silentLogger } from '../../src/core/context.ts';
import { tempDir } from '../support/helpers.ts';
import { CLI_ARGS, runCli } from '../support/cli.ts';
import { TEST_WRITE } from '../support/authors.ts';
import { bareRepository, fakeGit, library } from '../core/sync/syncSupport.ts';
import { seed } from '../core/sync/vaultSupport.ts';
import { existsSync, mkdirSync } from 'node:fs';

test('with no host, then through a host: snippets made on A reach B, and --status tells the state', { timeout: 120_000 }, async () => {
  const root = tempDir('satchel-cli-sync-');
  const remote = bareRepository(root);
  const [a, b] = [join(root, 'a'), join(root, 'b')];
  try {
    const core = Satchel.open({ dataDir: a, importWorker: false });
    await core.assets.writes.create(seed('echo one\n', { name: 'One', ext: 'sh' }), TEST_WRITE);
    await core.close();
    const first = await runCli(['sync', '--data-dir', a, '--remote', remote]);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /Synced with .*remote\.git \(main\): sent 1, received 0/);
    const status = await runCli(['sync', '--status', '--data-dir', a]);
    assert.match(status.stdout, /Remote: .*remote\.git \(main\)\nChanged here since the last sync: 0/);

    const host = await tryStartHost({ dataDir: b, logger: silentLogger, port: 0 });
    assert.ok(host);
    try {
      const through = await runCli(['sync', '--data-dir', b, '--remote', remote]);
      assert.equal(through.code, 0, through.stderr);
      assert.match(through.stderr, /through the Satchel host/);
      assert.match(through.stdout, /received 1/);
      assert.deepEqual([...library(host.core).values()].map((record) => record.name), ['One']);
    } finally {
      await host.close();
    }
    const unset = await runCli(['sync', '--data-dir', join(root, 'c')]);
    assert.equal(unset.code, 1);
    assert.match(unset.stderr, /No sync remote is set/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('--max-delete-percent: a percentage from 0 to 100, anything else refused before the sync starts', { timeout: 60_000 }, async () => {
  const root = tempDir('satchel-cli-percent-');
  try {
    for (const value of ['101', '-5', 'half', '']) {
      const refused = await runCli(['sync', '--data-dir', join(root, 'data'), '--remote', join(root, 'remote.git'), `--max-delete-percent=${value}`]);
      assert.equal(refused.code, 2, value);
      assert.match(refused.stderr, /--max-delete-percent takes a percentage from 0 to 100/);
    }
    const taken = await runCli(['sync', '--data-dir', join(root, 'data'), '--remote', bareRepository(root, 'ok.git'), '--max-delete-percent', '10']);
    assert.equal(taken.code, 0, taken.stderr);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('git missing from PATH: a clear message, exit 1, nothing changed', { timeout: 60_000 }, async () => {
  const root = tempDir('satchel-cli-nogit-');
  try {
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [...CLI_ARGS, 'sync', '--data-dir', join(root, 'data'), '--remote', join(root, 'remote.git')], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { PATH: join(root, 'empty-bin'), HOME: root },
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.once('error', reject);
      child.once('exit', (code) => resolve({ code, stderr }));
    });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /no git executable was found on PATH\. Install Git .*nothing was changed/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('an old git on PATH: exit 1 naming the git found and the one needed; nothing changed', { timeout: 60_000 }, async () => {
  const root = tempDir('satchel-cli-oldgit-');
  try {
    const bin = join(root, 'bin');
    mkdirSync(bin);
    fakeGit(bin, '2.17.1');
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [...CLI_ARGS, 'sync', '--data-dir', join(root, 'data'), '--remote', join(root, 'remote.git')], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { PATH: bin, HOME: root },
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.once('error', reject);
      child.once('exit', (code) => resolve({ code, stderr }));
    });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /Sync needs git 2\.29\.0 or later, and the git on PATH is 2\.17\.1\. Update Git .*nothing was changed/);
    assert.equal(existsSync(join(root, 'data', 'sync', 'repo.git')), false);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
