/**
 * Disk faults: a damaged, truncated, foreign or newer database, a read-only data directory and a
 * full disk. Each gives a clear error, never overwrites the user's file, loses no acknowledged
 * write, and a server whose write failed keeps answering.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync, openSync, writeSync, closeSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { randomBytes } from 'node:crypto';
import { Satchel } from '../../src/core/satchel.ts';
import { DATABASE_FILE } from '../../src/core/store/database.ts';
import { StoreUnusableError, InsufficientResourcesError, DomainError } from '../../src/core/errors.ts';
import { startTestServer, tempDir } from '../support/helpers.ts';
import { HostProcess, figures, jsonErrorCode, raw } from './support.ts';
import { seed } from './writes.ts';
import { makeReadOnly, mountTmpfs, snapshotFiles, unmount } from './disk.ts';

const RECORDS = 1500;

/** A data directory holding a closed store with RECORDS tag records; returns the file's path. */
async function populatedStore(dir: string = tempDir('satchel-rel-disk-')): Promise<{ dir: string; file: string }> {
  const core = Satchel.open({ dataDir: dir });
  core.context.transaction(() => {
    for (let i = 0; i < RECORDS; i++) core.context.records.put('tag', `tag-${i}`, { id: `tag-${i}`, text: `tag ${i} ${'x'.repeat(200)}` });
  });
  await core.close();
  return { dir, file: join(dir, DATABASE_FILE) };
}

/** Opening must fail with StoreUnusableError matching `pattern`, and leave every byte of the file as it was. */
function assertRefusedUntouched(dir: string, pattern: RegExp): string {
  const before = snapshotFiles(dir, [DATABASE_FILE]);
  let message = '';
  assert.throws(
    () => Satchel.open({ dataDir: dir }),
    (error: unknown) => {
      assert.ok(error instanceof StoreUnusableError, `expected StoreUnusableError, got ${String(error)}`);
      message = error.message;
      assert.match(error.message, pattern);
      assert.ok(error.message.includes(join(dir, DATABASE_FILE)), 'the message names the file');
      return true;
    },
  );
  const after = snapshotFiles(dir, [DATABASE_FILE]);
  assert.ok(after.get(DATABASE_FILE)!.equals(before.get(DATABASE_FILE)!), 'the refused database file was modified');
  return message;
}

function countTags(file: string): number {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return (db.prepare("SELECT COUNT(*) AS n FROM records WHERE kind = 'tag'").get() as { n: number }).n;
  } finally {
    db.close();
  }
}

test('a damaged database (garbage, truncated, overwritten page, bad header) is refused and left byte-identical', async () => {
  const damages: Array<{ name: string; damage: (file: string) => void }> = [
    { name: 'random bytes', damage: (file) => writeFileSync(file, randomBytes(64 * 1024)) },
    { name: 'truncated to 50%', damage: (file) => truncateSync(file, Math.floor(statSync(file).size / 2)) },
    { name: 'truncated by 1000 bytes', damage: (file) => truncateSync(file, statSync(file).size - 1000) },
    {
      name: 'a b-tree page overwritten',
      damage: (file) => {
        const fd = openSync(file, 'r+');
        writeSync(fd, randomBytes(4096), 0, 4096, 4096 * 3);
        closeSync(fd);
      },
    },
    {
      name: 'header magic overwritten',
      damage: (file) => {
        const fd = openSync(file, 'r+');
        writeSync(fd, Buffer.from('Not a database!!'), 0, 16, 0);
        closeSync(fd);
      },
    },
  ];
  for (const { name, damage } of damages) {
    const { dir, file } = await populatedStore();
    damage(file);
    const message = assertRefusedUntouched(dir, /damaged|integrity|not a Satchel database|not a database/i);
    assert.ok(message.length < 600, `${name}: the message is short enough to read`);
    rmSync(dir, { recursive: true, force: true });
  }
  figures('disk.damaged', { cases: damages.length, opened: 0, overwritten: 0 });
});

test('a host process given a damaged database exits with a clear message and changes nothing', async () => {
  const { dir, file } = await populatedStore();
  truncateSync(file, Math.floor(statSync(file).size / 3));
  const before = readFileSync(file);
  const host = new HostProcess(dir);
  const failed = await host.waitFor('failed');
  const { code } = await host.exited;
  assert.notEqual(code, 0);
  assert.match(failed.message ?? '', /damaged|integrity/);
  assert.ok(readFileSync(file).equals(before));
  rmSync(dir, { recursive: true, force: true });
});

test('a database written by a newer Satchel is refused, untouched, and its data stays readable', async () => {
  const { dir, file } = await populatedStore();
  const db = new DatabaseSync(file);
  db.prepare('INSERT INTO schema_version (version, name, applied) VALUES (?, ?, ?)').run(1_000_000, 'from the future', new Date().toISOString());
  db.close();
  assertRefusedUntouched(dir, /newer version/);
  assert.equal(countTags(file), RECORDS);
  rmSync(dir, { recursive: true, force: true });
});

test("another program's SQLite file named satchel.db is refused and left byte-identical", () => {
  // A data directory pointed at the wrong place must not be "migrated" into.
  const dir = tempDir('satchel-rel-foreign-');
  const file = join(dir, DATABASE_FILE);
  const db = new DatabaseSync(file);
  db.exec("CREATE TABLE records (note TEXT); INSERT INTO records VALUES ('the other program''s data')");
  db.close();
  assertRefusedUntouched(dir, /not a Satchel database|Cannot use/);
  rmSync(dir, { recursive: true, force: true });
});

test('a read-only data directory gives a clear error and keeps every record', async (t) => {
  const dir = tempDir('satchel-rel-ro-');
  const mounted = mountTmpfs(dir, 8 * 1024);
  t.after(() => {
    if (mounted) unmount(dir);
    rmSync(dir, { recursive: true, force: true });
  });
  const { file } = await populatedStore(dir);
  const readOnly = makeReadOnly(dir, mounted);
  try {
    const before = snapshotFiles(dir);
    assert.throws(
      () => Satchel.open({ dataDir: dir }),
      (error: unknown) => error instanceof StoreUnusableError && /read|writ/i.test(error.message) && error.message.includes(dir),
    );
    // A fresh database in a read-only directory fails the same way.
    const empty = join(dir, 'nested');
    assert.throws(() => Satchel.open({ dataDir: empty }), StoreUnusableError);
    const after = snapshotFiles(dir);
    assert.deepEqual([...after.keys()].sort(), [...before.keys()].sort());
    for (const [name, bytes] of before) assert.ok(after.get(name)!.equals(bytes), `${name} changed`);
  } finally {
    readOnly.undo();
  }
  assert.equal(countTags(file), RECORDS);
  figures('disk.read-only', { how: readOnly.how.replaceAll(' ', '-'), records: RECORDS, lost: 0 });
});

/** Writes tag records of ~`size` bytes until one fails; returns how many committed and the error. */
function writeUntilFailure(core: Satchel, prefix: string, size: number, limit = 10_000): { written: number; error: unknown } {
  for (let i = 0; i < limit; i++) {
    try {
      core.context.transaction(() => core.context.records.put('tag', `${prefix}-${i}`, { id: `${prefix}-${i}`, text: randomBytes(size / 2).toString('hex') }));
    } catch (error) {
      return { written: i, error };
    }
  }
  return { written: limit, error: undefined };
}

function assertFullDiskError(error: unknown): void {
  assert.ok(error !== undefined, 'the disk never filled up');
  // The store must say what happened in its own terms (507 insufficient_resources at the edge),
  // not surface a raw SQLite error that the server masks as an internal error.
  assert.ok(
    error instanceof InsufficientResourcesError,
    `a full disk should raise InsufficientResourcesError, got ${error instanceof DomainError ? error.code : String(error)}`,
  );
}

test('a full database (SQLITE_FULL through max_page_count) fails the write clearly, loses nothing, and the server keeps answering', async () => {
  const t = await startTestServer();
  try {
    const { core } = t;
    const db = core.context.database.db;
    const seeded = writeUntilFailure(core, 'before', 512, 200);
    assert.equal(seeded.written, 200);
    const pages = (db.prepare('PRAGMA page_count').get() as { page_count: number }).page_count;
    db.exec(`PRAGMA max_page_count = ${pages + 4}`);
    const full = writeUntilFailure(core, 'full', 4096, 500);
    // The same through the HTTP edge: an asset create on a full store is a clear 507, not a 500.
    const before = core.context.records.count('tag');
    const create = await raw(t.server.port, {
      method: 'POST',
      path: '/assets/create',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(seed(`const big = "${randomBytes(32 * 1024).toString('hex')}";`)),
    });
    assert.equal(create.status, 507, `create on a full store: ${create.status} ${create.text.slice(0, 200)}`);
    assert.equal(jsonErrorCode(create), 'insufficient_resources');
    assert.equal(core.context.records.count('tag'), before);
    const health = await raw(t.server.port, { path: '/.well-known/health' });
    assert.equal(health.status, 200, 'the server stopped answering after a failed write');
    db.exec('PRAGMA max_page_count = 1073741823');
    const after = writeUntilFailure(core, 'after', 512, 50);
    assert.equal(after.written, 50, 'writes resume once there is room');
    assert.equal(core.context.database.integrityCheck(), 'ok');
    assert.equal(core.context.records.count('tag'), 200 + full.written + 50, 'an acknowledged write was lost or a failed one kept');
    figures('disk.max-page-count', { acknowledged: 200 + full.written + 50, failedWrites: 1, lost: 0 });
    assertFullDiskError(full.error);
  } finally {
    await t.close();
  }
});

test('a full disk (small tmpfs) fails writes clearly, loses nothing, and the store works again once there is room', async (t) => {
  const dir = tempDir('satchel-rel-full-');
  const mounted = mountTmpfs(dir, 16 * 1024);
  t.after(() => {
    if (mounted) unmount(dir);
    rmSync(dir, { recursive: true, force: true });
  });
  if (!mounted) {
    // Without root, the max_page_count test above exercises the same SQLITE_FULL path.
    assert.ok(process.getuid?.() !== 0, 'root but tmpfs could not be mounted');
    return;
  }
  const dataDir = join(dir, 'data');
  mkdirSync(dataDir);
  const server = await startTestServer({ dataDir });
  let acknowledged = 0;
  let fullError: unknown;
  try {
    const first = writeUntilFailure(server.core, 'w', 2048, 100);
    assert.equal(first.written, 100);
    acknowledged += first.written;
    // Fill what is left of the disk with a file that is not Satchel's.
    const filler = join(dir, 'filler');
    const fd = openSync(filler, 'w');
    try {
      for (;;) writeSync(fd, Buffer.alloc(16 * 1024));
    } catch {
      // ENOSPC: the disk is full.
    } finally {
      closeSync(fd);
    }
    const full = writeUntilFailure(server.core, 'x', 64 * 1024, 50);
    acknowledged += full.written;
    fullError = full.error;
    assert.ok(full.written < 50, 'the disk never filled up');
    assert.equal((await raw(server.server.port, { path: '/.well-known/health' })).status, 200);
    rmSync(filler);
    const after = writeUntilFailure(server.core, 'y', 2048, 20);
    assert.equal(after.written, 20, 'writes resume once there is room');
    acknowledged += after.written;
  } finally {
    await server.close();
  }
  // Reopen from disk: every acknowledged write is there, nothing else, and the file is healthy.
  const reopened = Satchel.open({ dataDir });
  try {
    assert.equal(reopened.context.database.integrityCheck(), 'ok');
    assert.equal(reopened.context.records.count('tag'), acknowledged);
  } finally {
    await reopened.close();
  }
  assert.ok(existsSync(join(dataDir, DATABASE_FILE)));
  figures('disk.full-tmpfs', { acknowledged, lost: 0 });
  assertFullDiskError(fullError);
});
