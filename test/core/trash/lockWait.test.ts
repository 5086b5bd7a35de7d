/**
 * Emptying the trash (and the retention pass) while another connection that announced itself holds
 * the write lock (the statistics worker's ANALYZE of a table, an import process's batch): each step
 * waits for the lock between turns of the event loop, so health answers meanwhile, and the work
 * finishes once the lock is free. Before, each step's BEGIN waited in SQLite's busy handler on the
 * event loop (a fresh host's ANALYZE of a large store held health 1–2 s), and failed SQLITE_BUSY
 * past the busy timeout when the lock was held by something that needed the loop to let go. The
 * steps commit without an fsync on the loop: after a run of deletes had grown the WAL, the first
 * synced COMMIT of an empty held health about a second.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { withCore } from '../../support/helpers.ts';
import { codeSeed } from '../../support/assetFixtures.ts';
import { TEST_WRITE } from '../../support/authors.ts';
import { DATABASE_FILE } from '../../../src/core/store/database.ts';
import type { Satchel } from '../../../src/core/satchel.ts';

const ENTRIES = 40;
const DAY = 24 * 60 * 60 * 1000;

async function fillTrash(core: Satchel): Promise<void> {
  for (let i = 0; i < ENTRIES; i++) {
    const asset = await core.assets.writes.create(codeSeed(`export const v${i} = ${i};\n`, `v${i}`), TEST_WRITE);
    core.assets.writes.delete(asset.id, TEST_WRITE);
  }
}

/** Runs `work` while another connection holds the write lock for 300 ms of turns; resolves with what `work` resolved with and how many turns the loop took meanwhile. */
async function underOtherWriter<T>(core: Satchel, dataDir: string, work: () => Promise<T>): Promise<{ result: T; turnsWhileHeld: number; trashWhileHeld: number }> {
  const other = new DatabaseSync(join(dataDir, DATABASE_FILE));
  const announced = core.context.database.expectWriter();
  other.exec('BEGIN IMMEDIATE');
  other.exec("UPDATE records SET updated = updated WHERE kind = 'nothing'");
  const running = work();
  let turns = 0;
  const until = performance.now() + 300;
  while (performance.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    turns++;
  }
  const trashWhileHeld = core.trash.list({ limit: 1 }).total;
  other.exec('COMMIT');
  other.close();
  announced.dispose();
  return { result: await running, turnsWhileHeld: turns, trashWhileHeld };
}

test('emptying the trash waits for another writer between turns of the event loop, then empties it all', async () => {
  await withCore(async (core) => {
    await fillTrash(core);
    const { result, turnsWhileHeld, trashWhileHeld } = await underOtherWriter(core, core.dataDir, () => core.trash.empty());
    assert.equal(trashWhileHeld, ENTRIES, 'nothing was deleted while the other connection held the lock');
    assert.ok(turnsWhileHeld >= 5, `the event loop turned ${turnsWhileHeld} times in 300 ms`);
    assert.equal(result.deleted, ENTRIES);
    assert.equal(core.trash.list({ limit: 1 }).total, 0);
  });
});

test('the retention pass waits for another writer the same way', async () => {
  await withCore(
    async (core) => {
      await fillTrash(core);
      const { result, trashWhileHeld } = await underOtherWriter(core, core.dataDir, () => core.trash.retention.purgeExpired(Date.now() + 2 * DAY));
      assert.equal(trashWhileHeld, ENTRIES);
      assert.equal(result, ENTRIES);
      assert.equal(core.trash.list({ limit: 1 }).total, 0);
    },
    { trash: { retentionDays: 1 } },
  );
});

test("emptying the trash commits its steps without an fsync on the event loop (the WAL is synced on the thread pool)", async () => {
  await withCore(async (core) => {
    await fillTrash(core);
    const database = core.context.database;
    const transaction = database.transaction.bind(database);
    const unsynced = database.unsyncedTransaction.bind(database);
    // Outermost transactions only: an entry's own writes join the step's.
    let depth = 0;
    let synced = 0;
    const within = <T>(fn: () => T): T => {
      depth++;
      try {
        return fn();
      } finally {
        depth--;
      }
    };
    database.transaction = <T>(fn: () => T): T => {
      if (depth === 0) synced++;
      return transaction(() => within(fn));
    };
    database.unsyncedTransaction = <T>(fn: () => T): T => unsynced(() => within(fn));
    const emptied = await core.trash.empty();
    assert.equal(emptied.deleted, ENTRIES);
    assert.equal(synced, 0, `${synced} steps committed with a synced COMMIT on the event loop`);
  });
});

test('an empty answers only once its unsynced steps are flushed to disk', async () => {
  await withCore(async (core) => {
    await fillTrash(core);
    const database = core.context.database;
    const settled = database.settled.bind(database);
    const order: string[] = [];
    database.settled = async () => {
      order.push('flush asked');
      await settled();
      order.push('flushed');
    };
    const result = await core.trash.empty();
    order.push('answered');
    assert.equal(result.deleted, ENTRIES);
    assert.deepEqual(order.slice(-3), ['flush asked', 'flushed', 'answered']);
  });
});
