/**
 * Listings of a store of a million assets (issue 26): GET /assets/identifiers, GET /assets/pseudo
 * and the identifiers stream's snapshot answer every id, and GET /assets and GET /formats start
 * answering, while health answers within 1 s. Rows are read along the listing index a chunk per
 * statement and replies are sent a page at a time: reading every row first held the event loop
 * 10 s (identifiers) and 4.8 s before the first asset of GET /assets.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Satchel } from '../../src/core/satchel.ts';
import { tempDir } from '../support/helpers.ts';
import { HostProcess, figures, sleep } from './support.ts';
import { probeHealth, waitedOf } from './healthProbe.ts';
import { seed } from './writes.ts';
import { TEST_AUTHOR } from '../support/authors.ts';

const ASSETS = 1_000_000;
/** Every tenth asset is pseudo. */
const PSEUDO = ASSETS / 10;
/** The newest rows carry real documents; the listings below never read further than these. */
const DOCUMENTS = 1000;
let dataDir = '';
let host: HostProcess;
let port = 0;

before(async () => {
  dataDir = tempDir('satchel-rel-many-');
  const started = performance.now();
  // Two assets made the ordinary way are the templates of a million rows inserted in SQL, with
  // their fingerprint records (so the host's start finds its index complete): creating them
  // through the API would take an hour. Rows past the newest DOCUMENTS hold a document with no
  // formats, a few bytes instead of a kilobyte: the listings read their ids and sizes only.
  const core = Satchel.open({ dataDir });
  const ordinary = await core.assets.writes.create(seed('const listed = 1;') as never, { author: TEST_AUTHOR });
  const pseudoSeed = seed('const hidden = 2;') as { asset: Record<string, unknown> };
  pseudoSeed.asset.pseudo = true;
  const pseudo = await core.assets.writes.create(pseudoSeed as never, { author: TEST_AUTHOR });
  await core.close();
  const db = new DatabaseSync(join(dataDir, 'satchel.db'));
  try {
    db.exec('PRAGMA synchronous = OFF; BEGIN');
    db.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?),
         t AS (SELECT id AS template, data, pseudo FROM assets)
       INSERT INTO assets (id, created, updated, pseudo, suggested, name, language, data, keywords)
       SELECT printf('00000000-0000-4000-8000-%012d', i), strftime('%Y-%m-%dT%H:%M:%fZ', 1700000000 + i, 'unixepoch'),
         strftime('%Y-%m-%dT%H:%M:%fZ', 1700000000 + i, 'unixepoch'), t.pseudo, 0, 'bulk ' || i, 'ts',
         CASE WHEN i > ? THEN json_set(t.data, '$.id', printf('00000000-0000-4000-8000-%012d', i)) ELSE '{"formats":{"iterable":[]}}' END, ''
       FROM n JOIN t ON t.template = CASE WHEN i % 10 = 0 THEN ? ELSE ? END`,
    ).run(ASSETS, ASSETS - DOCUMENTS, pseudo.id, ordinary.id);
    db.prepare(
      `INSERT INTO connector_fp_docs (asset_id, text_hash, hashes, count)
       SELECT a.id, f.text_hash, f.hashes, f.count FROM assets a JOIN connector_fp_docs f ON f.asset_id = ? WHERE a.rowid > 2`,
    ).run(ordinary.id);
    db.exec('COMMIT');
  } finally {
    db.close();
  }
  figures('many-assets-fixture', { assets: ASSETS + 2, ms: Math.round(performance.now() - started) });
  host = new HostProcess(dataDir);
  port = (await host.waitFor('serving', 60_000)).port!;
});

after(async () => {
  await host?.kill();
  rmSync(dataDir, { recursive: true, force: true });
});

/**
 * A GET whose reply is counted as it comes (ids, bytes, its end), never parsed whole: parsing
 * 40 MB here would hold this process's event loop, where health is probed. With `upTo`, the
 * reply is dropped after that many bytes (a listing's start).
 */
function get(path: string, upTo = Infinity): Promise<{ status: number; bytes: number; ids: number; firstByteMs: number; ms: number; tail: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = httpRequest({ host: '127.0.0.1', port, path, headers: { host: `127.0.0.1:${port}` }, agent: false }, (res) => {
      let bytes = 0;
      let ids = 0;
      let firstByteMs = 0;
      let tail = '';
      const done = () => resolve({ status: res.statusCode ?? 0, bytes, ids, firstByteMs, ms: Math.round(performance.now() - started), tail: tail.slice(-64) });
      res.on('data', (chunk: Buffer) => {
        if (bytes === 0) firstByteMs = Math.round(performance.now() - started);
        // An id entry is `{"id":"…"}`; the stream's is `{"asset":{"id":"…"}}`. The carried tail catches one cut between chunks.
        const text = tail + chunk.toString('latin1');
        ids += (text.match(/\{"id":"[^"]{36}"\}/g) ?? []).length - (tail.match(/\{"id":"[^"]{36}"\}/g) ?? []).length;
        tail = text.slice(-64);
        bytes += chunk.length;
        if (bytes >= upTo) {
          res.destroy();
          done();
        }
      });
      res.on('end', done);
      res.on('error', reject);
    });
    req.setTimeout(120_000, () => req.destroy(new Error(`timeout GET ${path}`)));
    req.on('error', reject);
    req.end();
  });
}

test('id listings answer every id of a million assets while health answers within 1 s', async () => {
  const cases: Array<[string, number, RegExp]> = [
    ['/assets/identifiers', ASSETS - PSEUDO + 1, /\]\}$/],
    ['/assets/identifiers?pseudo=true', ASSETS + 2, /\]\}$/],
    ['/assets/pseudo', PSEUDO + 1, /\]\}\}$/],
    // The identifiers stream's connect frame, as its plain GET answers it.
    ['/assets/stream/identifiers', ASSETS - PSEUDO + 1, /\]\}$/],
  ];
  const wrong: string[] = [];
  for (const [path, expected, end] of cases) {
    const probe = probeHealth(port, host);
    await sleep(300);
    const reply = await get(path);
    await sleep(300);
    const health = await probe.stop();
    figures('many-assets-ids', { path, status: reply.status, ids: reply.ids, mib: Math.round(reply.bytes / 1024 / 1024), ms: reply.ms, health_slowest_ms: health.slowest, loop_held_ms: health.held ?? -1 });
    if (reply.status !== 200 || reply.ids !== expected || !end.test(reply.tail)) wrong.push(`${path}: ${reply.status}, ${reply.ids} ids (${expected} expected), ends ${reply.tail}`);
    if (health.failures > 0 || waitedOf(health) >= 1000) wrong.push(`${path}: health waited ${waitedOf(health)} ms (round trip ${health.slowest} ms), failed ${health.failures} times`);
  }
  assert.deepEqual(wrong, []);
});

test('GET /assets and GET /formats start answering at once in a store of a million assets', async () => {
  const wrong: string[] = [];
  for (const path of ['/assets?transferables=false', '/assets?transferables=false&pseudo=true', '/assets', '/formats?transferables=false']) {
    const probe = probeHealth(port, host);
    await sleep(300);
    // The first 256 KiB: a few pages of assets. Their whole listing is GET /assets's own test (largeStore).
    const reply = await get(path, 256 * 1024);
    await sleep(300);
    const health = await probe.stop();
    figures('many-assets-listing-start', { path, status: reply.status, kib: Math.round(reply.bytes / 1024), first_byte_ms: reply.firstByteMs, health_slowest_ms: health.slowest, loop_held_ms: health.held ?? -1 });
    if (reply.status !== 200 || reply.bytes < 256 * 1024) wrong.push(`${path}: ${reply.status} after ${reply.bytes} bytes`);
    if (health.failures > 0 || waitedOf(health) >= 1000) wrong.push(`${path}: health waited ${waitedOf(health)} ms (round trip ${health.slowest} ms), failed ${health.failures} times`);
  }
  assert.deepEqual(wrong, []);
});
