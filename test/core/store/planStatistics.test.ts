/**
 * The query planner's statistics follow the store's size (planStatistics.ts). A store closed while
 * it held one snippet kept statistics saying so (its close runs PRAGMA optimize); grown since, the
 * planner joined word-search hits to `assets` through the listing index and deleted an asset's
 * formats by scanning `asset_formats`: 1.4 s a search and 10 ms a delete at 100k assets. Plans are
 * asserted with EXPLAIN QUERY PLAN on the store's own connection, not by time.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Satchel } from '../../../src/core/satchel.ts';
import { Database } from '../../../src/core/store/database.ts';
import { tempDir } from '../../support/helpers.ts';
import { codeSeed } from '../../support/assetFixtures.ts';
import { TEST_WRITE } from '../../support/authors.ts';

const WORD = 'listedValue';

/** A store that held one snippet when it was last closed, so its statistics describe one row per table. */
async function analyzedWithOneSnippet(): Promise<{ dataDir: string; first: string }> {
  const dataDir = tempDir('satchel-stats-');
  const core = Satchel.open({ dataDir, importWorker: false });
  const first = (await core.assets.writes.create(codeSeed(`export function probe() { return ${WORD}; }`, 'probe', { ext: 'ts' }), TEST_WRITE)).id;
  core.assets.searches.fullTextSearch(WORD, { transferables: false, pseudo: false });
  await core.close();
  const db = new DatabaseSync(join(dataDir, 'satchel.db'));
  try {
    const row = db.prepare("SELECT stat FROM sqlite_stat1 WHERE idx = 'assets_listing'").get() as { stat: string } | undefined;
    assert.equal(row?.stat.split(' ')[0], '1', 'the close analyzed a store of one snippet (the premise)');
  } finally {
    db.close();
  }
  return { dataDir, first };
}

/** Copies of the first snippet made in SQL, with a format and a word-index entry each (creating them would index what no test reads). */
function grow(dataDir: string, first: string, count: number): void {
  const db = new DatabaseSync(join(dataDir, 'satchel.db'));
  try {
    db.exec('BEGIN');
    db.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO assets (id, created, updated, pseudo, suggested, name, language, keywords, data)
       SELECT printf('10000000-0000-4000-8000-%012d', i), a.created, a.updated, 0, 0, 'probe ' || i, a.language, a.keywords, a.data
       FROM n, assets a WHERE a.id = ?`,
    ).run(count, first);
    db.prepare(`INSERT INTO asset_formats (id, asset_id) SELECT printf('30000000-0000-4000-8000-%012d', rowid), id FROM assets WHERE id != ?`).run(first);
    db.prepare(`INSERT INTO asset_cd (rowid, code) SELECT rowid, ? FROM assets WHERE id != ?`).run(`export function probe return ${WORD}`, first);
    db.exec('COMMIT');
  } finally {
    db.close();
  }
}

/**
 * The statements a word search and a delete prepare, explained on the store's connection: each
 * word-index hit must reach its asset by rowid, and no statement may scan `asset_formats`.
 */
async function misledPlans(core: Satchel, remove: string): Promise<string[]> {
  const seen = new Set<string>();
  const original = Database.prototype.prepare;
  Database.prototype.prepare = function (this: Database, sql: string) {
    seen.add(sql);
    return original.call(this, sql);
  };
  try {
    core.assets.searches.fullTextSearch(WORD, { transferables: false, pseudo: false });
    core.assets.writes.delete(remove, TEST_WRITE);
  } finally {
    Database.prototype.prepare = original;
  }
  const db = core.context.database.db;
  const misled: string[] = [];
  let hits = 0;
  let deletes = 0;
  for (const sql of seen) {
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as Array<{ detail: string }>).map((row) => row.detail);
    const oneLine = sql.replace(/\s+/g, ' ').trim();
    if (/asset_(cd|nt) MATCH/.test(sql) && /JOIN assets a/.test(sql)) {
      hits++;
      if (!plan.some((line) => line.startsWith('SEARCH a USING INTEGER PRIMARY KEY'))) misled.push(`${oneLine}\n    → ${plan.join(' | ')}`);
    }
    if (/FROM asset_formats WHERE asset_id/.test(sql)) deletes++;
    if (plan.some((line) => /^SCAN asset_formats\b/.test(line))) misled.push(`${oneLine}\n    → ${plan.join(' | ')}`);
  }
  assert.ok(hits >= 1 && deletes >= 1, `the search and the delete ran their statements (${hits} joins of hits, ${deletes} deletes of formats)`);
  return misled;
}

test('statistics taken when the store held one snippet are refreshed when it is opened grown: word-search hits joined by rowid, formats deleted by index', async () => {
  const { dataDir, first } = await analyzedWithOneSnippet();
  grow(dataDir, first, 2000);
  const said: string[] = [];
  const core = Satchel.open({ dataDir, importWorker: false, logger: { info: (line) => said.push(line), warn: (line) => said.push(line), error: (line) => said.push(line) } });
  try {
    await core.context.database.statistics?.settled();
    const misled = await misledPlans(core, '10000000-0000-4000-8000-000000000007');
    assert.deepEqual(misled, [], `plans misled by the statistics of a one-snippet store:\n${misled.join('\n')}`);
    const row = core.context.database.db.prepare("SELECT stat FROM sqlite_stat1 WHERE idx = 'assets_listing'").get() as { stat: string };
    assert.ok(Number(row.stat.split(' ')[0]) >= 2000, `statistics of the grown store (${row.stat})`);
    assert.ok(said.some((line) => /^Refreshed the query planner's statistics in \d+ ms: .*\bassets \d+ ms/.test(line)), said.join('\n'));
  } finally {
    await core.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('an import that grows the store many times over refreshes the statistics the open store plans with', async () => {
  const { dataDir } = await analyzedWithOneSnippet();
  const core = Satchel.open({ dataDir, importWorker: false });
  try {
    const database = core.context.database;
    await database.statistics?.settled();
    const snippets = Object.fromEntries(
      Array.from({ length: 300 }, (_, i) => [`Probe ${i}`, { scope: 'typescript', prefix: [`probe${i}`], body: `export const probe${i} = ${WORD} + ${i};` }]),
    );
    const summary = await core.imports.import([{ name: 'probes.code-snippets', text: () => JSON.stringify(snippets) }]);
    assert.equal(summary.imported, 300);
    await core.imports.merged();
    await database.statistics?.settled();
    const victim = core.assets.searches.taggedIds(['probe7'], 1)[0];
    assert.ok(victim !== undefined, 'an imported snippet to delete');
    const misled = await misledPlans(core, victim);
    assert.deepEqual(misled, [], `plans misled by the statistics taken before the import:\n${misled.join('\n')}`);
  } finally {
    await core.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
