/**
 * POST /satchel/backup through a real host: the host copies its store into its own backups folder
 * and names the copy (no path travels either way); a second request while one runs is refused; a
 * client that disconnects cancels the copy and leaves no partial file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, waitFor } from '../support/helpers.ts';
import { codeSeed } from '../support/assetFixtures.ts';
import { SatchelClient } from '../../src/client/satchelClient.ts';
import { ClientError } from '../../src/client/errors.ts';
import { backupsDir } from '../../src/core/backups/backupFiles.ts';
import { TEST_AUTHOR } from '../support/authors.ts';

test('the host backs its store up into its backups folder and answers the copy by name', async () => {
  const h = await startTestServer();
  const client = new SatchelClient(h.url);
  try {
    for (let i = 0; i < 3; i++) await h.core.assets.writes.create(codeSeed(`export const served${i} = ${i};`), { author: TEST_AUTHOR });
    const progress: number[] = [];
    const backup = await client.backups.create({ onProgress: (p) => progress.push(p.bytesDone) });
    assert.equal(backup.reason, 'manual');
    assert.equal(backup.summary.assets, 3);
    assert.equal('path' in backup, false, 'the reply names the copy; where the data directory is stays the host\'s');
    assert.ok(existsSync(join(backupsDir(h.dataDir), backup.name)));
    assert.ok(progress.length > 0);

    const [first, second] = await Promise.allSettled([client.backups.create(), client.backups.create()]);
    assert.equal(first.status, 'fulfilled');
    assert.equal(second.status, 'rejected');
    assert.ok(second.reason instanceof ClientError && second.reason.code === 'conflict', String(second.status === 'rejected' && second.reason));
  } finally {
    client.dispose();
    await h.close();
  }
});

test('a client that goes away cancels the copy; no partial file is left', async () => {
  const h = await startTestServer();
  const client = new SatchelClient(h.url);
  try {
    await h.core.assets.writes.create(codeSeed('export const cancelled = true;'), { author: TEST_AUTHOR });
    // 64 MiB of padding, so the copy takes 64 steps and the cancel arrives while it runs.
    const db = h.core.context.database.db;
    db.exec('BEGIN');
    const pad = db.prepare('INSERT INTO meta (key, value) VALUES (?, hex(randomblob(524288)))');
    for (let i = 0; i < 64; i++) pad.run(`padding-${i}`);
    db.exec('COMMIT');
    const stop = new AbortController();
    await assert.rejects(client.backups.create({ signal: stop.signal, onProgress: () => stop.abort() }));
    await waitFor(() => !existsSync(backupsDir(h.dataDir)) || readdirSync(backupsDir(h.dataDir)).every((name) => !name.includes('.partial')));
    const left = existsSync(backupsDir(h.dataDir)) ? readdirSync(backupsDir(h.dataDir)) : [];
    assert.deepEqual(left, [], 'cancelled before it finished: no copy, no partial file');
  } finally {
    client.dispose();
    await h.close();
  }
});
