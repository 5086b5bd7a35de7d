import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, readFileSync, statSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { Database, DATABASE_FILE } from '../../../src/core/store/database.ts';
import type { Migration } from '../../../src/core/store/migrations.ts';
import { Records } from '../../../src/core/store/records.ts';
import { Links } from '../../../src/core/store/links.ts';
import { HostLock, takeFileLock } from '../../../src/core/store/hostLock.ts';
import { baseMigrations } from '../../../src/core/store/baseSchema.ts';
import { StoreUnusableError } from '../../../src/core/errors.ts';
import { tempDir } from '../../support/helpers.ts';

test('migrations run once, in order, and record the schema version', () => {
  const dataDir = tempDir();
  const applied: number[] = [];
  const migrations: Migration[] = [
    { version: 2, name: 'two', up: (db) => { applied.push(2); db.exec('CREATE TABLE b (x)'); } },
    { version: 1, name: 'one', up: (db) => { applied.push(1); db.exec('CREATE TABLE a (x)'); } },
  ];
  const first = Database.open({ dataDir, migrations });
  assert.equal(first.schemaVersion, 2);
  first.close();
  const second = Database.open({ dataDir, migrations });
  assert.deepEqual(applied, [1, 2]);
  second.close();
});

test('a database from a newer Satchel is refused and left byte-for-byte untouched', () => {
  const dataDir = tempDir();
  const newer: Migration[] = [...baseMigrations, { version: 9999, name: 'future', up: () => {} }];
  Database.open({ dataDir, migrations: newer }).close();
  const path = join(dataDir, DATABASE_FILE);
  const before = readFileSync(path);
  assert.throws(() => Database.open({ dataDir, migrations: baseMigrations }), (error: unknown) => {
    assert.ok(error instanceof StoreUnusableError);
    assert.match(error.message, /newer version of Satchel/);
    return true;
  });
  assert.deepEqual(readFileSync(path), before);
});

test('a corrupt database file is refused with a clear message and not overwritten', () => {
  const dataDir = tempDir();
  const path = join(dataDir, DATABASE_FILE);
  const garbage = Buffer.from('this is not a sqlite database '.repeat(200));
  writeFileSync(path, garbage);
  assert.throws(() => Database.open({ dataDir, migrations: baseMigrations }), (error: unknown) => {
    assert.ok(error instanceof StoreUnusableError);
    assert.match(error.message, /damaged|not a Satchel database|integrity/);
    return true;
  });
  assert.deepEqual(readFileSync(path), garbage);
  assert.equal(statSync(path).size, garbage.length);
});

test('a failed transaction rolls back and announces nothing', () => {
  const database = Database.open({ dataDir: tempDir(), migrations: baseMigrations });
  const records = new Records(database);
  const announced: string[] = [];
  assert.throws(() =>
    database.transaction(() => {
      records.put('tag', 't1', { text: 'a' });
      database.onCommit(() => announced.push('t1'));
      throw new Error('boom');
    }),
  );
  assert.equal(records.get('tag', 't1'), undefined);
  assert.equal(announced.length, 0);
  database.transaction(() => {
    records.put('tag', 't2', { text: 'b' });
    database.onCommit(() => announced.push('t2'));
    assert.equal(announced.length, 0, 'not before commit');
  });
  assert.deepEqual(announced, ['t2']);
  database.close();
});

test('links are symmetric, idempotent, and removed with their record', () => {
  const database = Database.open({ dataDir: tempDir(), migrations: baseMigrations });
  const links = new Links(database);
  const asset = { kind: 'asset', id: 'a1' } as const;
  const tag = { kind: 'tag', id: 't1' } as const;
  assert.equal(links.link(asset, tag), true);
  assert.equal(links.link(tag, asset), false, 'repeating a link is harmless');
  assert.deepEqual(links.partners(asset, 'tag'), ['t1']);
  assert.deepEqual(links.partners(tag, 'asset'), ['a1']);
  links.link(asset, { kind: 'website', id: 'w1' });
  assert.deepEqual(links.removeAll(asset).map((end) => end.id).sort(), ['t1', 'w1']);
  assert.deepEqual(links.partners(tag, 'asset'), []);
  assert.deepEqual(links.partners({ kind: 'website', id: 'w1' }, 'asset'), []);
  database.close();
});

test('only one holder of the host lock at a time; released on dispose', () => {
  const dataDir = tempDir();
  const first = HostLock.tryAcquire(dataDir);
  assert.ok(first);
  assert.equal(HostLock.tryAcquire(dataDir), undefined);
  first.dispose();
  const second = HostLock.tryAcquire(dataDir);
  assert.ok(second);
  second.dispose();
});

test('taking the host lock waits for no disk sync (the lock is the file lock, not the row)', () => {
  const dataDir = tempDir();
  const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
  const db = new DatabaseSync(join(dataDir, 'probe.lock'), { timeout: 0 });
  takeFileLock(db);
  assert.deepEqual({ ...db.prepare('PRAGMA synchronous').get() }, { synchronous: 0 });
  assert.ok(db.isTransaction, 'the exclusive transaction that holds the file');
  db.close();
  const lock = HostLock.tryAcquire(dataDir);
  assert.ok(lock, 'still taken');
  assert.equal(HostLock.tryAcquire(dataDir), undefined, 'and still exclusive');
  lock.dispose();
});

test('large stores get the structural check on open: a truncated file is still refused and untouched', () => {
  const dataDir = tempDir();
  const database = Database.open({ dataDir, migrations: baseMigrations });
  const records = new Records(database);
  database.transaction(() => {
    for (let i = 0; i < 300; i++) records.put('tag', `t${i}`, { text: 'x'.repeat(400) });
  });
  database.close();
  Database.open({ dataDir, migrations: baseMigrations, fullCheckMaxBytes: 0 }).close();
  const path = join(dataDir, DATABASE_FILE);
  truncateSync(path, Math.floor(statSync(path).size / 2));
  const before = readFileSync(path);
  assert.throws(() => Database.open({ dataDir, migrations: baseMigrations, fullCheckMaxBytes: 0 }), StoreUnusableError);
  assert.deepEqual(readFileSync(path), before);
});

test('grouped writes share one commit; a failing one undoes only itself and announces nothing', async () => {
  const database = Database.open({ dataDir: tempDir(), migrations: baseMigrations });
  const records = new Records(database);
  const announced: string[] = [];
  const write = (id: string, fail = false) =>
    database.groupTransaction(() => {
      records.put('tag', id, { text: id });
      database.onCommit(() => announced.push(id));
      if (fail) throw new Error(`boom ${id}`);
      return id;
    });
  const results = await Promise.allSettled([write('a'), write('b', true), write('c')]);
  assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'rejected', 'fulfilled']);
  assert.deepEqual(announced.sort(), ['a', 'c']);
  assert.ok(records.get('tag', 'a') && records.get('tag', 'c'));
  assert.equal(records.get('tag', 'b'), undefined, 'the failed write left nothing');
  database.close();
});

test('grouped writes wait for another connection\'s write lock between turns of the event loop, not in SQLite\'s busy handler', async () => {
  const dataDir = tempDir();
  const database = Database.open({ dataDir, migrations: baseMigrations });
  // An import process's connection in the middle of a batch.
  const other = Database.openShared(join(dataDir, DATABASE_FILE), database.schemaVersion);
  const expected = database.expectWriter();
  other.db.exec('BEGIN IMMEDIATE');
  new Records(other).put('tag', 'theirs', { text: 'theirs' });
  const records = new Records(database);
  let ticks = 0;
  const ticker = setInterval(() => ticks++, 5);
  const started = performance.now();
  const written = database.groupTransaction(() => records.put('tag', 'ours', { text: 'ours' }));
  await new Promise((resolve) => setTimeout(resolve, 300));
  const ticksWhileHeld = ticks;
  other.db.exec('COMMIT');
  await written;
  clearInterval(ticker);
  assert.ok(ticksWhileHeld >= 10, `the event loop ran ${ticksWhileHeld} times in the 300 ms the lock was held`);
  assert.ok(performance.now() - started >= 300, 'the write waited for the lock');
  assert.ok(records.get('tag', 'ours') && records.get('tag', 'theirs'));
  expected.dispose();
  other.close();
  database.close();
});

test('records are found by their natural key, and an upgraded store gets keys for its tags and websites', () => {
  const dataDir = tempDir();
  const old = Database.open({ dataDir, migrations: [baseMigrations[0]!] });
  const insert = old.db.prepare("INSERT INTO records (kind, id, created, updated, data) VALUES (?, ?, '', '', ?)");
  insert.run('tag', 't1', JSON.stringify({ id: 't1', text: 'Ünïcode Tag' }));
  insert.run('website', 'w1', JSON.stringify({ id: 'w1', url: 'https://example.com/A' }));
  insert.run('conversation', 'c1', JSON.stringify({ id: 'c1', text: 'not a label' }));
  old.close();
  const database = Database.open({ dataDir, migrations: baseMigrations });
  try {
    const records = new Records(database);
    assert.equal(records.find('tag', 'ünïcode tag')?.id, 't1', 'tag keys fold case beyond ASCII');
    assert.equal(records.find('website', 'https://example.com/A')?.id, 'w1');
    assert.equal(records.find('website', 'https://example.com/a'), undefined, 'urls keep their case');
    assert.equal(records.find('conversation', 'not a label'), undefined);
    records.put('tag', 't2', { id: 't2', text: 'Other' }, 'other');
    assert.deepEqual(records.find('tag', 'other')?.data, { id: 't2', text: 'Other' });
  } finally {
    database.close();
  }
});

test('a grouped write is readable once committed, but answered and announced only after the WAL is flushed', async () => {
  const dataDir = tempDir();
  const database = Database.open({ dataDir, migrations: baseMigrations });
  const records = new Records(database);
  const events: string[] = [];
  const written = database.groupTransaction(() => {
    records.put('tag', 'g', { text: 'g' });
    database.onCommit(() => events.push('announced'));
    return 'g';
  });
  void written.then(() => events.push('answered'));
  // The group commits in this turn's check phase; the flush completes in a later poll phase.
  await new Promise((resolve) => setImmediate(resolve));
  assert.ok(records.get('tag', 'g'), 'committed');
  assert.deepEqual(events, [], 'nothing answered or announced before the flush');
  assert.equal(await written, 'g');
  assert.deepEqual(events, ['announced', 'answered']);
  const bookkeeping = database.unsyncedTransaction(() => (records.put('tag', 'u', { text: 'u' }), 'u'));
  assert.equal(bookkeeping, 'u');
  assert.ok(records.get('tag', 'u'), 'an unsynced write is visible at once');
  await database.settled();
  database.close();
  const reopened = Database.open({ dataDir, migrations: baseMigrations });
  assert.ok(new Records(reopened).get('tag', 'g') && new Records(reopened).get('tag', 'u'));
  reopened.close();
});

test('a migration numbered below one already applied (another area\'s series) still runs once', () => {
  const dataDir = tempDir();
  const ran: number[] = [];
  const migration = (version: number): Migration => ({ version, name: `m${version}`, up: () => void ran.push(version) });
  Database.open({ dataDir, migrations: [migration(1), migration(3), migration(103)] }).close();
  Database.open({ dataDir, migrations: [migration(1), migration(3), migration(102), migration(103)] }).close();
  Database.open({ dataDir, migrations: [migration(1), migration(3), migration(102), migration(103)] }).close();
  assert.deepEqual(ran, [1, 3, 103, 102]);
  assert.throws(() => Database.open({ dataDir, migrations: [migration(1), migration(3), migration(103)] }), /newer version of Satchel/);
});

test('records.pages reads a kind in insertion order, a page at a time, other kinds left out', () => {
  const database = Database.open({ dataDir: tempDir(), migrations: baseMigrations });
  try {
    const records = new Records(database);
    for (let i = 0; i < 5; i++) records.put('activity', `a${i}`, { n: i });
    records.put('tag', 't', { text: 'x' });
    records.delete('activity', 'a1');
    const pages = [...records.pages<{ n: number }>('activity', 2)].map((page) => page.map((record) => record.data.n));
    assert.deepEqual(pages, [[0, 2], [3, 4]]);
    assert.deepEqual([...records.pages('range', 2)], []);
  } finally {
    database.close();
  }
});

test('a process that finds the host lock held is told once that it waits, and one that takes it free is not told', async () => {
  const dataDir = tempDir('satchel-lock-wait-');
  let told = 0;
  const free = await HostLock.acquire(dataDir, undefined, 10, () => told++);
  assert.equal(told, 0, 'the lock was free');
  const waiting = HostLock.acquire(dataDir, undefined, 10, () => told++);
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(told, 1, 'told once, however many times it looked');
  free.dispose();
  const taken = await waiting;
  assert.equal(told, 1);
  taken.dispose();
});

test('a shared connection given checkpointPages checkpoints its own writes; without it, they stay in the WAL for the first connection', () => {
  /** Frames in the WAL once `write` has written about 2 MB through a shared connection opened with `pages`. */
  const framesLeft = (pages: number | undefined): number => {
    const dataDir = tempDir();
    const database = Database.open({ dataDir, migrations: baseMigrations });
    const shared = Database.openShared(join(dataDir, DATABASE_FILE), database.schemaVersion, pages === undefined ? {} : { checkpointPages: pages });
    const records = new Records(shared);
    for (let i = 0; i < 200; i++) shared.transaction(() => records.put('tag', `t${i}`, { text: 'x'.repeat(10_000) }));
    const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
    const probe = new DatabaseSync(join(dataDir, DATABASE_FILE));
    // NOOP-like: a PASSIVE checkpoint reports the frames the WAL holds (log) before copying them.
    const row = probe.prepare('PRAGMA wal_checkpoint(PASSIVE)').get() as { log: number } | undefined;
    probe.close();
    shared.close();
    database.close();
    return row?.log ?? -1;
  };
  const left = framesLeft(undefined);
  const checkpointed = framesLeft(100);
  assert.ok(left >= 500, `without checkpointPages the WAL kept ${left} frames`);
  assert.ok(checkpointed >= 0 && checkpointed < 200, `with checkpointPages 100 the WAL held ${checkpointed} frames`);
});
