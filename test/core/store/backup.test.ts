/**
 * Backups of a store in use (core/backups): a copy holds what was acknowledged, is one private
 * file, can be cancelled, falls back to VACUUM INTO when another connection keeps restarting it,
 * and is taken automatically before a migration, before an import and before a mass delete, the
 * newest few of each kind kept.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Satchel, allMigrations } from '../../../src/core/satchel.ts';
import { Database, DATABASE_FILE } from '../../../src/core/store/database.ts';
import { Backups, IMPORT_BACKUP_WINDOW_MS, isMassDelete } from '../../../src/core/backups/backups.ts';
import { backupsDir, listBackups, parseBackupName } from '../../../src/core/backups/backupFiles.ts';
import { copyLiveStore } from '../../../src/core/backups/storeCopy.ts';
import { silentLogger } from '../../../src/core/context.ts';
import { codeSeed } from '../../support/assetFixtures.ts';
import { tempDir } from '../../support/helpers.ts';
import { TEST_AUTHOR } from '../../support/authors.ts';

const posix = process.platform !== 'win32';

/** A core in a fresh data directory holding `assets` assets and one conversation. */
async function seeded(assets: number, options: { keepBackups?: number; importWorker?: boolean } = {}): Promise<Satchel> {
  const core = Satchel.open({ dataDir: tempDir('satchel-backup-'), importWorker: false, ...options });
  for (let i = 0; i < assets; i++) await core.assets.writes.create(codeSeed(`export const value${i} = ${i} * 2; // backup test`, `value ${i}`), { author: TEST_AUTHOR });
  core.conversations.create({ type: 'COPILOT', name: 'kept', messages: [{ role: 'USER', fragment: { string: { raw: 'hello' } } }] }, false);
  return core;
}

function rowsOf(path: string, sql: string): unknown[] {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return db.prepare(sql).all().map((row) => ({ ...row }));
  } finally {
    db.close();
  }
}

/** A WAL store of `rows` rows of 1 KB. */
function fill(db: DatabaseSync, rows: number): void {
  db.exec('PRAGMA journal_mode = WAL; CREATE TABLE t (x TEXT); BEGIN');
  const insert = db.prepare('INSERT INTO t VALUES (hex(randomblob(500)))');
  for (let i = 0; i < rows; i++) insert.run();
  db.exec('COMMIT');
}

async function done(core: Satchel): Promise<void> {
  await core.close();
  rmSync(core.dataDir, { recursive: true, force: true });
}

test('a backup on request is one private, self-contained file holding every asset and conversation', async () => {
  const core = await seeded(12);
  try {
    const seen: number[] = [];
    const backup = await core.backups.takeOnRequest({ onProgress: (p) => seen.push(p.bytesDone / p.bytesTotal) });
    assert.equal(backup.reason, 'manual');
    assert.equal(backup.path, join(backupsDir(core.dataDir), backup.name));
    assert.deepEqual(backup.summary.assets, 12);
    assert.deepEqual(backup.summary.conversations, 1);
    assert.equal(seen.at(-1), 1, 'progress ends at 100%');
    if (posix) assert.equal(statSync(backup.path).mode & 0o777, 0o600);
    // No WAL needed: the copy is in rollback-journal mode, and nothing was left beside it.
    assert.deepEqual(readdirSync(backupsDir(core.dataDir)), [backup.name]);
    assert.deepEqual(rowsOf(backup.path, 'PRAGMA journal_mode'), [{ journal_mode: 'delete' }]);
    const ids = (rows: unknown[]): string[] => rows.map((row) => (row as { id: string }).id).sort();
    assert.deepEqual(ids(rowsOf(backup.path, 'SELECT id FROM assets')), [...core.assets.identifiers()].sort());
    assert.deepEqual(parseBackupName(backup.name)?.reason, 'manual');
  } finally {
    await done(core);
  }
});

test('partial copies left behind are removed before a backup; one that cannot be removed (a killed host\'s copy still holding it, on Windows) does not stop it', async () => {
  const core = await seeded(3);
  try {
    const dir = backupsDir(core.dataDir);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'satchel-manual-2020-01-01T00-00-00.000Z.db.partial'), 'half a copy');
    // A directory stands for a file that cannot be removed: rmSync without `recursive` refuses it.
    mkdirSync(join(dir, 'satchel-import-2020-01-01T00-00-00.000Z.db.partial'));
    const backup = await core.backups.takeOnRequest();
    assert.equal(backup.summary.assets, 3);
    assert.deepEqual(readdirSync(dir).sort(), [backup.name, 'satchel-import-2020-01-01T00-00-00.000Z.db.partial'].sort());
  } finally {
    await done(core);
  }
});

test('a second request while a backup runs is refused, not queued', async () => {
  const core = await seeded(3);
  try {
    const first = core.backups.takeOnRequest();
    await assert.rejects(core.backups.takeOnRequest(), (error: Error & { code?: string }) => error.code === 'conflict');
    await first;
  } finally {
    await done(core);
  }
});

test('the newest N backups of each reason are kept; other reasons are left alone', async () => {
  const core = await seeded(2, { keepBackups: 2 });
  try {
    const migration = await core.backups.take('before-delete-test');
    const names: string[] = [];
    for (let i = 0; i < 4; i++) names.push((await core.backups.takeOnRequest()).name);
    const left = listBackups(core.dataDir).map((backup) => backup.name);
    assert.deepEqual(left.filter((name) => name.startsWith('manual-')).sort(), names.slice(2).sort());
    assert.ok(left.includes(migration.name));
  } finally {
    await done(core);
  }
});

test('a cancelled copy stops between steps and leaves no file', async () => {
  const dataDir = tempDir('satchel-backup-cancel-');
  const path = join(dataDir, 'source.db');
  const db = new DatabaseSync(path);
  fill(db, 2000);
  try {
    const stop = new AbortController();
    const target = join(dataDir, 'copy.db');
    let steps = 0;
    await assert.rejects(
      copyLiveStore(db, path, target, { signal: stop.signal, pagesPerStep: 5, onProgress: () => ++steps === 3 && stop.abort(new Error('stop')) }),
      /stop/,
    );
    assert.equal(steps, 3);
    assert.equal(existsSync(target), false);
  } finally {
    db.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a copy another connection keeps restarting is taken with VACUUM INTO instead, and holds that connection\'s writes', async () => {
  const dataDir = tempDir('satchel-backup-restart-');
  const path = join(dataDir, 'source.db');
  const db = new DatabaseSync(path);
  const other = new DatabaseSync(path);
  try {
    fill(db, 1000);
    const target = join(dataDir, 'copy.db');
    let writes = 0;
    let callbacks = 0;
    await copyLiveStore(db, path, target, {
      pagesPerStep: 20,
      maxStalledSteps: 5,
      // Another connection writes between the first steps: each starts the copy again, so it never
      // moves past its first 20 pages; the sixth step that copies nothing hands over to VACUUM INTO.
      onProgress: () => {
        callbacks++;
        if (writes < 6) {
          writes++;
          other.prepare("INSERT INTO t VALUES ('from the other connection')").run();
        }
      },
    });
    assert.ok(callbacks <= 9, `the copy was not finished page by page (${callbacks} steps)`);
    const copied = rowsOf(target, "SELECT COUNT(*) AS n FROM t WHERE x = 'from the other connection'") as Array<{ n: number }>;
    assert.equal(copied[0]!.n, 6, 'every write made before the copy was taken');
    assert.deepEqual(rowsOf(target, 'PRAGMA integrity_check'), [{ integrity_check: 'ok' }]);
  } finally {
    db.close();
    other.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('the VACUUM INTO copy runs in a process of its own; cancelled, it is answered at once and its file goes once that process ends', async () => {
  const dataDir = tempDir('satchel-backup-vacuum-cancel-');
  const path = join(dataDir, 'source.db');
  const db = new DatabaseSync(path);
  fill(db, 20_000);
  try {
    const stop = new AbortController();
    const target = join(dataDir, 'copy.db');
    const copying = copyLiveStore(db, path, target, { signal: stop.signal, vacuum: true });
    // Not a worker thread of this process: the copy's memory is not the host's.
    assert.ok(process.getActiveResourcesInfo().includes('ProcessWrap'), `resources while copying: ${process.getActiveResourcesInfo().join(', ')}`);
    stop.abort(new Error('stop'));
    const asked = performance.now();
    await assert.rejects(copying, /stop/);
    assert.ok(performance.now() - asked < 100, 'answered without waiting for the process');
    for (let waited = 0; existsSync(target) && waited < 5000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(existsSync(target), false);
  } finally {
    db.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('the VACUUM INTO copy of a store whose file is gone fails, and creates neither an empty store nor a copy', async () => {
  const dataDir = tempDir('satchel-backup-vacuum-gone-');
  const path = join(dataDir, 'source.db');
  const db = new DatabaseSync(':memory:');
  try {
    const target = join(dataDir, 'copy.db');
    await assert.rejects(copyLiveStore(db, path, target, { vacuum: true }), /the store is gone/);
    assert.deepEqual(readdirSync(dataDir), []);
  } finally {
    db.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('the VACUUM INTO copy (runtimes without online backup) holds the same data', async () => {
  const core = await seeded(5);
  try {
    const source = { db: core.context.database.db, path: core.context.database.path };
    const backups = new Backups({ source, dataDir: core.dataDir, keep: 3, logger: silentLogger, vacuum: true });
    const backup = await backups.takeOnRequest();
    assert.equal(backup.summary.assets, 5);
    assert.equal(backup.summary.conversations, 1);
    assert.deepEqual(rowsOf(backup.path, 'PRAGMA integrity_check'), [{ integrity_check: 'ok' }]);
  } finally {
    await done(core);
  }
});

test('before a migration of a store that holds data, a copy of it as it was is kept; never for a new or empty store', async () => {
  const core = await seeded(4);
  const dataDir = core.dataDir;
  await core.close();
  try {
    const next = [...allMigrations, { version: 999_001, name: 'a later release', up: (db: DatabaseSync) => db.exec('CREATE TABLE later (x)') }];
    Database.open({ dataDir, migrations: next }).close();
    const [backup, ...more] = listBackups(dataDir);
    assert.equal(more.length, 0);
    assert.equal(backup?.reason, 'before-migration');
    assert.equal((rowsOf(backup!.path, 'SELECT COUNT(*) AS n FROM assets') as Array<{ n: number }>)[0]!.n, 4);
    assert.deepEqual(rowsOf(backup!.path, 'SELECT version FROM schema_version WHERE version = 999001'), [], 'the copy is from before the migration');
    // Opening again migrates nothing, so takes nothing.
    Database.open({ dataDir, migrations: next }).close();
    assert.equal(listBackups(dataDir).length, 1);

    const fresh = tempDir('satchel-backup-fresh-');
    Database.open({ dataDir: fresh, migrations: allMigrations }).close();
    Database.open({ dataDir: fresh, migrations: next }).close();
    assert.deepEqual(listBackups(fresh), [], 'nothing to lose in an empty store');
    rmSync(fresh, { recursive: true, force: true });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('keep 0 turns automatic backups off (a migration goes on without one)', async () => {
  const core = await seeded(2, { keepBackups: 0 });
  const dataDir = core.dataDir;
  try {
    assert.equal(await core.backups.beforeMassDelete('test', 50, 60), undefined);
    await core.close();
    const next = [...allMigrations, { version: 999_002, name: 'later', up: () => {} }];
    Database.open({ dataDir, migrations: next, migrationBackup: { keep: 0 } }).close();
    assert.deepEqual(listBackups(dataDir), []);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('an import starts with a copy of the store before it (one for imports close together)', async () => {
  const core = await seeded(3);
  try {
    const file = (name: string, body: string) => ({ name, text: () => JSON.stringify({ [name]: { prefix: name, body } }) });
    const summary = await core.imports.import([file('first.code-snippets', 'export const imported = 1;')]);
    assert.equal(summary.imported, 1);
    const taken = listBackups(core.dataDir);
    assert.equal(taken.length, 1);
    assert.equal(taken[0]!.reason, 'before-import');
    assert.equal((rowsOf(taken[0]!.path, 'SELECT COUNT(*) AS n FROM assets') as Array<{ n: number }>)[0]!.n, 3, 'the copy is from before the import');
    await core.imports.import([file('second.code-snippets', 'export const importedToo = 2;')]);
    assert.equal(listBackups(core.dataDir).length, 1, `a second import within ${IMPORT_BACKUP_WINDOW_MS / 60_000} minutes shares the copy`);
  } finally {
    await done(core);
  }
});

test('an import into an empty store takes no copy', async () => {
  const core = Satchel.open({ dataDir: tempDir('satchel-backup-empty-'), importWorker: false });
  try {
    await core.imports.import([{ name: 'a.code-snippets', text: () => JSON.stringify({ a: { prefix: 'a', body: 'export const a = 1;' } }) }]);
    assert.deepEqual(listBackups(core.dataDir), []);
  } finally {
    await done(core);
  }
});

test('a mass delete is 10% or more of the library and more than 20 assets; before one a copy is taken', async () => {
  assert.equal(isMassDelete(21, 100), true);
  assert.equal(isMassDelete(20, 100), false, 'twenty assets are not a mass delete');
  assert.equal(isMassDelete(25, 300), false, 'under 10%');
  assert.equal(isMassDelete(30, 300), true);
  const core = await seeded(2);
  try {
    assert.equal(await core.backups.beforeMassDelete('empty-trash', 5, 100), undefined);
    const backup = await core.backups.beforeMassDelete('empty-trash', 40, 100);
    assert.equal(backup?.reason, 'before-delete-empty-trash');
    assert.equal(backup?.summary.assets, 2);
    await assert.rejects(core.backups.beforeMassDelete('Bad Name', 40, 100), /lowercase/);
  } finally {
    await done(core);
  }
});

test('closing the store stops a copy under way', async () => {
  const core = await seeded(2);
  const dataDir = core.dataDir;
  try {
    const running = core.backups.takeOnRequest().then(
      (backup) => assert.ok(existsSync(backup.path), 'finished before the close reached it'),
      (error: Error) => assert.match(error.message, /closing/),
    );
    await core.close();
    await running;
    const left = existsSync(backupsDir(dataDir)) ? readdirSync(backupsDir(dataDir)) : [];
    assert.deepEqual(left.filter((name) => name.endsWith('.partial')), []);
    assert.ok(existsSync(join(dataDir, DATABASE_FILE)));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
