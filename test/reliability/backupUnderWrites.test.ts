/**
 * Issue 24: a backup taken during 100 writes/s opens and holds every write acknowledged before it
 * started, while health keeps answering. A host process (the shipped CLI) serves a store of about
 * 600 MB; this process creates an asset every 10 ms through the host's HTTP edge and notes each id
 * the host acknowledges; `satchel backup` (another process, through the host) copies the store into
 * the backups folder meanwhile. The copy must pass its integrity check and hold every id acknowledged before the
 * command was started; health is probed throughout.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { tempDir } from '../support/helpers.ts';
import { HostProcess, ensureCliBuilt, figures, sleep } from './support.ts';
import { probeHealth, waitedOf } from './healthProbe.ts';
import { grownStore } from './grownRows.ts';
import { createAsset } from './writes.ts';

/**
 * Padding grown in SQL (1 MiB rows of random hex): the copy takes seconds, so writes land during it,
 * and a copy that held the event loop would show in health (VACUUM INTO on the loop held it 3.4 s
 * here; the stepped copy's slowest health answer was 0.4-0.5 s under the same load).
 */
const PADDING_MIB = 600;
const WRITE_INTERVAL_MS = 10;

let dataDir = '';
let host: HostProcess;
let port = 0;

before(async () => {
  dataDir = tempDir('satchel-rel-backup-');
  const snippets = Array.from({ length: 5 }, (_, i) => ({ text: `export const before${i} = ${i};` }));
  await grownStore(dataDir, snippets, (db) => {
    db.exec('BEGIN');
    const insert = db.prepare("INSERT INTO meta (key, value) VALUES (?, hex(randomblob(524288)))");
    for (let i = 0; i < PADDING_MIB; i++) insert.run(`reliability-padding-${i}`);
    db.exec('COMMIT');
  });
  host = new HostProcess(dataDir);
  port = (await host.waitFor('serving')).port!;
});

after(async () => {
  await host?.kill();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Runs `satchel backup --data-dir D` with the shipped CLI; resolves with its exit code and output. */
function backupCommand(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [ensureCliBuilt(), 'backup', '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

test('a backup taken during 100 writes/s holds every write acknowledged before it started, and health keeps answering', { timeout: 180_000 }, async () => {
  const acknowledged: Array<{ id: string; at: number }> = [];
  const failures: string[] = [];
  const inFlight = new Set<Promise<void>>();
  let n = 0;
  const writer = setInterval(() => {
    const write = createAsset(port, `export const underBackup${n} = ${n}; // ${'x'.repeat(200)}`, `under backup ${n++}`).then(
      (id) => void acknowledged.push({ id, at: performance.now() }),
      (error: Error) => void failures.push(error.message),
    );
    inFlight.add(write);
    void write.finally(() => inFlight.delete(write));
  }, WRITE_INTERVAL_MS);

  // Two seconds of writes first (health probed meanwhile, for comparison), then the backup, with
  // writes going on all along.
  await sleep(500);
  const baseline = probeHealth(port, host);
  await sleep(1500);
  const unloaded = await baseline.stop();
  const health = probeHealth(port, host);
  const started = performance.now();
  const ackedBefore = acknowledged.map((write) => write.id);
  const result = await backupCommand();
  const finished = performance.now();
  const probed = await health.stop();
  await sleep(500);
  clearInterval(writer);
  await Promise.all(inFlight);

  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /through the Satchel host/);
  const file = / to (\S+\.db)$/m.exec(result.stdout)?.[1];
  assert.ok(file, result.stdout);
  const during = acknowledged.filter((write) => write.at > started && write.at < finished).length;
  const copy = new DatabaseSync(file, { readOnly: true });
  let missing: string[];
  let copied: number;
  try {
    assert.deepEqual({ ...copy.prepare('PRAGMA integrity_check').get() }, { integrity_check: 'ok' });
    const have = new Set((copy.prepare('SELECT id FROM assets').all() as Array<{ id: string }>).map((row) => row.id));
    copied = have.size;
    missing = ackedBefore.filter((id) => !have.has(id));
  } finally {
    copy.close();
  }
  const seconds = (finished - started) / 1000;
  figures('backup.under-writes', {
    store_mb: Math.round(statSync(join(dataDir, 'satchel.db')).size / 1024 / 1024),
    copy_mb: Math.round(statSync(file).size / 1024 / 1024),
    command_ms: Math.round(finished - started),
    host_copy_s: /, ([\d.]+) s\)/.exec(result.stdout)?.[1] ?? '?',
    writes_per_s: Math.round(during / seconds),
    acked_before: ackedBefore.length,
    acked_during: during,
    assets_in_copy: copied,
    missing: missing.length,
    write_failures: failures.length,
    health_slowest_ms: probed.slowest,
    health_probes: probed.probes,
    health_failures: probed.failures,
    health_slowest_before_ms: unloaded.slowest,
  });
  assert.deepEqual(missing, [], 'every write acknowledged before the backup started is in it');
  assert.ok(ackedBefore.length >= 80, `writes were going on before the backup (${ackedBefore.length})`);
  assert.ok(during >= 20, `writes were acknowledged while the backup ran (${during})`);
  assert.deepEqual(failures, []);
  assert.equal(probed.failures, 0);
  assert.ok(waitedOf(probed) < 1500, `health answered within 1.5 s throughout (slowest ${waitedOf(probed)} ms (round trip ${probed.slowest} ms))`);
});
