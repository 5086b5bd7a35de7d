/**
 * Restoring a backup (core/backups/restore.ts): every record comes back exactly; the store it
 * replaced is kept; a damaged file, another program's database and a store from a newer Satchel are
 * refused with the current store left as it was.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, openSync, readdirSync, rmSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Satchel, allMigrations } from '../../../src/core/satchel.ts';
import { Database, DATABASE_FILE } from '../../../src/core/store/database.ts';
import { restoreStore } from '../../../src/core/backups/restore.ts';
import { listBackups } from '../../../src/core/backups/backupFiles.ts';
import { codeSeed } from '../../support/assetFixtures.ts';
import { tempDir } from '../../support/helpers.ts';
import { storeDigest } from '../../reliability/support.ts';
import { TEST_AUTHOR, TEST_WRITE } from '../../support/authors.ts';

function digestOf(path: string): string {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return storeDigest(db);
  } finally {
    db.close();
  }
}

/** A data directory whose store holds `assets` assets (tagged), a conversation with messages linked to the first, and a backup of it. */
async function storeWithBackup(assets: number): Promise<{ dataDir: string; backup: string; digest: string; ids: string[] }> {
  const dataDir = tempDir('satchel-restore-');
  const core = Satchel.open({ dataDir, importWorker: false });
  const ids: string[] = [];
  for (let i = 0; i < assets; i++) ids.push((await core.assets.writes.create(codeSeed(`export function restored${i}() { return ${i}; }`, `restored ${i}`, { tags: ['kept', `n${i}`] }), { author: TEST_AUTHOR })).id);
  core.conversations.create(
    {
      type: 'COPILOT',
      name: 'about restored 0',
      messages: [
        { role: 'USER', fragment: { string: { raw: 'What does restored0 return?' } } },
        { role: 'ASSISTANT', fragment: { string: { raw: 'Zero.' } } },
      ],
      assets: { iterable: [{ id: ids[0]! }] },
    },
    false,
  );
  await core.context.database.settled();
  const backup = await core.backups.takeOnRequest();
  await core.close();
  // The backup file itself is what it took: the live store goes on changing behind it (the
  // background secrets scan records its progress), so a digest of the store read afterwards may not be.
  return { dataDir, backup: backup.path, digest: digestOf(backup.path), ids };
}

test('a restore brings back every record exactly, and keeps the store it replaced', async () => {
  const { dataDir, backup, digest, ids } = await storeWithBackup(6);
  try {
    // Changes after the backup: one asset deleted, one added, one renamed.
    const core = Satchel.open({ dataDir, importWorker: false });
    core.assets.writes.delete(ids[1]!, TEST_WRITE);
    await core.assets.writes.create(codeSeed('export const afterTheBackup = true;'), { author: TEST_AUTHOR });
    await core.context.database.settled();
    await core.close();
    const changed = digestOf(join(dataDir, DATABASE_FILE));
    assert.notEqual(changed, digest);

    const restored = await restoreStore({ dataDir, file: backup, migrations: allMigrations, keep: 5 });
    assert.equal(restored.summary.assets, 6);
    assert.equal(restored.summary.conversations, 1);
    assert.equal(digestOf(join(dataDir, DATABASE_FILE)), digest, 'every table as it was when the backup was taken');
    assert.deepEqual(readdirSync(dataDir).filter((name) => name.startsWith(`${DATABASE_FILE}-`) || name.endsWith('.restoring')), []);

    const previous = listBackups(dataDir).find((b) => b.reason === 'before-restore');
    assert.equal(previous?.name, restored.previous);
    assert.equal(digestOf(previous!.path), changed, 'the replaced store is kept whole');

    // The restored store opens, and its records read back through core.
    const reopened = Satchel.open({ dataDir, importWorker: false });
    try {
      assert.deepEqual([...reopened.assets.identifiers()].sort(), [...ids].sort());
      assert.equal(reopened.conversations.identifiers().iterable.length, 1);
    } finally {
      await reopened.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a backup is found by its name in the backups folder; a raw copy of a live store comes with its WAL', async () => {
  const { dataDir, backup } = await storeWithBackup(2);
  const raw = tempDir('satchel-restore-raw-');
  try {
    const byName = await restoreStore({ dataDir, file: backup.split('/').at(-1)!, migrations: allMigrations, keep: 5 });
    assert.equal(byName.file, backup);
    // A copy of satchel.db taken while open, its last writes still in the WAL beside it.
    const live = new DatabaseSync(join(dataDir, DATABASE_FILE));
    live.exec('PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0');
    live.exec("INSERT INTO meta (key, value) VALUES ('only-in-the-wal', 'yes')");
    copyFileSync(join(dataDir, DATABASE_FILE), join(raw, 'copy.db'));
    copyFileSync(join(dataDir, `${DATABASE_FILE}-wal`), join(raw, 'copy.db-wal'));
    live.close();
    await restoreStore({ dataDir, file: join(raw, 'copy.db'), migrations: allMigrations, keep: 5 });
    const db = new DatabaseSync(join(dataDir, DATABASE_FILE), { readOnly: true });
    try {
      assert.deepEqual({ ...db.prepare("SELECT value FROM meta WHERE key = 'only-in-the-wal'").get() }, { value: 'yes' });
    } finally {
      db.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(raw, { recursive: true, force: true });
  }
});

/** Expects the restore of `file` to be refused with `message`, and the store and folder left as they were. */
async function refused(dataDir: string, file: string, message: RegExp): Promise<void> {
  const before = digestOf(join(dataDir, DATABASE_FILE));
  const backups = listBackups(dataDir).map((b) => b.name);
  await assert.rejects(restoreStore({ dataDir, file, migrations: allMigrations, keep: 5 }), (error: Error & { code?: string }) => {
    assert.equal(error.code, 'store_unusable');
    assert.match(error.message, message);
    return true;
  });
  assert.equal(digestOf(join(dataDir, DATABASE_FILE)), before, 'the store is untouched');
  assert.deepEqual(listBackups(dataDir).map((b) => b.name), backups, 'nothing was added to the backups folder');
  assert.equal(existsSync(join(dataDir, `${DATABASE_FILE}.restoring`)), false);
}

test('a restore refuses a damaged file, a file that is not a database, another program\'s database and a newer Satchel\'s store', async () => {
  const { dataDir, backup } = await storeWithBackup(40);
  const other = tempDir('satchel-restore-bad-');
  try {
    const garbage = join(other, 'garbage.db');
    writeFileSync(garbage, 'this is not a database at all '.repeat(200));
    await refused(dataDir, garbage, /not a Satchel store: it is not a SQLite database or is damaged/);

    // A real backup with bytes overwritten in the middle of its pages.
    const damaged = join(other, 'damaged.db');
    copyFileSync(backup, damaged);
    const fd = openSync(damaged, 'r+');
    writeSync(fd, Buffer.alloc(4096 * 3, 0x5a), 0, 4096 * 3, 4096 * 4);
    closeSync(fd);
    await refused(dataDir, damaged, /damaged|not a Satchel store/);

    const foreign = join(other, 'foreign.db');
    const db = new DatabaseSync(foreign);
    db.exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('someone else''s')");
    db.close();
    await refused(dataDir, foreign, /not a Satchel store \(it records no Satchel schema\)/);

    const newer = join(other, 'newer.db');
    copyFileSync(backup, newer);
    const future = new DatabaseSync(newer);
    future.exec("INSERT INTO schema_version (version, name, applied) VALUES (999999, 'from the future', '2030-01-01')");
    future.close();
    await refused(dataDir, newer, /newer version of Satchel \(schema 999999/);

    await assert.rejects(restoreStore({ dataDir, file: 'no-such-backup.db', migrations: allMigrations, keep: 5 }), /No backup no-such-backup\.db/);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(other, { recursive: true, force: true });
  }
});

test('a backup from an older Satchel is restored as it is (the next open upgrades it, after a copy)', async () => {
  const { dataDir } = await storeWithBackup(1);
  const old = tempDir('satchel-restore-old-');
  try {
    // A store as a release without the newest migration left it, holding one asset.
    const newest = Math.max(...allMigrations.map((m) => m.version));
    Database.open({ dataDir: old, migrations: allMigrations.filter((m) => m.version !== newest) }).close();
    const db = new DatabaseSync(join(old, DATABASE_FILE));
    db.exec("INSERT INTO assets (id, created, updated, name, language, data) VALUES ('old-asset', '2024-01-01', '2024-01-01', 'old', 'ts', '{}')");
    db.close();
    const restored = await restoreStore({ dataDir, file: join(old, DATABASE_FILE), migrations: allMigrations, keep: 5 });
    assert.ok(restored.summary.schemaVersion < newest);
    assert.equal(restored.summary.assets, 1);
    Database.open({ dataDir, migrations: allMigrations }).close();
    const before = listBackups(dataDir).find((b) => b.reason === 'before-migration');
    assert.ok(before, 'the upgrade took its copy first');
    const copy = new DatabaseSync(before.path, { readOnly: true });
    try {
      assert.equal(copy.prepare('SELECT 1 FROM schema_version WHERE version = ?').get(newest), undefined);
    } finally {
      copy.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(old, { recursive: true, force: true });
  }
});
