/**
 * The store's rows share one hidden class per statement (issue 34): node:sqlite gives every row it
 * returns as an object a hidden class of its own, allocated in V8's old generation, which a first
 * sync of 100k snippets (about 15 rows a snippet) grew by 90 MB before V8 next collected it. The
 * store reads rows as arrays and names them (sharedShapeRows.ts); they read as node:sqlite's did.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { tempDir } from '../../support/helpers.ts';
import { Database } from '../../../src/core/store/database.ts';

function withStore(fn: (database: Database) => void): void {
  const dataDir = tempDir('satchel-rows-');
  const database = Database.open({ dataDir, migrations: [] });
  try {
    database.db.exec('CREATE TABLE t (id TEXT PRIMARY KEY, n INTEGER, data BLOB, note TEXT)');
    const insert = database.prepare('INSERT INTO t (id, n, data, note) VALUES (?, ?, ?, ?)');
    for (let i = 0; i < 50; i++) insert.run(`id${i}`, i, new Uint8Array([i, 1]), i % 2 === 0 ? null : `note ${i}`);
    fn(database);
  } finally {
    database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Whether two objects have the same hidden class (V8's %HaveSameMap, allowed for this process from now on). */
function sameHiddenClass(a: object, b: object): boolean {
  setFlagsFromString('--allow-natives-syntax');
  const same = runInNewContext('(a, b) => %HaveSameMap(a, b)') as (a: object, b: object) => boolean;
  return same(a, b);
}

test('rows read as node:sqlite reads them: the same fields and values, by get, all and iterate, positional or named', () => {
  withStore((database) => {
    const sql = 'SELECT id, n, data, note FROM t WHERE n < ? ORDER BY n';
    const native = database.db.prepare(sql).all(5);
    const rows = database.prepare(sql).all(5);
    assert.equal(rows.length, 5);
    rows.forEach((row, index) => {
      assert.deepEqual(Object.keys(row), Object.keys(native[index]!));
      assert.deepEqual({ ...row }, { ...native[index]! });
    });
    assert.deepEqual([...database.prepare(sql).iterate(3)].map((row) => row['id']), ['id0', 'id1', 'id2']);
    assert.deepEqual({ ...database.prepare('SELECT id, note FROM t WHERE id = :id').get({ id: 'id7' }) }, { id: 'id7', note: 'note 7' });
    assert.equal(database.prepare('SELECT id FROM t WHERE id = ?').get('none'), undefined);
    assert.equal(database.prepare('SELECT count(*) AS n FROM t').get()?.['n'], 50);
    assert.equal(database.prepare('DELETE FROM t WHERE n >= ?').run(40).changes, 10);
  });
});

test('every row of a statement has the same hidden class (node:sqlite gives each its own, in the old generation)', () => {
  withStore((database) => {
    const byId = database.prepare('SELECT id, n, data, note FROM t WHERE id = ?');
    const first = byId.get('id1')!;
    for (const id of ['id2', 'id3', 'id48']) assert.ok(sameHiddenClass(first, byId.get(id)!), `the row of ${id} has the first row's hidden class`);
    const [a, b] = database.prepare('SELECT id, n FROM t ORDER BY n LIMIT 2').all();
    assert.ok(sameHiddenClass(a!, b!), 'rows of all() share one too');
  });
});

test('a column named __proto__ is a field, not the prototype; SELECT * reads a column added after it was prepared', () => {
  withStore((database) => {
    const row = database.prepare('SELECT id AS __proto__, n FROM t WHERE id = ?').get('id4')!;
    assert.ok(Object.hasOwn(row, '__proto__'));
    assert.equal(Object.getOwnPropertyDescriptor(row, '__proto__')?.value, 'id4');
    const all = database.prepare('SELECT * FROM t WHERE id = ?');
    assert.deepEqual(Object.keys(all.get('id4')!), ['id', 'n', 'data', 'note']);
    database.db.exec("ALTER TABLE t ADD COLUMN later TEXT DEFAULT 'x'");
    assert.deepEqual({ ...all.get('id4') }, { id: 'id4', n: 4, data: new Uint8Array([4, 1]), note: null, later: 'x' });
  });
});
