/**
 * A trash listing's totals (how many entries, the bytes they keep) are counted once per change of
 * the trash and from an index: summed from the table, whose rows hold each record's document, every
 * listing read every entry (50 ms at 20k entries; 200 concurrent listings held health for 4 s).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withCore } from '../../support/helpers.ts';
import { codeSeed } from '../../support/assetFixtures.ts';
import { TEST_WRITE } from '../../support/authors.ts';
import { Database } from '../../../src/core/store/database.ts';
import type { StatementSync } from 'node:sqlite';

/** Runs `fn` counting the runs of statements that sum the trash's sizes. */
function totalsRead(fn: () => void): number {
  let runs = 0;
  const original = Database.prototype.prepare;
  Database.prototype.prepare = function (this: Database, sql: string): StatementSync {
    const statement = original.call(this, sql);
    if (!/sum\(size\)/.test(sql) || !/FROM trash\b/.test(sql)) return statement;
    return new Proxy(statement, {
      get(target, key) {
        const member: unknown = Reflect.get(target, key, target);
        if (key !== 'get' || typeof member !== 'function') return typeof member === 'function' ? member.bind(target) : member;
        return (...args: never[]) => {
          runs++;
          return member.apply(target, args);
        };
      },
    });
  };
  try {
    fn();
  } finally {
    Database.prototype.prepare = original;
  }
  return runs;
}

test('listings count the totals once per change of the trash, from the index on (kind, size), and stay right', () =>
  withCore(async (core) => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await core.assets.writes.create(codeSeed(`export const t${i} = ${i};\n`, `t${i}`), TEST_WRITE)).id);
    for (const id of ids.slice(0, 4)) core.assets.writes.delete(id, TEST_WRITE);
    let pages = totalsRead(() => {
      for (let i = 0; i < 50; i++) assert.equal(core.trash.list({ limit: 1 }).total, 4);
    });
    assert.equal(pages, 1, 'fifty listings, one count');
    const bytes = core.trash.list().bytes;
    assert.ok(bytes > 0);

    core.assets.writes.delete(ids[4]!, TEST_WRITE);
    core.trash.deleteForever(ids[0]!);
    core.trash.restore(ids[1]!, TEST_WRITE);
    pages = totalsRead(() => {
      for (let i = 0; i < 10; i++) assert.equal(core.trash.list().total, 3, 'counted again after the changes');
      assert.equal(core.trash.list({ kind: 'conversation' }).total, 0);
    });
    assert.equal(pages, 2, 'once for all kinds, once for conversations');

    // A delete rolled back leaves the totals as they were.
    assert.throws(() =>
      core.context.transaction(() => {
        core.assets.writes.delete(ids[1]!, TEST_WRITE);
        throw new Error('rolled back');
      }),
    );
    assert.equal(core.trash.list().total, 3);

    const plan = (core.context.database.prepare('EXPLAIN QUERY PLAN SELECT count(*) AS n, coalesce(sum(size), 0) AS b FROM trash WHERE kind = ?').all('asset') as Array<{ detail: string }>).map((row) => row.detail);
    assert.ok(plan.some((detail) => /COVERING INDEX trash_sizes/.test(detail)), plan.join('; '));
  }));
