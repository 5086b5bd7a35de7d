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
import { DATABASE_FILE } from '../../src/core/store/database.ts';
import { startTestServer } from '../support/helpers.ts';
import { HostProcess, assertIntegrity, figures, raw, sleep } from './support.ts';
import { probeHealth, waitedOf } from './healthProbe.ts';
import { SEEDS, grownTrash } from './grownTrash.ts';

const ENTRIES = Number(process.env.SATCHEL_TRASH_PURGE_ENTRIES ?? 20_000);
const DAY = 24 * 60 * 60 * 1000;

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
  const dataDir = await grownTrash(ENTRIES);
  const file = join(dataDir, DATABASE_FILE);
  assert.equal(trashCount(file).entries, Math.ceil(ENTRIES / SEEDS) * SEEDS);
  const host = new HostProcess(dataDir);
  try {
    const { port } = await host.waitFor('serving', 30_000);
    const probe = probeHealth(port!, host);
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
    figures('trash-empty', { entries: emptied.deleted, ms: Math.round(ms), per_s: Math.round(emptied.deleted / (ms / 1000)), progress_lines: lines.length - 1, health_slowest_ms: health.slowest, health_median_ms: health.median, loop_held_ms: health.held ?? -1 });
    assert.ok(health.held !== undefined && waitedOf(health) < 1000, `health waited ${waitedOf(health)} ms for the host while the trash was emptied (its event loop held ${health.held} ms; health's slowest answer ${health.slowest} ms)`);
    await host.kill('SIGTERM');
    assert.deepEqual(trashCount(file), { entries: 0, revisions: 0 }, 'every entry went with its revisions');
    assertIntegrity(file);
  } finally {
    await host.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test(`the retention pass purging ${ENTRIES} expired assets in the background keeps health answering`, { timeout: 600_000 }, async () => {
  const dataDir = await grownTrash(ENTRIES);
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
