/**
 * Imports defer FTS5's merging and the index is merged afterwards, in the background; a merge owed
 * by a process that stopped before it finished is resumed when the store is opened again.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { Satchel } from '../../../src/core/satchel.ts';
import { tempDir, withCore } from '../../support/helpers.ts';
import type { ImportSource } from '../../../src/core/import/importSource.ts';

const TABLES = ['asset_nt', 'asset_cd'] as const;

function snippets(count: number, from = 0): ImportSource[] {
  const entries = Array.from({ length: count }, (_, i) => [
    `Merge ${from + i}`,
    { scope: 'typescript', prefix: [`tag${(from + i) % 7}`], body: `export function mergeCase${from + i}(input${i % 13}: number) { return input${i % 13} * ${from + i}; }` },
  ]);
  return [{ name: `merge-${from}.code-snippets`, text: () => JSON.stringify(Object.fromEntries(entries)) }];
}

function automerge(core: Satchel): number[] {
  return TABLES.map((table) => {
    const row = core.context.database.db.prepare(`SELECT v FROM ${table}_config WHERE k = 'automerge'`).get() as { v: number } | undefined;
    return row === undefined ? 4 : Number(row.v);
  });
}

function segments(core: Satchel): number[] {
  return TABLES.map((table) => (core.context.database.db.prepare(`SELECT count(DISTINCT segid) AS n FROM ${table}_idx`).get() as { n: number }).n);
}

function found(core: Satchel, query: string): string[] {
  return core.assets.searches.search({ query }, { transferables: false, pseudo: false }).iterable.map((hit) => hit.asset!.name!).sort();
}

const QUERIES = ['mergeCase1', 'input3', 'tag2', 'Merge 12', 'mergcase'];

test('an import writes with automerge off and the index is merged afterwards, finding the same assets', async () => {
  await withCore(async (core) => {
    const during: number[][] = [];
    const summary = await core.imports.import(snippets(2000), { batchSize: 50, onProgress: () => during.push(automerge(core)) });
    assert.equal(summary.imported, 2000);
    assert.ok(during.length >= 40 && during.every((values) => values.every((v) => v === 0)), `automerge during the import: ${JSON.stringify(during.slice(0, 3))}`);
    // Forty batches, one segment each per table, merged only when a level reached FTS5's crisis bound.
    const before = segments(core);
    assert.ok(before.every((n) => n >= 4), `segments after the import: ${before}`);
    const hitsBefore = QUERIES.map((query) => found(core, query));
    assert.ok(hitsBefore.every((hits) => hits.length > 0));

    await core.imports.merged();
    assert.deepEqual(automerge(core), [4, 4]);
    const after = segments(core);
    assert.ok(after.every((n, i) => n < before[i]! && n < 4), `segments: ${before} before the merge, ${after} after`);
    assert.deepEqual(QUERIES.map((query) => found(core, query)), hitsBefore);
    assert.equal(core.context.database.integrityCheck(), 'ok');
  });
});

test('a merge owed when the store was closed is resumed when it is opened again', async () => {
  const dataDir = tempDir();
  try {
    const first = Satchel.open({ dataDir });
    // Closed while an import holds the deferral: the config still says a merge is owed.
    first.assets.deferMerging();
    await first.imports.import(snippets(600), { batchSize: 30 });
    assert.deepEqual(automerge(first), [0, 0]);
    await first.close();

    const second = Satchel.open({ dataDir });
    try {
      assert.deepEqual(automerge(second), [0, 0], 'nothing merged before the first turn');
      const before = segments(second);
      await second.imports.merged();
      assert.deepEqual(automerge(second), [4, 4]);
      assert.ok(segments(second).every((n, i) => n < before[i]!), `segments ${before} → ${segments(second)}`);
      assert.ok(found(second, 'mergeCase12').includes('Merge 12'));
    } finally {
      await second.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

/**
 * An import whose merge this process runs: a deferral besides the import's own keeps the import
 * process from merging as it ends (ImportStore.finish), as a bulk write of this process would.
 */
async function importMergedHere(core: Satchel, sources: ImportSource[], batchSize: number): Promise<void> {
  const other = core.assets.deferMerging();
  try {
    await core.imports.import(sources, { batchSize });
  } finally {
    other.dispose();
  }
}

test('the import process merges the index as its session ends: this process runs no merge step', async () => {
  await withCore(async (core) => {
    const merging = core.assets.bulkTargets().indexing.search.merging!;
    const summary = await core.imports.import(snippets(2000), { batchSize: 25 });
    assert.equal(summary.imported, 2000);
    await core.imports.merged();
    assert.deepEqual(automerge(core), [4, 4]);
    assert.ok(segments(core).every((n) => n < 4), `segments ${segments(core)}`);
    assert.equal(merging.steps(), 0, 'no merge step here');
    assert.ok(found(core, 'mergeCase1200').includes('Merge 1200'));
    assert.equal(core.context.database.integrityCheck(), 'ok');
  });
});

test('an import arriving during a merge pauses it; the merge finishes after that import', async () => {
  await withCore(async (core) => {
    await importMergedHere(core, snippets(2000), 25);
    const merging = core.assets.bulkTargets().indexing.search.merging!;
    // Wait for the background merge to be under way: a step has merged segments, more are owed.
    const before = segments(core);
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && segments(core).every((n, i) => n >= before[i]!)) await new Promise((resolve) => setImmediate(resolve));
    assert.ok(segments(core).some((n, i) => n < before[i]!), 'the merge began');
    assert.equal(merging.pending(), true, 'and had not finished');
    // The copy of the store taken before an import runs first; the merge may go on meanwhile. From
    // the import's first progress on, the merger runs no step. (Segment counts cannot show it: FTS5
    // merges a level that reaches 16 segments whatever automerge says, its crisis merge.)
    let stepsAtStart: number | undefined;
    const during: string[] = [];
    const second = core.imports.import(snippets(500, 2000), {
      batchSize: 100,
      onProgress: () => {
        if (automerge(core).some((n) => n !== 0)) during.push(`automerge ${automerge(core)}`);
        stepsAtStart ??= merging.steps();
        if (merging.steps() !== stepsAtStart) during.push(`merge steps ${stepsAtStart} → ${merging.steps()}`);
      },
    });
    assert.equal((await second).imported, 500);
    assert.ok(stepsAtStart !== undefined && stepsAtStart > 0, 'the import reported progress after the merge had run steps');
    assert.deepEqual(during, [], 'no merge step during the import');
    const unmerged = segments(core);
    await core.imports.merged();
    // Finished by that import's process as it ended (nothing else deferred it), or here.
    assert.deepEqual(automerge(core), [4, 4]);
    assert.ok(segments(core).every((n, i) => n <= unmerged[i]!) && segments(core).some((n, i) => n < unmerged[i]!), `segments ${unmerged} → ${segments(core)}`);
    assert.ok(found(core, 'mergeCase2200').includes('Merge 2200'));
  });
});

test('a deferral taken while the merge is stepping stops its steps until it is released', async () => {
  await withCore(async (core) => {
    await importMergedHere(core, snippets(2000), 25);
    const merging = core.assets.bulkTargets().indexing.search.merging!;
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && merging.steps() === 0) await new Promise((resolve) => setImmediate(resolve));
    assert.ok(merging.steps() > 0 && merging.pending(), 'the merge is under way');
    const held = merging.defer();
    const atDefer = merging.steps();
    // Longer than the delay before a first step, with the event loop free for the merger's timers.
    await new Promise((resolve) => setTimeout(resolve, 600));
    assert.equal(merging.steps(), atDefer, 'no step while deferred');
    held.dispose();
    await core.imports.merged();
    assert.ok(merging.steps() > atDefer, 'the merge went on once released');
    assert.equal(merging.pending(), false);
  });
});
