/**
 * Imports queued behind a long one hold their request bodies (issue 26 row 3: 85 queued 64 MB
 * imports whose clients had left took the host from 361 MB to 4.2 GB, its heap limit 4.3 GB). Now
 * a queued import whose client leaves lets go of its body at once, and the bodies of queued
 * imports count against the host's 256 MiB in-flight budget until their imports end: beyond it,
 * 503 with Retry-After.
 *
 * Scaled down: the host runs with a 640 MiB heap, and twenty 40 MiB imports whose clients leave
 * (800 MiB) are sent behind one held by stopping the import process (SIGSTOP) once it has begun,
 * as an import of a million snippets would hold the queue, without the minutes of CPU. Bodies let
 * go of are garbage the heap collects; bodies kept exhaust it. RSS alone cannot tell the two apart
 * on an idle host (neither is collected until the heap is under pressure).
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { rmSync } from 'node:fs';
import { tempDir } from '../support/helpers.ts';
import { childRunning } from '../support/processes.ts';
import { HostProcess, figures, processMemory, sleep } from './support.ts';
import { probeHealth } from './healthProbe.ts';

const MIB = 1024 * 1024;
const HEAP_LIMIT_MIB = 640;
/** Each queued import's body: well under the body limit; six fit the 256 MiB budget. */
const BODY_MIB = 40;
const LEAVING = 20;
const STAYING = 9;

let dataDir = '';
let host: HostProcess;
let port = 0;
let importProcess: number | undefined;

async function startHost(execArgv: readonly string[] = []): Promise<void> {
  dataDir = tempDir('satchel-rel-budget-');
  host = new HostProcess(dataDir, execArgv);
  port = (await host.waitFor('serving')).port!;
}

after(async () => {
  await stopHost();
});

async function stopHost(): Promise<void> {
  if (importProcess !== undefined) {
    try {
      process.kill(importProcess, 'SIGCONT');
    } catch {
      // It ended with the host.
    }
    importProcess = undefined;
  }
  await host?.kill();
  rmSync(dataDir, { recursive: true, force: true });
}

/** The body of an import of one large file (its text is never read: the import stays queued). */
const BIG_BODY = Buffer.from(JSON.stringify({ files: [{ name: 'big.code-snippets', content: 'x'.repeat(BODY_MIB * MIB) }] }));

interface Sent {
  readonly req: ClientRequest;
  /** The reply's status once one came (a queued import's reply begins with its first batch). */
  status?: number;
  /** The connection failed: a refusal closes it before the whole body is read. */
  failed?: boolean;
}

/** Sends an import and resolves once its body is sent; the connection stays open. */
function sendImport(body: Buffer): Promise<Sent> {
  return new Promise((resolve) => {
    const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/satchel/import', agent: false, headers: { 'content-type': 'application/json', 'content-length': body.length } }, (res) => {
      sent.status = res.statusCode;
      res.resume();
    });
    const sent: Sent = { req };
    req.on('error', () => {
      sent.failed = true;
      resolve(sent);
    });
    req.end(body, () => resolve(sent));
  });
}

const rss = (): number => (host.alive ? processMemory(host.pid).rss_mib : 0);

/** Starts an import of many small batches and stops its process as soon as it runs: the queue behind it waits. */
async function holdTheQueue(): Promise<Sent> {
  const front = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`Front ${i}`, { scope: 'javascript', prefix: `f${i}`, body: `const front${i} = ${i};` }]));
  const sent = await sendImport(Buffer.from(JSON.stringify({ files: [{ name: 'front.code-snippets', content: JSON.stringify(front) }], batchSize: 50 })));
  for (let waited = 0; importProcess === undefined && waited < 20_000; waited += 10) {
    importProcess = childRunning(host.pid, /importHost/);
    if (importProcess === undefined) await sleep(10);
  }
  assert.ok(importProcess !== undefined, 'the import process started');
  process.kill(importProcess, 'SIGSTOP');
  return sent;
}

test('queued imports whose clients left let go of their bodies: twenty 40 MiB ones fit a 640 MiB heap', async () => {
  await startHost([`--max-old-space-size=${HEAP_LIMIT_MIB}`]);
  const front = await holdTheQueue();
  const probe = probeHealth(port, host);
  try {
    const baseline = rss();
    let peak = baseline;
    let accepted = 0;
    // Clients that leave once their upload is in (a client leaving mid-parse is imports.test.ts's).
    for (let i = 0; i < LEAVING && host.alive; i++) {
      const sent = await sendImport(BIG_BODY);
      await sleep(400);
      if (!sent.failed && sent.status === undefined) accepted++;
      sent.req.destroy();
      peak = Math.max(peak, rss());
      // Bodies still being parsed count against the budget: a pause keeps this about the queue.
      await sleep(400);
    }
    const cancelledCount = (): number => host.stdout.match(/Import cancelled/g)?.length ?? 0;
    for (let waited = 0; cancelledCount() < accepted && host.alive && waited < 3000; waited += 100) await sleep(100);
    const alive = host.alive;
    const health = await probe.stop();
    const cancelled = cancelledCount();
    figures('import-budget-leaving', {
      heap_limit_mib: HEAP_LIMIT_MIB,
      body_mib: BODY_MIB,
      sent: LEAVING,
      accepted,
      cancelled_while_queued: cancelled,
      rss_start_mib: baseline,
      rss_peak_mib: peak,
      health_max_ms: health.slowest,
      loop_held_ms: health.held ?? -1,
    });
    assert.ok(alive, `the host ran out of memory with queued imports whose clients had left: ${host.stderr.slice(0, 600)}`);
    assert.ok(accepted * BODY_MIB > HEAP_LIMIT_MIB, `${accepted} imports were queued: more than the heap could keep`);
    assert.ok(cancelled >= accepted, `${cancelled} of ${accepted} queued imports were cancelled when their clients left`);
    assert.equal(health.failures, 0);
    front.req.destroy();
  } finally {
    await probe.stop();
    await stopHost();
  }
});

test('queued imports whose clients stay hold the body budget: beyond 256 MiB of them, 503', async () => {
  await startHost();
  const front = await holdTheQueue();
  const probe = probeHealth(port, host);
  const staying: Sent[] = [];
  try {
    const baseline = rss();
    let peak = baseline;
    for (let i = 0; i < STAYING; i++) {
      staying.push(await sendImport(BIG_BODY));
      await sleep(400);
      peak = Math.max(peak, rss());
    }
    const refused = staying.filter((sent) => sent.status === 503 || sent.failed).length;
    const held = staying.filter((sent) => sent.status === undefined && !sent.failed).length;
    const health = await probe.stop();
    figures('import-budget-staying', {
      body_mib: BODY_MIB,
      sent: STAYING,
      held,
      refused,
      rss_start_mib: baseline,
      rss_peak_mib: peak,
      health_max_ms: health.slowest,
      loop_held_ms: health.held ?? -1,
    });
    assert.ok(held <= Math.floor(256 / BODY_MIB), `${held} queued imports held their ${BODY_MIB} MiB bodies at once`);
    assert.equal(held + refused, STAYING, 'the others were refused with 503');
    assert.equal(health.failures, 0);
  } finally {
    for (const sent of staying) sent.req.destroy();
    front.req.destroy();
    await probe.stop();
  }
  // The clients gone, their imports are dropped and the budget is free again: a new one is taken.
  await sleep(500);
  const next = await sendImport(BIG_BODY);
  await sleep(400);
  assert.equal(next.status, undefined, `a new import after the queue emptied answered ${next.status}`);
  assert.ok(!next.failed);
  next.req.destroy();
});
