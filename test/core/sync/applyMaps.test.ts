/**
 * The apply reads the plan's folder-id maps as they are (issue 34): it used to copy each of them
 * (`[...oids]` into a new Map) before applying, 10-20 MB of heap more at 100k ids at the sync's peak.
 * The maps that reach the finisher are counted when iterated; every sync still converges.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TEST_WRITE } from '../../support/authors.ts';
import { library, withMachines } from './syncSupport.ts';
import { seed } from './vaultSupport.ts';
import { SyncFinisher, type KnownMerge, type KnownPlan } from '../../../src/core/sync/syncFinish.ts';

/** A map that counts how often it is walked whole (a copy walks it; a lookup by id does not). */
class CountingMap<K, V> extends Map<K, V> {
  walks = 0;
  override [Symbol.iterator](): MapIterator<[K, V]> {
    this.walks++;
    return super[Symbol.iterator]();
  }
  override entries(): MapIterator<[K, V]> {
    this.walks++;
    return super.entries();
  }
  override keys(): MapIterator<K> {
    this.walks++;
    return super.keys();
  }
  override values(): MapIterator<V> {
    this.walks++;
    return super.values();
  }
  override forEach(fn: (value: V, key: K, map: Map<K, V>) => void): void {
    this.walks++;
    super.forEach(fn);
  }
}

test('the apply looks the plan\'s folder ids up by id and never copies the maps; both machines converge', { timeout: 180_000 }, async () => {
  const maps: Array<CountingMap<string, string | undefined>> = [];
  const original = SyncFinisher.prototype.finish;
  SyncFinisher.prototype.finish = function (this: SyncFinisher, pending, options, known?: KnownMerge) {
    const counted = (oids: ReadonlyMap<string, string | undefined>): CountingMap<string, string | undefined> => {
      const map = new CountingMap<string, string | undefined>();
      for (const key of oids.keys()) map.set(key, oids.get(key));
      maps.push(map);
      return map;
    };
    const plans = new Map<string, KnownPlan>();
    for (const [name, plan] of known?.plans ?? []) plans.set(name, { ...plan, localOids: counted(plan.localOids), mergedOids: counted(plan.mergedOids) });
    return original.call(this, pending, options, known && { ...known, plans: plans as KnownMerge['plans'] });
  };
  try {
    await withMachines(async ({ a, b }) => {
      for (let i = 0; i < 30; i++) await a.assets.writes.create(seed(`const a${i} = ${i};\n`, { name: `A ${i}` }), TEST_WRITE);
      for (let i = 0; i < 3; i++) await b.assets.writes.create(seed(`const b${i} = ${i};\n`, { name: `B ${i}` }), TEST_WRITE);
      assert.equal((await a.sync.sync()).sent, 30, 'a first sync: every record unread by the plan');
      const onB = await b.sync.sync();
      assert.deepEqual([onB.sent, onB.received], [3, 30]);
      const back = await a.sync.sync();
      assert.equal(back.received, 3);
      assert.deepEqual(library(b), library(a), 'both machines hold the same library');
      for (const machine of [a, b]) {
        const again = await machine.sync.sync();
        assert.deepEqual([again.sent, again.received], [0, 0], 'nothing left pending on either machine');
      }
    });
    assert.ok(maps.length >= 6, 'the finisher was given the plans');
    assert.ok(maps.some((map) => map.size > 0));
    assert.deepEqual(
      maps.map((map) => map.walks),
      maps.map(() => 0),
      'no map was walked (copied) by the apply',
    );
  } finally {
    SyncFinisher.prototype.finish = original;
  }
});
