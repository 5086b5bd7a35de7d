/**
 * Deleting a large trash for good never stalls the host: 20,000 trashed assets (each with two
 * revisions, its links and a tag's copy; grown in SQL from a few made the ordinary way) are emptied
 * through POST /satchel/trash/empty on a host process, and purged by the background retention pass
 * of an in-process host whose clock is set past their retention, while health is probed every 100
 * ms. Both delete a few entries per transaction with a turn of the event loop between.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Satchel } from '../../src/core/satchel.ts';
import { DATABASE_FILE } from '../../src/core/store/database.ts';
import { startTestServer, tempDir } from '../support/helpers.ts';
import { codeSeed } from '../support/assetFixtures.ts';
import { TEST_WRITE } from '../support/authors.ts';
import { HostProcess, assertIntegrity, figures, raw, sleep } from './support.ts';
import { probeHealth } from './healthProbe.ts';

const ENTRIES = Number(process.env.SATCHEL_TRASH_PURGE_ENTRIES ?? 20_000);
const SEEDS = 50;
const DAY = 24 * 60 * 60 * 1000;

/** A data directory whose trash holds ENTRIES assets: SEEDS deleted through core, copied in SQL under new ids. */
async function grownTrash(): Promise<string> {
  const dataDir = tempDir('satchel-rel-trash-');
  const core = Satchel.open({ dataDir, importWorker: false });
  for (let i = 0; i < SEEDS; i++) {
    const asset = await core.assets.writes.create(codeSeed(`// seed ${i}\nexport const seed${i} = ${i};\n`, `seed ${i}`, { tags: [`tag${i % 5}`] }), TEST_WRITE);
    core.assets.writes.edit(asset.id, { content: { text: `// seed ${i}, edited\nexport const seed${i} = ${i * 2};\n` } }, TEST_WRITE);
    core.assets.writes.delete(asset.id, TEST_WRITE);
  }
  await core.close();
  const db = new DatabaseSync(join(dataDir, DATABASE_FILE));
  try {
    db.exec('BEGIN');
    db.exec('CREATE TEMP TABLE seeds AS SELECT id FROM trash');
    db.prepare('CREATE TEMP TABLE copies AS WITH RECURSIVE k(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM k WHERE n < ?) SELECT n FROM k').run(Math.ceil(ENTRIES / SEEDS) - 1);
    const copy = (sql: string) => db.exec(sql);
    copy(`INSERT INTO trash (id, kind, name, preview, language, messages, deleted, author_kind, author_name, size, facts, data)
          SELECT t.id || '.' || c.n, kind, name, preview, language, messages, deleted - c.n, author_kind, author_name, size, facts, data
          FROM trash t JOIN seeds s ON s.id = t.id, copies c`);
    copy(`INSERT INTO trash_links (owner, a_kind, a_id, b_kind, b_id, created)
          SELECT l.owner || '.' || c.n, a_kind, CASE WHEN a_id = l.owner THEN a_id || '.' || c.n ELSE a_id END,
                 b_kind, CASE WHEN b_id = l.owner THEN b_id || '.' || c.n ELSE b_id END, created
          FROM trash_links l JOIN seeds s ON s.id = l.owner, copies c`);
    copy(`INSERT INTO trash_records (owner, kind, id, owned, created, updated, data, lookup)
          SELECT r.owner || '.' || c.n, kind, r.id, owned, created, updated, data, lookup FROM trash_records r JOIN seeds s ON s.id = r.owner, copies c`);
    copy(`INSERT INTO revisions (id, asset_id, created, author_kind, author_name, changes, name, language, tags, content_hash, size, description_hash, restored_from)
          SELECT r.id || '.' || c.n, r.asset_id || '.' || c.n, created, author_kind, author_name, changes, name, language, tags, content_hash, size, description_hash, restored_from
          FROM revisions r JOIN seeds s ON s.id = r.asset_id, copies c`);
    db.exec('COMMIT');
  } finally {
    db.close();
  }
  return dataDir;
}

function trashCount(file: string): { entries: number; revisions: number } {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    return { entries: count('SELECT count(*) AS n FROM trash'), revisions: count('SELECT count(*) AS n FROM revisions') };
  } finally {
    db.close();
  }
}

test(`emptying a trash of ${ENTRIES} assets on a host process keeps health answering`, { timeout: 600_000 }, async () => {
  const dataDir = await grownTrash();
  const file = join(dataDir, DATABASE_FILE);
  assert.equal(trashCount(file).entries, Math.ceil(ENTRIES / SEEDS) * SEEDS);
  const host = new HostProcess(dataDir);
  try {
    const { port } = await host.waitFor('serving', 30_000);
    const probe = probeHealth(port!);
    const started = performance.now();
    const reply = await raw(port!, { method: 'POST', path: '/satchel/trash/empty', timeoutMs: 540_000 });
    const ms = performance.now() - started;
    const health = await probe.stop();
    assert.equal(reply.status, 200, reply.text.slice(0, 300));
    const lines = reply.text.trim().split('\n').map((line) => JSON.parse(line) as { emptied?: { deleted: number; backup?: string }; progress?: unknown });
    const emptied = lines.at(-1)?.emptied;
    assert.ok(emptied, reply.text.slice(-300));
    assert.equal(emptied.deleted, Math.ceil(ENTRIES / SEEDS) * SEEDS);
    assert.ok(emptied.backup, 'emptying the whole library took a backup first');
    assert.equal(health.failures, 0);
    figures('trash-empty', { entries: emptied.deleted, ms: Math.round(ms), per_s: Math.round(emptied.deleted / (ms / 1000)), progress_lines: lines.length - 1, health_slowest_ms: health.slowest, health_median_ms: health.median });
    assert.ok(health.slowest < 1000, `health waited ${health.slowest} ms while the trash was emptied`);
    await host.kill('SIGTERM');
    assert.deepEqual(trashCount(file), { entries: 0, revisions: 0 }, 'every entry went with its revisions');
    assertIntegrity(file);
  } finally {
    await host.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test(`the retention pass purging ${ENTRIES} expired assets in the background keeps health answering`, { timeout: 600_000 }, async () => {
  const dataDir = await grownTrash();
  const file = join(dataDir, DATABASE_FILE);
  // The host's clock is three days ahead: a one-day retention has expired every entry.
  const host = await startTestServer({ dataDir, trash: { retentionDays: 1, firstPassMs: 500, now: () => Date.now() + 3 * DAY } });
  const port = Number(new URL(host.url).port);
  try {
    const probe = probeHealth(port);
    const started = performance.now();
    while (host.core.trash.list({ limit: 1 }).total > 0) await sleep(100);
    const ms = performance.now() - started - 500;
    const health = await probe.stop();
    assert.equal(health.failures, 0);
    figures('trash-retention', { entries: Math.ceil(ENTRIES / SEEDS) * SEEDS, ms: Math.round(ms), per_s: Math.round((Math.ceil(ENTRIES / SEEDS) * SEEDS) / (ms / 1000)), health_slowest_ms: health.slowest, health_median_ms: health.median });
    assert.ok(health.slowest < 1000, `health waited ${health.slowest} ms while expired entries were purged`);
  } finally {
    await host.close();
  }
  assert.deepEqual(trashCount(file), { entries: 0, revisions: 0 });
  assertIntegrity(file);
  rmSync(dataDir, { recursive: true, force: true });
});
