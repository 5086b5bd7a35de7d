/**
 * A crash mid-import leaves whole batches: a child importing in batches is killed with SIGKILL
 * after a few batches (its import process exits with it); on reopen the store holds a whole number of batches (at least every batch
 * it reported), search and the connector's index agree with the assets, the database is intact,
 * the search index's deferred merge is finished, and importing again writes exactly the rest.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Satchel } from '../../../src/core/satchel.ts';
import { tempDir, waitFor } from '../../support/helpers.ts';
import { isAlive } from '../../support/processes.ts';

const child = fileURLToPath(new URL('./crashImporter.ts', import.meta.url));
const TOTAL = 3000;
const BATCH = 100;

test('SIGKILL mid-import leaves whole batches, consistent indexes, and a re-run completes it', { timeout: 120_000 }, async () => {
  const dataDir = tempDir('satchel-import-crash-');
  try {
    let importPid = 0;
    const reported = await new Promise<number>((resolve, reject) => {
      const importer = spawn(process.execPath, ['--experimental-strip-types', '--disable-warning=ExperimentalWarning', child, dataDir, String(TOTAL), String(BATCH)], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let last = 0;
      let out = '';
      importer.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const lines = out.split('\n');
        out = lines.pop()!;
        for (const line of lines) {
          if (line === 'done') return reject(new Error('the import finished before it was killed'));
          const [pid, imported] = line.split(' ').map(Number);
          importPid = pid!;
          last = imported!;
          // Killed while the next batches are being written.
          if (last >= 5 * BATCH) importer.kill('SIGKILL');
        }
      });
      importer.once('exit', () => resolve(last));
      importer.once('error', reject);
    });
    assert.ok(reported >= 5 * BATCH);
    // The import process outlives nothing: with its parent gone it stops writing and exits.
    assert.ok(importPid > 0);
    await waitFor(() => !isAlive(importPid), 5000); // the import process exited with its parent

    const core = Satchel.open({ dataDir });
    try {
      const stored = core.assets.identifiers().length;
      assert.ok(stored >= reported, `${stored} stored, ${reported} reported`);
      assert.ok(stored < TOTAL);
      assert.equal(stored % BATCH, 0, `${stored} assets: whole batches only`);
      assert.equal(core.connector.index.size, stored, 'the connector index holds exactly the stored assets');
      assert.equal(core.context.database.integrityCheck(), 'ok');
      // The killed import had turned FTS5's merging off; the reopened store owes the merge and does it.
      const automerge = (): unknown[] => ['asset_nt', 'asset_cd'].map((table) => (core.context.database.db.prepare(`SELECT v FROM ${table}_config WHERE k = 'automerge'`).get() as { v: unknown } | undefined)?.v);
      assert.deepEqual(automerge(), [0, 0]);
      await core.imports.merged();
      assert.deepEqual(automerge(), [4, 4]);
      const hits = core.assets.searches.search({ query: 'crash0' }, { transferables: false, pseudo: false }).iterable;
      assert.ok(hits.some((hit) => hit.asset?.name === 'Crash 0'), 'search finds an asset of the first batch');

      const snippets = Object.fromEntries(
        Array.from({ length: TOTAL }, (_, i) => [`Crash ${i}`, { prefix: `k${i}`, body: `export const crash${i} = ${i}; // ${'x'.repeat(i % 200)}` }]),
      );
      const rest = await core.imports.import([{ name: 'typescript.json', text: () => JSON.stringify(snippets) }], { batchSize: 500 });
      assert.equal(rest.duplicates, stored);
      assert.equal(rest.imported, TOTAL - stored);
      assert.equal(core.assets.identifiers().length, TOTAL);
    } finally {
      await core.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

