/**
 * `satchel backup` and `satchel restore`: a backup with no host copies the store under the host
 * lock, with a host it goes through the host (POST /satchel/backup); restore puts one back and says
 * what it restored, lists the copies without a file, and refuses while a host serves the directory
 * or when the file is not a store it may restore.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Satchel } from '../../src/core/satchel.ts';
import { tryStartHost } from '../../src/hosting/host.ts';
import { silentLogger } from '../../src/core/context.ts';
import { listBackups } from '../../src/core/backups/backupFiles.ts';
import { codeSeed } from '../support/assetFixtures.ts';
import { tempDir } from '../support/helpers.ts';
import { runCli } from '../support/cli.ts';
import { TEST_AUTHOR } from '../support/authors.ts';



/** A data directory whose store holds `count` assets (and no host). */
async function dataDirWith(count: number): Promise<string> {
  const dataDir = tempDir('satchel-cli-backup-');
  const core = Satchel.open({ dataDir, importWorker: false });
  for (let i = 0; i < count; i++) await core.assets.writes.create(codeSeed(`export const cli${i} = ${i};`, `cli ${i}`), { author: TEST_AUTHOR });
  await core.close();
  return dataDir;
}

function assetCount(path: string): number {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return Number((db.prepare('SELECT COUNT(*) AS n FROM assets').get() as { n: number }).n);
  } finally {
    db.close();
  }
}

test('with no host: backup copies the store directly, to FILE and to the backups folder; restore puts it back', { timeout: 90_000 }, async () => {
  const dataDir = await dataDirWith(4);
  try {
    const file = join(dataDir, 'out.db');
    const backup = await runCli(['backup', '--data-dir', dataDir, file]);
    assert.equal(backup.code, 0, backup.stderr);
    assert.match(backup.stderr, /copying its store directly/);
    assert.match(backup.stdout, /Backed up 4 assets and 0 conversations .* to .*out\.db/);
    assert.equal(assetCount(file), 4);
    if (process.platform !== 'win32') assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(listBackups(dataDir)[0]?.reason, 'manual');

    const again = await runCli(['backup', '--data-dir', dataDir, file]);
    assert.notEqual(again.code, 0, 'an existing FILE is never overwritten');
    assert.match(again.stderr, /already exists/);

    const core = Satchel.open({ dataDir, importWorker: false });
    await core.assets.writes.create(codeSeed('export const afterBackup = 1;'), { author: TEST_AUTHOR });
    await core.close();

    const listed = await runCli(['restore', '--data-dir', dataDir]);
    assert.equal(listed.code, 0);
    assert.match(listed.stdout, /Backups in .*backups, newest first:\n {2}manual-\S+\.db {2}[\d.]+ MB {2}\(manual, /);

    const restored = await runCli(['restore', '--data-dir', dataDir, file]);
    assert.equal(restored.code, 0, restored.stderr);
    assert.match(restored.stdout, /Restored .*out\.db \(taken .* UTC\): 4 assets and 0 conversations/);
    assert.match(restored.stdout, /The store it replaced is kept as .*before-restore-\S+\.db/);
    assert.equal(assetCount(join(dataDir, 'satchel.db')), 4);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('with a host serving the directory: backup goes through the host; restore is refused', { timeout: 90_000 }, async () => {
  const dataDir = await dataDirWith(3);
  const host = await tryStartHost({ dataDir, logger: silentLogger, port: 0 });
  assert.ok(host);
  try {
    await host.core.assets.writes.create(codeSeed('export const whileServed = 1;'), { author: TEST_AUTHOR });
    const file = join(dataDir, 'served.db');
    const backup = await runCli(['backup', '--data-dir', dataDir, file]);
    assert.equal(backup.code, 0, backup.stderr);
    assert.match(backup.stderr, /through the Satchel host/);
    assert.match(backup.stdout, /Backed up 4 assets/);
    assert.equal(assetCount(file), 4, 'the write the host acknowledged is in the copy');

    const restore = await runCli(['restore', '--data-dir', dataDir, file]);
    assert.equal(restore.code, 1);
    assert.match(restore.stderr, new RegExp(`A Satchel host serves .* on port ${host.server.port}; nothing was restored`));
    assert.equal(host.core.assets.identifiers().length, 4, 'the served store is untouched');
  } finally {
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('restore refuses a file that is not a Satchel store and changes nothing', { timeout: 60_000 }, async () => {
  const dataDir = await dataDirWith(2);
  try {
    const bad = join(dataDir, 'notes.db');
    writeFileSync(bad, 'not a database '.repeat(100));
    const result = await runCli(['restore', '--data-dir', dataDir, bad]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /not a Satchel store/);
    assert.equal(assetCount(join(dataDir, 'satchel.db')), 2);
    assert.equal(existsSync(join(dataDir, 'satchel.db.restoring')), false);
    assert.deepEqual(listBackups(dataDir), []);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
