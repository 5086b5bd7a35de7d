import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { Database, DATABASE_FILE } from '../../../src/core/store/database.ts';
import type { Migration } from '../../../src/core/store/migrations.ts';
import { LIGHT_WAL_BYTES, WalCheckpointer } from '../../../src/core/store/walCheckpointer.ts';
import { tempDir, waitFor } from '../../support/helpers.ts';
import { childRunning, isAlive } from '../../support/processes.ts';

const migrations: Migration[] = [{ version: 1, name: 'rows', up: (db) => db.exec('CREATE TABLE rows (id INTEGER PRIMARY KEY, body TEXT NOT NULL)') }];
const body = 'x'.repeat(3000);

const rowCount = (database: Database): number => (database.db.prepare('SELECT COUNT(*) AS n FROM rows').get() as { n: number }).n;
const walOf = (dataDir: string): string => join(dataDir, `${DATABASE_FILE}-wal`);

/** A store with 50 rows checkpointed by its running checkpoint process and 50 more in the WAL. */
async function halfCheckpointed(): Promise<{ dataDir: string; database: Database }> {
  const dataDir = tempDir();
  const database = Database.open({ dataDir, migrations });
  writeRows(database, 50);
  assert.ok(await database.checkpointed(), 'the process is running');
  writeRows(database, 50);
  return { dataDir, database };
}

function writeRows(database: Database, count: number): void {
  const insert = database.prepare('INSERT INTO rows (body) VALUES (?)');
  for (let i = 0; i < count; i++) database.transaction(() => insert.run(body));
}

test('commits never checkpoint on the event loop: the WAL passes SQLite’s 1,000-page mark until the checkpoint process copies it', async () => {
  const dataDir = tempDir();
  const database = Database.open({ dataDir, migrations });
  try {
    assert.equal(Object.values(database.db.prepare('PRAGMA wal_autocheckpoint').get()!)[0], 0);
    // About 1,500 pages: SQLite's own checkpoint would have run inside one of these commits.
    writeRows(database, 1500);
    const wal = statSync(walOf(dataDir)).size;
    assert.ok(wal > 1000 * 4096, `WAL of ${wal} bytes`);
    const result = await database.checkpointed();
    assert.ok(result, 'the process checkpointed');
    assert.ok(result.log >= 1000, `WAL pages: ${result.log}`);
    assert.equal(result.checkpointed, result.log, 'every page copied (nothing else reads the WAL)');
    // Later writes start the WAL over instead of growing it.
    writeRows(database, 10);
    assert.ok(statSync(walOf(dataDir)).size <= wal);
    assert.equal(rowCount(database), 1510);
  } finally {
    database.close();
  }
});

test('stopping checkpoints waits for the process, so the store’s connection is the last one and removes the WAL', async () => {
  const { dataDir, database } = await halfCheckpointed();
  await database.stopCheckpoints();
  database.close();
  assert.equal(existsSync(walOf(dataDir)), false);
  const reopened = Database.open({ dataDir, migrations });
  try {
    assert.equal(rowCount(reopened), 100);
  } finally {
    reopened.close();
  }
});

test('a checkpoint is scheduled by writes alone, and a closed store answers without one', async () => {
  const dataDir = tempDir();
  const database = Database.open({ dataDir, migrations });
  // Past the WAL size below which commits start no process (LIGHT_WAL_BYTES: 16 MiB): 600 rows of 30 KB.
  const insert = database.prepare('INSERT INTO rows (body) VALUES (?)');
  for (let i = 0; i < 600; i++) database.transaction(() => insert.run(body.repeat(10)));
  const walPath = walOf(dataDir);
  const wal = statSync(walPath).size;
  assert.ok(wal > LIGHT_WAL_BYTES, `WAL of ${wal} bytes`);
  // No explicit request: the commits scheduled one within a quarter second (a generous wait here).
  await new Promise((resolve) => setTimeout(resolve, 2000));
  // Checkpointed, the WAL starts over; otherwise these rows would be appended past its end.
  writeRows(database, 10);
  assert.ok(statSync(walPath).size <= wal, `WAL grew from ${wal} to ${statSync(walPath).size}`);
  database.close();
  assert.equal(await database.checkpointed(), undefined);
});

test('an idle process is let go (it ends), and the next write starts another', async () => {
  const dataDir = tempDir();
  const database = Database.open({ dataDir, migrations });
  const fellBack: string[] = [];
  const checkpointer = new WalCheckpointer(join(dataDir, DATABASE_FILE), (reason) => fellBack.push(reason), { idleMs: 50 });
  try {
    writeRows(database, 20);
    assert.ok(await checkpointer.next());
    assert.equal(checkpointer.active, true);
    const first = checkpointer.pid!;
    assert.ok(isAlive(first));
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(checkpointer.active, false, 'retired after 50 ms without work');
    await waitFor(() => !isAlive(first), 5_000);
    writeRows(database, 20);
    const again = await checkpointer.next();
    assert.ok(again && again.log > 0 && again.checkpointed === again.log);
    assert.deepEqual(fellBack, []);
  } finally {
    await checkpointer.stop();
    database.close();
  }
  assert.equal(existsSync(walOf(dataDir)), false);
});

test('a store closed without waiting, or a host that dies: the process closes its connection as its stdin ends, and that close empties the WAL', async () => {
  const { dataDir, database } = await halfCheckpointed();
  database.close();
  // The process was the last connection: its close copied the 50 rows in and removed the WAL.
  await waitFor(() => !existsSync(walOf(dataDir)), 10_000);
  // The process may still hold its lock for a moment after removing the WAL (its close ends after): wait for it.
  const plain = new DatabaseSync(join(dataDir, DATABASE_FILE), { readOnly: true, timeout: 5_000 });
  try {
    assert.equal((plain.prepare('SELECT COUNT(*) AS n FROM rows').get() as { n: number }).n, 100);
  } finally {
    plain.close();
  }
});

test('a WAL the checkpoint process could not copy whole while writes went on starts over at the next write once past the mark', async () => {
  const dataDir = tempDir();
  // 256 pages (1 MiB), past which the next write checkpoints on the store's connection first (walRestart.ts).
  const database = Database.open({ dataDir, migrations, walRestartPages: 256 });
  const reader = new DatabaseSync(join(dataDir, DATABASE_FILE));
  try {
    writeRows(database, 300);
    // A read in progress while more is written: the process's checkpoint copies only up to what it reads,
    // as a checkpoint that runs while the next writes go on ends short of the WAL's end.
    reader.exec('BEGIN');
    reader.prepare('SELECT COUNT(*) AS n FROM rows').get();
    writeRows(database, 300);
    const result = await database.checkpointed();
    assert.ok(result && result.log > result.checkpointed && result.log >= 256, JSON.stringify(result));
    reader.exec('COMMIT');
    writeRows(database, 1);
    // The write checkpointed the rest first and began on a fully copied WAL, so it started the WAL over:
    // it holds that one write's frames, not the 600 before it. Without the restart it would hold 600+.
    const frames = (reader.prepare('PRAGMA wal_checkpoint(PASSIVE)').get() as { log: number }).log;
    assert.ok(frames < 20, `${frames} frames in the WAL after the write`);
    assert.equal(rowCount(database), 601);
  } finally {
    reader.close();
    database.close();
  }
});

test('light writes start no process: the WAL keeps them until it passes the light size, then the checkpoint process copies it', async () => {
  const dataDir = tempDir();
  const path = join(dataDir, DATABASE_FILE);
  const writer = new DatabaseSync(path);
  writer.exec('PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0; PRAGMA synchronous = OFF; CREATE TABLE rows (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  const fellBack: string[] = [];
  const light = new WalCheckpointer(path, (reason) => fellBack.push(reason));
  const eager = new WalCheckpointer(path, (reason) => fellBack.push(reason), { lightBytes: 0 });
  const small = new WalCheckpointer(path, (reason) => fellBack.push(reason), { lightBytes: 1024 * 1024 });
  const insert = writer.prepare('INSERT INTO rows (body) VALUES (?)');
  const write = (count: number, checkpointer: WalCheckpointer): void => {
    for (let i = 0; i < count; i++) {
      writer.exec('BEGIN IMMEDIATE');
      insert.run(body);
      writer.exec('COMMIT');
      checkpointer.written();
    }
  };
  const afterInterval = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 800));
  try {
    write(100, light);
    await afterInterval();
    assert.equal(light.active, false, '100 light commits started no process');
    const kept = statSync(`${path}-wal`).size;
    assert.ok(kept > 100 * 4096 && kept <= LIGHT_WAL_BYTES, `the WAL holds them: ${kept} bytes`);
    write(1, eager);
    await afterInterval();
    assert.equal(eager.active, true, 'with lightBytes 0 one commit starts the process (as before)');
    eager.dispose();
    // Past its light size (1 MiB here), the next commit schedules a checkpoint in the process.
    write(1, small);
    assert.ok(statSync(`${path}-wal`).size > 1024 * 1024);
    await afterInterval();
    assert.equal(small.active, true, 'a WAL past the light size started the process');
    const result = await small.next();
    assert.ok(result && result.checkpointed === result.log, JSON.stringify(result));
    assert.deepEqual(fellBack, []);
  } finally {
    await Promise.all([light.stop(), eager.stop(), small.stop()]);
    writer.close();
  }
});

test('a checkpoint process that cannot open the store hands checkpoints back to SQLite, saying why', async () => {
  const dataDir = tempDir();
  const fellBack: string[] = [];
  const checkpointer = new WalCheckpointer(join(dataDir, 'missing', DATABASE_FILE), (reason) => fellBack.push(reason));
  try {
    assert.equal(await checkpointer.next(), undefined);
    assert.equal(fellBack.length, 1);
    assert.match(fellBack[0]!, /the checkpoint process exited with code 1: the store is gone: .*missing/);
    assert.equal(checkpointer.active, false);
  } finally {
    await checkpointer.stop();
  }
});

test('a checkpoint process started for a store that is gone (its host killed, its folder emptied) creates no empty store there', async () => {
  const dataDir = tempDir();
  const file = join(dataDir, DATABASE_FILE);
  const fellBack: string[] = [];
  const checkpointer = new WalCheckpointer(file, (reason) => fellBack.push(reason));
  try {
    assert.equal(await checkpointer.next(), undefined);
    assert.match(fellBack[0] ?? '', /the store is gone/);
    assert.equal(existsSync(file), false, 'no file was created');
  } finally {
    await checkpointer.stop();
  }
});

test('a checkpoint process that dies hands checkpoints back to SQLite inside commits, and the store says why', { skip: process.platform !== 'linux' && 'reads /proc' }, async () => {
  const dataDir = tempDir();
  const told: string[] = [];
  const database = Database.open({ dataDir, migrations, checkpointsFellBack: (reason) => told.push(reason) });
  try {
    writeRows(database, 20);
    assert.ok(await database.checkpointed());
    const pid = childRunning(process.pid, /wal_checkpoint\(PASSIVE\)/);
    assert.ok(pid !== undefined, 'the checkpoint process runs');
    process.kill(pid, 'SIGKILL');
    await waitFor(() => told.length > 0, 10_000);
    assert.deepEqual(told, ['the checkpoint process was killed by SIGKILL']);
    assert.equal(Object.values(database.db.prepare('PRAGMA wal_autocheckpoint').get()!)[0], 1000, "SQLite's own checkpoints again");
    writeRows(database, 10);
    assert.equal(rowCount(database), 30);
  } finally {
    await database.stopCheckpoints();
    database.close();
  }
});
