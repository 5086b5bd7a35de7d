/**
 * A store closed while it held one snippet, then grown to 100k (an import, here rows grown in SQL):
 * its statistics, taken by that close's PRAGMA optimize, said every table had one row, and the
 * planner joined each word-search hit to its asset through the listing index and deleted an
 * asset's formats by scanning them. The host now checks the statistics when it opens the store and
 * refreshes them on a worker thread (planStatistics.ts). Word searches and deletes are then timed
 * with health probed meanwhile. Before (the old code on this test): searches 4.6 s each (p50),
 * health 6.4 s; deletes 150 ms each.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Satchel } from '../../src/core/satchel.ts';
import { tempDir } from '../support/helpers.ts';
import { HostProcess, figures, percentile, raw, sleep } from './support.ts';
import { withHealth } from './healthProbe.ts';
import { seed } from './writes.ts';
import { copyAsset } from './grownRows.ts';
import { TEST_WRITE } from '../support/authors.ts';

const SNIPPETS = 100_000;
const WORD = 'listedValue';
const SEARCHES = 20;
const DELETES = 20;
let dataDir = '';
let host: HostProcess;
let port = 0;
/** How long after "serving" the host said it refreshed its statistics (-1: it did not within a minute). */
let refreshedAfterMs = -1;

before(async () => {
  dataDir = tempDir('satchel-rel-stats-');
  const core = Satchel.open({ dataDir });
  const first = await core.assets.writes.create(seed(`export function probe() { return ${WORD}; }`, 'probe 0') as never, TEST_WRITE);
  core.assets.searches.fullTextSearch(WORD, { transferables: false, pseudo: false });
  await core.close();
  const started = performance.now();
  const db = new DatabaseSync(join(dataDir, 'satchel.db'));
  try {
    const stat = db.prepare("SELECT stat FROM sqlite_stat1 WHERE idx = 'assets_listing'").get() as { stat: string } | undefined;
    assert.equal(stat?.stat.split(' ')[0], '1', 'the close analyzed a store of one snippet (the premise)');
    // Copies of the first snippet, each a second older than the one before, with the rows the
    // host's start and a search read of them: a format, a word-index entry, a label, fingerprints.
    db.exec('PRAGMA synchronous = OFF; BEGIN');
    copyAsset(db, first.id, SNIPPETS);
    db.prepare(`INSERT INTO asset_formats (id, asset_id) SELECT printf('30000000-0000-4000-8000-%012d', rowid), id FROM assets WHERE id != ?`).run(first.id);
    db.prepare(`INSERT INTO asset_cd (rowid, code) SELECT rowid, ? FROM assets WHERE id != ?`).run(`export function probe return ${WORD}`, first.id);
    db.prepare(`INSERT INTO asset_labels (rowid, label) SELECT rowid, name FROM assets WHERE id != ?`).run(first.id);
    db.prepare(
      `INSERT INTO connector_fp_docs (asset_id, text_hash, hashes, count)
       SELECT a.id, f.text_hash, f.hashes, f.count FROM assets a JOIN connector_fp_docs f ON f.asset_id = ? WHERE a.id != ?`,
    ).run(first.id, first.id);
    db.exec('COMMIT');
  } finally {
    db.close();
  }
  figures('stale-statistics-fixture', { snippets: SNIPPETS + 1, ms: Math.round(performance.now() - started) });
  host = new HostProcess(dataDir);
  port = (await host.waitFor('serving', 120_000)).port!;
  const serving = performance.now();
  while (performance.now() - serving < 60_000 && host.alive) {
    if (/Refreshed the query planner's statistics/.test(host.stdout)) {
      refreshedAfterMs = Math.round(performance.now() - serving);
      break;
    }
    await sleep(20);
  }
});

after(async () => {
  await host?.kill();
  rmSync(dataDir, { recursive: true, force: true });
});

async function timed(method: string, path: string): Promise<{ status: number; ms: number; json: unknown }> {
  const started = performance.now();
  const reply = await raw(port, { method, path, timeoutMs: 120_000 });
  return { status: reply.status, ms: Math.round(performance.now() - started), json: reply.json };
}

test('a store analyzed when it held one snippet and grown to 100k: the host refreshes its statistics, and word searches and deletes hold health under 1 s', async () => {
  const refresh = /Refreshed the query planner's statistics in (\d+) ms: (.*)/.exec(host.stdout);
  figures('stale-statistics-refresh', { after_serving_ms: refreshedAfterMs, refresh_ms: refresh?.[1] ?? -1, tables: JSON.stringify(refresh?.[2] ?? '') });
  // The first search after the start finishes the in-memory label index if its gradual warm-up
  // has not (searchIndex.ts warm: about 0.8 s of work at 100k snippets, whatever the statistics): timed alone.
  const first = await timed('GET', `/search/full_text?query=${WORD}&transferables=false`);
  const searches = await withHealth({ port, host }, async () => {
    const replies = [];
    for (let i = 0; i < SEARCHES; i++) replies.push(await timed('GET', `/search/full_text?query=${WORD}&transferables=false`));
    return replies;
  });
  const deletes = await withHealth({ port, host }, async () => {
    const replies = [];
    for (let i = 1; i <= DELETES; i++) replies.push(await timed('POST', `/assets/10000000-0000-4000-8000-${String(i * 997).padStart(12, '0')}/delete`));
    return replies;
  });
  const searchMs = searches.result.map((reply) => reply.ms);
  const deleteMs = deletes.result.map((reply) => reply.ms);
  figures('stale-statistics-search', { snippets: SNIPPETS + 1, first_ms: first.ms, searches: SEARCHES, p50_ms: percentile(searchMs, 50), max_ms: Math.max(...searchMs), health_slowest_ms: searches.slowest, loop_held_ms: searches.waited });
  figures('stale-statistics-delete', { snippets: SNIPPETS + 1, deletes: DELETES, p50_ms: percentile(deleteMs, 50), max_ms: Math.max(...deleteMs), health_slowest_ms: deletes.slowest, loop_held_ms: deletes.waited });
  for (const reply of [first, ...searches.result]) {
    assert.equal(reply.status, 200);
    assert.ok((reply.json as { iterable: unknown[] }).iterable.length > 0, 'the word is found');
  }
  for (const reply of deletes.result) assert.equal(reply.status, 200);
  assert.ok(refreshedAfterMs >= 0, `the host refreshed its statistics within a minute of serving:\n${host.stdout}`);
  assert.ok(searches.waited < 1000, `health waited ${searches.waited} ms (round trip ${searches.slowest} ms) behind word searches`);
  assert.ok(deletes.waited < 1000, `health waited ${deletes.waited} ms (round trip ${deletes.slowest} ms) behind deletes`);
});
