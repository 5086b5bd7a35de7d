/**
 * What a sync's plan holds (issue 34): a first sync takes the whole library, and the plan used to hold
 * every record from reading it to the apply (400 MB of JS heap at 100k snippets). Now a record neither
 * side's history has is not read by the plan at all (the commit reads it once); one the plan must
 * compare is read, and held only when it is merged; the others are read again as the commit is
 * written, checked against the folder id the plan read, and a record changed in between makes the
 * sync plan again, holding what it reads.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../support/helpers.ts';
import { TEST_AUTHOR, TEST_WRITE } from '../../support/authors.ts';
import { library, withMachines } from './syncSupport.ts';
import { recordsOf, seed } from './vaultSupport.ts';
import { AS_HERE, changeCount, changesOf, planSync } from '../../../src/core/sync/syncPlan.ts';
import { ASSET_KIND, oidOf } from '../../../src/core/sync/syncKinds.ts';
import { VaultRepo } from '../../../src/core/sync/vaultRepo.ts';
import { BulkWriter } from '../../../src/core/assets/bulkWriter.ts';
import { bulkAssetOf } from '../../../src/core/sync/libraryRecords.ts';
import type { VaultAsset } from '../../../src/core/sync/vaultFormat.ts';

function record(i: number): VaultAsset {
  return { id: randomUUID(), name: `Record ${i}`, language: 'ts', tags: [], websites: [], created: '2026-01-01T00:00:00.000Z', updated: '2026-01-01T00:00:00.000Z', favorited: false, syntax: false, prefixes: [], content: `const n = ${i};\n` };
}

test('a first sync to an empty remote: the plan reads and holds no record, every one is taken as it is here (read once, by the commit)', async () => {
  const root = tempDir('satchel-plan-holds-');
  try {
    const records = new Map(Array.from({ length: 50 }, (_, i) => record(i)).map((r) => [r.id, r]));
    let reads = 0;
    const read = (id: string): VaultAsset | undefined => {
      reads++;
      return records.get(id);
    };
    const inputs = { repo: new VaultRepo(join(root, 'sync')), kind: ASSET_KIND, base: undefined, remote: undefined, dirty: records.keys(), remoteChanged: [], bases: new Map<string, string>(), read };
    const plan = await planSync(inputs);
    assert.equal(reads, 0, 'nothing read by the plan');
    assert.deepEqual([changeCount(plan, 'sent'), changeCount(plan, 'local')], [50, 50]);
    assert.deepEqual([...plan.unread].sort(), [...records.keys()].sort());
    assert.ok([...changesOf(plan, 'sent'), ...changesOf(plan, 'local')].every(([, value]) => value === AS_HERE), 'no record is held in the commits\' changes');
    // Each id held once: not in the commits' maps or the merge's folder ids besides `unread` (issue 34: 100k ids each at a first sync).
    assert.deepEqual([plan.sent.size, plan.local.size, plan.mergedOids.size, plan.localOids.size], [0, 0, 0, 0]);
    assert.equal(plan.unread, plan.ids, 'every id unread: `unread` is the plan\'s own set of ids, not a second one');
    assert.equal(plan.mergedRecords.size, 0, 'nor for the apply (each is already here)');
    const held = await planSync({ ...inputs, dirty: records.keys(), holdRecords: true });
    assert.equal(reads, 50);
    assert.equal(held.unread.size, 0);
    assert.ok([...held.sent].every(([id, value]) => value === records.get(id)), 'holding (the try after a record changed): every record as read');
    for (const [id, r] of records) assert.equal(held.mergedOids.get(id), oidOf(ASSET_KIND, r), 'the merge is this machine\'s version');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('records changed between the plan and the commit: the sync plans again, holding what it reads, and sends the changed versions; nothing is lost', { timeout: 180_000 }, async () => {
  await withMachines(async ({ a, b }) => {
    const first = await a.assets.writes.create(seed('const seed = 1;\n', { name: 'Seed' }), TEST_WRITE);
    const writer = new BulkWriter(a.context, a.assets.bulkTargets());
    writer.write(Array.from({ length: 600 }, (_, i) => bulkAssetOf(record(i), false)), TEST_AUTHOR);
    const records = recordsOf(a);
    const ids = [first.id, ...a.assets.identifiers()].filter((id, index, all) => all.indexOf(id) === index);
    assert.equal(ids.length, 601);
    const edit = (text: string): void => void writer.write(ids.map((id) => bulkAssetOf({ ...records.read(id)!, content: `${text} ${id}\n` }, true)), TEST_AUTHOR);
    assert.equal((await a.sync.sync()).sent, 601, 'the first sync (nothing read by its plan)');
    // Each changed here since: the plan reads them (the remote has them) but holds none.
    edit('edited');
    let plansAt500 = 0;
    const summary = await a.sync.sync({
      onProgress: ({ phase, done }) => {
        if (phase !== 'reading' || done !== 500) return;
        plansAt500++;
        // Every record again, while the first plan is half-way: those it read are no longer what it read.
        if (plansAt500 === 1) edit('edited again');
      },
    });
    assert.equal(plansAt500, 2, 'the commit refused the changed records and the sync planned again');
    assert.equal(summary.sent, 601);
    assert.ok(ids.every((id) => records.read(id)!.content === `edited again ${id}\n`), 'the edits are kept here');
    await b.sync.sync();
    assert.deepEqual(library(b), library(a), 'the other machine gets every edited record');
    const again = await a.sync.sync();
    assert.deepEqual([again.sent, again.received], [0, 0], 'nothing left to send');
  });
});
