/**
 * A store holding more content than one JavaScript string can (issue 18 row 8): nine assets of
 * 60 MB, 540 MB in all. Listing, the transferables snapshot and an empty search answer 200 with
 * every asset (they were 500 "Invalid string length"), and transferables=false never reads the
 * content (it took 8 s and 4 GB to parse content only to drop it).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Satchel } from '../../src/core/satchel.ts';
import { tempDir } from '../helpers.ts';
import { HostProcess, figures, raw } from './support.ts';
import { probeHealth } from './healthProbe.ts';
import { seed } from './writes.ts';

const ASSETS = 9;
const CONTENT = 60 * 1024 * 1024;
let dataDir = '';
let host: HostProcess;
let port = 0;

before(async () => {
  dataDir = tempDir('satchel-rel-large-');
  // Small assets made the ordinary way, then grown in SQL: creating 540 MB through the API would
  // spend minutes indexing what this test does not search (the indexes keep the small content).
  const core = Satchel.open({ dataDir });
  const ids: string[] = [];
  for (let i = 0; i < ASSETS; i++) ids.push((await core.assets.create(seed(`const seed${i} = ${i};`) as never)).id);
  await core.close();
  const db = new DatabaseSync(join(dataDir, 'satchel.db'));
  try {
    const line = 'const value_0123456789 = compute(alpha, beta, gamma); // padding\n';
    const content = line.repeat(Math.ceil(CONTENT / line.length));
    const grow = db.prepare(`UPDATE assets SET data = json_set(data, '$.formats.iterable[0].fragment.string.raw', ?) WHERE id = ?`);
    for (const id of ids) grow.run(content, id);
  } finally {
    db.close();
  }
  host = new HostProcess(dataDir);
  port = (await host.waitFor('serving')).port!;
});

after(async () => {
  await host?.kill();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Streams a reply, keeping only its size, its status and its last bytes. */
function measure(method: string, path: string, body?: string): Promise<{ status: number; bytes: number; tail: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = httpRequest(
      { host: '127.0.0.1', port, method, path, headers: { host: `127.0.0.1:${port}`, ...(body ? { 'content-type': 'application/json' } : {}) } },
      (res) => {
        let bytes = 0;
        let tail = '';
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          tail = (tail + chunk.subarray(Math.max(0, chunk.length - 64)).toString('latin1')).slice(-64);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, tail, ms: Math.round(performance.now() - started) }));
        res.on('error', reject);
      },
    );
    req.setTimeout(180_000, () => req.destroy(new Error(`timeout ${method} ${path}`)));
    req.on('error', reject);
    req.end(body);
  });
}

test('transferables=false lists every asset without reading content into JavaScript', async () => {
  // In-process, so what is parsed can be watched: no string near an asset's content size may be.
  const core = Satchel.open({ dataDir });
  const parse = JSON.parse;
  let largest = 0;
  JSON.parse = ((text: string, reviver?: Parameters<typeof parse>[1]) => {
    largest = Math.max(largest, text.length);
    return parse(text, reviver);
  }) as typeof JSON.parse;
  let listed: unknown[];
  const started = performance.now();
  try {
    listed = core.assets.list({ transferables: false });
  } finally {
    JSON.parse = parse;
    await core.close();
  }
  const ms = Math.round(performance.now() - started);
  figures('large-store-list-no-content', { assets: listed.length, largest_parsed_bytes: largest, ms });
  assert.equal(listed.length, ASSETS);
  assert.ok(largest < 1024 * 1024, `a ${largest}-character document was parsed to list without content`);
  assert.ok(!JSON.stringify(listed).includes('compute(alpha'), 'content leaked into a transferables=false listing');
  const reply = await raw(port, { path: '/assets?transferables=false', timeoutMs: 60_000 });
  assert.equal(reply.status, 200, reply.text.slice(0, 200));
  assert.equal(((reply.json as { iterable?: unknown[] }).iterable ?? []).length, ASSETS);
});

test('GET /assets, the transferables snapshot and an empty search answer with all 540 MB', async () => {
  const cases: Array<[string, string, string | undefined]> = [
    ['GET', '/assets', undefined],
    ['GET', '/assets/stream/transferables', undefined],
    ['POST', '/assets/search', '{}'],
  ];
  for (const [method, path, body] of cases) {
    const probe = probeHealth(port);
    const result = await measure(method, path, body);
    const health = await probe.stop();
    figures('large-store-reply', {
      path: `${method} ${path}`,
      status: result.status,
      mib: Math.round(result.bytes / 1024 / 1024),
      ms: result.ms,
      health_slowest_ms: health.slowest,
    });
    // Listings are streamed a page at a time; the search still builds its reply at once.
    if (method === 'GET') assert.ok(health.slowest < 1000, `health waited ${health.slowest} ms behind GET ${path}`);
    assert.equal(result.status, 200, `${method} ${path}: ${result.tail}`);
    assert.ok(result.bytes > ASSETS * CONTENT, `${method} ${path} answered ${result.bytes} bytes`);
    assert.match(result.tail, /\}$/);
  }
});
