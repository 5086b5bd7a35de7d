/**
 * The import process's store (importStore.ts): at a session's end it merges the search index the
 * imports left unmerged and empties the WAL it wrote, so the store's process has neither to do.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, statSync } from 'node:fs';
import { Satchel } from '../../../src/core/satchel.ts';
import { openImportStore } from '../../../src/core/import/importStore.ts';
import { tempDir } from '../../support/helpers.ts';

const automerge = (core: Satchel): number[] =>
  ['asset_nt', 'asset_cd'].map((table) => Number((core.context.database.db.prepare(`SELECT v FROM ${table}_config WHERE k = 'automerge'`).get() as { v: number } | undefined)?.v ?? 4));

test('finish merges the segments the imports left and leaves the WAL empty', async () => {
  const dataDir = tempDir();
  const core = Satchel.open({ dataDir, secretsScan: false });
  try {
    // The store's process defers merging for the session, as satchel.ts does.
    const held = core.assets.deferMerging();
    const store = openImportStore(core.context.database.path, core.context.database.schemaVersion, { classify: async () => 'ts' });
    try {
      const body = Object.fromEntries(Array.from({ length: 1500 }, (_, i) => [`Snippet ${i}`, { scope: 'typescript', prefix: `p${i}`, body: `export const value${i} = ${i} * factor${i % 17};` }]));
      const summary = await store.importer.import([{ name: 'many.code-snippets', text: () => JSON.stringify(body) }], { batchSize: 25 });
      assert.equal(summary.imported, 1500);
      assert.deepEqual(automerge(core), [0, 0], 'sixty batches, unmerged');
      assert.ok(statSync(`${core.context.database.path}-wal`).size > 0);
      await store.finish(30_000);
      assert.deepEqual(automerge(core), [4, 4], 'merged');
      assert.equal(statSync(`${core.context.database.path}-wal`).size, 0, 'the WAL copied into the store and emptied');
    } finally {
      store.dispose();
      held.dispose();
    }
    assert.equal(core.context.database.integrityCheck(), 'ok');
  } finally {
    await core.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
