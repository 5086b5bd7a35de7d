/**
 * The search index's FTS5 writes run at the end of their transaction (Database.deferWrite): written
 * among a create's other writes, each snippet's terms became a segment of their own, because FTS5
 * writes its pending terms out whenever a later statement opens a statement journal.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Database } from '../../../src/core/store/database.ts';
import { baseMigrations } from '../../../src/core/store/baseSchema.ts';
import { assetMigrations } from '../../../src/core/assets/schema.ts';
import { SearchIndex } from '../../../src/core/search/searchIndex.ts';
import { indexedDocument } from '../../../src/core/search/indexedDocument.ts';
import { tempDir, withCore } from '../../support/helpers.ts';
import { codeSeed } from '../../support/assetFixtures.ts';
import { TEST_WRITE } from '../../support/authors.ts';
import type { Satchel } from '../../../src/core/satchel.ts';

function withDatabase(fn: (database: Database) => Promise<void> | void): Promise<void> | void {
  const database = Database.open({ dataDir: tempDir(), migrations: [...baseMigrations, ...assetMigrations] });
  database.db.exec('CREATE TABLE written (what TEXT NOT NULL)');
  const done = (): void => database.close();
  try {
    const result = fn(database);
    if (result instanceof Promise) return result.finally(done);
    done();
    return result;
  } catch (error) {
    done();
    throw error;
  }
}

const write = (database: Database, what: string) => (): void => void database.db.prepare('INSERT INTO written (what) VALUES (?)').run(what);
const written = (database: Database): string[] => (database.db.prepare('SELECT what FROM written ORDER BY rowid').all() as Array<{ what: string }>).map((row) => row.what);

test('a deferred write runs after the transaction\'s other writes, before its COMMIT; at once outside one', () =>
  withDatabase((database) => {
    database.transaction(() => {
      database.deferWrite(write(database, 'deferred'));
      write(database, 'direct')();
      database.transaction(() => database.deferWrite(write(database, 'nested')));
      assert.deepEqual(written(database), ['direct'], 'not yet, inside the transaction');
    });
    assert.deepEqual(written(database), ['direct', 'deferred', 'nested']);
    database.deferWrite(write(database, 'outside'));
    assert.deepEqual(written(database), ['direct', 'deferred', 'nested', 'outside']);
    database.transaction(() => {
      database.deferWrite(write(database, 'read'));
      database.deferredWrites();
      assert.deepEqual(written(database).at(-1), 'read', 'run on demand, before a read');
    });
  }));

test('a rolled-back transaction drops its deferred writes; a failing grouped write drops only its own', () =>
  withDatabase(async (database) => {
    assert.throws(() =>
      database.transaction(() => {
        database.deferWrite(write(database, 'lost'));
        throw new Error('refused');
      }),
    );
    database.transaction(() => undefined);
    assert.deepEqual(written(database), []);

    const kept = database.groupTransaction(() => database.deferWrite(write(database, 'kept')));
    const failed = database.groupTransaction(() => {
      database.deferWrite(write(database, 'dropped'));
      throw new Error('this write fails');
    });
    const after = database.groupTransaction(() => database.deferWrite(write(database, 'after')));
    await kept;
    await assert.rejects(failed, /this write fails/);
    await after;
    assert.deepEqual(written(database), ['kept', 'after']);
  }));

test('a search inside the transaction that wrote the index finds what it wrote', () =>
  withDatabase((database) => {
    const index = new SearchIndex(database, { merging: false });
    try {
      const holders = database.transaction(() => {
        index.insert(1, indexedDocument('a', '', 'getUserById(id)'));
        index.insert(2, indexedDocument('b', '', 'const user = loadUser()'));
        return index.termHolders('user', 10);
      });
      assert.deepEqual(holders, [2, 1]);
      database.transaction(() => {
        index.remove(2);
        assert.deepEqual(index.termHolders('user', 10), [1]);
        assert.deepEqual(index.termFrequencies(['user', 'loaduser']), new Map([['user', 1]]));
      });
    } finally {
      index.dispose();
    }
  }));

function segments(core: Satchel): number[] {
  return ['asset_nt', 'asset_cd'].map((table) => (core.context.database.db.prepare(`SELECT count(DISTINCT segid) AS n FROM ${table}_idx`).get() as { n: number }).n);
}

test('creates that share a commit write one FTS5 segment per index table, not one per snippet', async () => {
  await withCore(async (core) => {
    const merging = core.assets.deferMerging();
    try {
      const before = segments(core);
      const created = await Promise.all(
        Array.from({ length: 8 }, (_, i) => core.assets.writes.create(codeSeed(`export function segmentCase${i}(input: number) { return input * ${i}; }`, `segment ${i}`, { tags: [`t${i}`] }), TEST_WRITE)),
      );
      assert.equal(new Set(created.map((asset) => asset.id)).size, 8);
      assert.deepEqual(segments(core).map((n, i) => n - before[i]!), [1, 1]);
      const found = core.assets.searches.search({ query: 'segmentCase5' }, { transferables: false, pseudo: false }).iterable.map((hit) => hit.asset!.name);
      assert.deepEqual(found, ['segment 5']);
    } finally {
      merging.dispose();
    }
  });
});
