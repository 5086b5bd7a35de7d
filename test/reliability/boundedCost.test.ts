/**
 * Bounded cost at the HTTP edge (issue 18 rows 7 and 8, issue 13 A.3/A.4): a body near the limit
 * is answered in bounded time while health keeps answering; stalled uploads are cut off and their
 * memory returned; the bytes all bodies hold at once are capped; SIGTERM ends the host within 2 s
 * even while a large body is being handled.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tempDir } from '../support/helpers.ts';
import { rawUpload } from '../support/rawUpload.ts';
import { HostProcess, figures, jsonErrorCode, processMemory, raw, sleep } from './support.ts';
import { LIMITS } from '../../src/core/limits.ts';
import { probeHealth, waitedOf } from './healthProbe.ts';
import { seed } from './writes.ts';

/** Resident memory of a process in MiB. */
function rssMiB(pid: number): number {
  return processMemory(pid).rss_mib;
}

/** A large asset seed of about `bytes` bytes of code. */
function largeSeed(bytes: number): Buffer {
  const line = 'const value_0123456789 = compute(alpha, beta, gamma); // padding\n';
  return Buffer.from(JSON.stringify(seed(line.repeat(Math.ceil(bytes / line.length)))));
}

/** One large request while health is polled; the reply, its time and the slowest health answer. */
async function whileProbing(host: HostProcess, port: number, path: string, body: Buffer): Promise<{ status: number; text: string; ms: number; slowest: number; held: number; waited: number; failures: number }> {
  const probe = probeHealth(port, host);
  await sleep(300);
  const started = performance.now();
  const reply = await raw(port, { method: 'POST', path, headers: { 'content-type': 'application/json' }, body, timeoutMs: 120_000 });
  const ms = Math.round(performance.now() - started);
  await sleep(300);
  const health = await probe.stop();
  return { status: reply.status, text: reply.text, ms, slowest: health.slowest, held: health.held ?? -1, waited: waitedOf(health), failures: health.failures };
}

test('60 MB bodies costly to parse are parsed off the event loop or refused: health answers within 1 s meanwhile', async () => {
  const host = new HostProcess(tempDir('satchel-rel-cost-'));
  try {
    const { port } = await host.waitFor('serving');
    // Valid searches whose bodies are mostly a field no route reads, so the cost is the parse:
    // fifteen million numbers (the shape of TransferableBytes) and ten million short strings (the
    // costliest JSON per byte, ~1 s of parsing plus as much again to hand over between threads).
    const bodies = {
      numbers: `{"query":"compute","padding":[${Array.from({ length: 15_000_000 }, (_, i) => i % 256).join(',')}]}`,
      strings: `{"query":"compute","padding":[${Array(10_000_000).fill('"abc"').join(',')}]}`,
    };
    for (const [shape, text] of Object.entries(bodies)) {
      const body = Buffer.from(text);
      const result = await whileProbing(host, port!, '/assets/search?transferables=false', body);
      figures('large-body-parse', { shape, bytes: body.length, status: result.status, ms: result.ms, health_slowest_ms: result.slowest, loop_held_ms: result.held });
      if (shape === 'numbers') assert.equal(result.status, 200, result.text.slice(0, 200));
      else assert.ok(result.status === 200 || result.status === 413, `${shape}: ${result.status} ${result.text.slice(0, 200)}`);
      assert.equal(result.failures, 0);
      assert.ok(result.waited < 1000, `${shape}: health waited ${result.waited} ms (round trip ${result.slowest} ms) behind the body`);
    }
  } finally {
    await host.kill();
  }
});

test(
  'a 60 MB asset is refused at once (413 too_large, nothing stored) and one at the content limit is stored, while health answers within 1 s',
  // Parsing is off the loop (above); the content limit (core/limits.ts) is checked before any other
  // work, and indexing reads a bounded prefix of what is stored (search/bounds.ts).
  async () => {
    const host = new HostProcess(tempDir('satchel-rel-cost-'));
    try {
      const { port } = await host.waitFor('serving');
      const body = largeSeed(60 * 1024 * 1024);
      const refused = await whileProbing(host, port!, '/assets/create?transferables=false', body);
      figures('large-asset-refused', { bytes: body.length, status: refused.status, ms: refused.ms, health_slowest_ms: refused.slowest });
      assert.equal(refused.status, 413, refused.text.slice(0, 200));
      assert.equal(jsonErrorCode({ json: JSON.parse(refused.text) as unknown }), 'too_large');
      assert.match(refused.text, /the limit is 4,194,304/);
      // The 64 MiB body limit still lets the body through to the check: it is parsed, then refused.
      assert.ok(refused.ms < 30_000, `answered after ${refused.ms} ms`);
      assert.equal(refused.failures, 0);
      assert.ok(refused.waited < 1000, `health waited ${refused.waited} ms (round trip ${refused.slowest} ms) behind the refused body`);
      const listed = await raw(port!, { path: '/assets/identifiers' });
      assert.deepEqual((listed.json as { iterable: unknown[] }).iterable, [], 'nothing stored');

      const atLimit = Buffer.from(JSON.stringify(seed('x'.repeat(LIMITS.contentChars))));
      const stored = await whileProbing(host, port!, '/assets/create?transferables=false', atLimit);
      figures('limit-asset', { bytes: atLimit.length, status: stored.status, ms: stored.ms, health_slowest_ms: stored.slowest });
      assert.equal(stored.status, 200, stored.text.slice(0, 200));
      assert.ok(stored.ms < 60_000, `answered after ${stored.ms} ms`);
      assert.equal(stored.failures, 0);
      assert.ok(stored.waited < 1000, `health waited ${stored.waited} ms (round trip ${stored.slowest} ms) behind the asset at the limit`);
    } finally {
      await host.kill();
    }
  },
);

test('a seed of 15 million bytes is refused (413 too_large) before it reaches the event loop: health answers within 1 s', async () => {
  // The JSON worker checks a large seed with core's first checks (core/assets/seedChecks.ts), so the
  // bytes are refused there, not structured-cloned to the loop and decoded there to be refused.
  const host = new HostProcess(tempDir('satchel-rel-cost-'));
  try {
    const { port } = await host.waitFor('serving');
    const raw = Array.from({ length: 15_000_000 }, (_, i) => i % 256).join(',');
    const body = Buffer.from(`{"type":"SEEDED_ASSET","asset":{"format":{"fragment":{"bytes":{"raw":[${raw}]}}}}}`);
    const result = await whileProbing(host, port!, '/assets/create?transferables=false', body);
    figures('large-bytes-seed', { bytes: body.length, status: result.status, ms: result.ms, health_slowest_ms: result.slowest, loop_held_ms: result.held });
    assert.equal(result.status, 413, result.text.slice(0, 200));
    assert.match(result.text, /binary content has 15,000,000 bytes; the limit is 8,388,608/);
    assert.equal(result.failures, 0);
    assert.ok(result.waited < 1000, `health waited ${result.waited} ms (round trip ${result.slowest} ms) behind the seed`);
  } finally {
    await host.kill();
  }
});

test('stalled uploads are cut off, and all bodies in flight together hold a bounded number of bytes', async () => {
  const host = new HostProcess(tempDir('satchel-rel-cost-'));
  try {
    const { port } = await host.waitFor('serving');
    const rssBefore = rssMiB(host.pid);
    const probe = probeHealth(port!, host);
    const uploads = Array.from({ length: 12 }, () => rawUpload({ port: port!, declared: 62 * 1024 * 1024, sent: 60 * 1024 * 1024, giveUpMs: 90_000 }));
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(host.pid))), 200);
    const results = await Promise.all(uploads);
    clearInterval(sampler);
    // The budget is free again: a new body is received and answered.
    const after = await raw(port!, {
      method: 'POST',
      path: '/assets/create?transferables=false',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(seed('const after = 1;')),
    });
    const health = await probe.stop();
    const refused = results.filter((r) => r.status === 503).length;
    const timedOut = results.filter((r) => r.status === 408).length;
    const slowestClose = Math.max(...results.map((r) => r.closedAfterMs));
    figures('stalled-uploads', {
      uploads: results.length,
      refused_503: refused,
      timed_out_408: timedOut,
      slowest_close_ms: slowestClose,
      rss_before_mib: rssBefore,
      rss_peak_mib: peak,
      health_slowest_ms: health.slowest, loop_held_ms: health.held ?? -1,
    });
    assert.ok(results.every((r) => r.status === 503 || r.status === 408), `statuses ${results.map((r) => r.status).join(',')}`);
    assert.ok(refused > 0, 'beyond the in-flight budget uploads are refused at once');
    assert.ok(slowestClose < 60_000, `a stalled upload kept its connection for ${slowestClose} ms`);
    assert.ok(peak - rssBefore < 700, `the host grew by ${peak - rssBefore} MiB for 12 stalled 60 MB uploads`);
    assert.equal(after.status, 200, after.text.slice(0, 200));
    assert.equal(health.failures, 0);
    assert.ok(waitedOf(health) < 1000, `health waited ${waitedOf(health)} ms (round trip ${health.slowest} ms)`);
  } finally {
    await host.kill();
  }
});

test('SIGTERM ends the host within 2 s while large bodies are being received and parsed', async () => {
  const host = new HostProcess(tempDir('satchel-rel-cost-'));
  const { port } = await host.waitFor('serving');
  const stalled = rawUpload({ port: port!, declared: 62 * 1024 * 1024, sent: 30 * 1024 * 1024, giveUpMs: 30_000 });
  const parsing = raw(port!, {
    method: 'POST',
    path: '/assets/search?transferables=false',
    headers: { 'content-type': 'application/json' },
    body: `{"query":"compute","padding":[${Array.from({ length: 15_000_000 }, (_, i) => i % 256).join(',')}]}`,
    timeoutMs: 30_000,
  }).catch(() => undefined);
  await sleep(400);
  const started = performance.now();
  host.child.kill('SIGTERM');
  const exit = await host.exited;
  const ms = Math.round(performance.now() - started);
  await Promise.all([stalled, parsing]);
  figures('sigterm-under-load', { ms, code: String(exit.code), signal: String(exit.signal) });
  assert.equal(exit.code, 0, `exit ${exit.code} ${exit.signal} ${host.stderr}`);
  assert.ok(ms < 2000, `the host took ${ms} ms to stop`);
});
