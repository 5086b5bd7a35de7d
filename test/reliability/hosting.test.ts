/**
 * Hosting: of several host processes on one data directory exactly one serves; when it is killed
 * (SIGKILL: no clean-up runs) a waiting one takes over within seconds, rewrites the port file, and
 * every write the dead host acknowledged is still there.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readPortFile } from '../../src/hosting/portFile.ts';
import { removeKilledHostDir, tempDir } from '../support/helpers.ts';
import { HostProcess, figures, percentile, raw, sleep } from './support.ts';
import { storeWriter } from './writes.ts';

const HOSTS = 4;
const TAKEOVER_LIMIT_MS = 8000;

test('several hosts on one data directory: one serves, the others wait, each SIGKILL hands over within seconds with no acknowledged write lost', async (t) => {
  const dataDir = tempDir('satchel-rel-hosting-');
  const hosts = Array.from({ length: HOSTS }, () => new HostProcess(dataDir));
  t.after(async () => {
    await Promise.all(hosts.map((host) => host.kill()));
    removeKilledHostDir(dataDir);
  });

  const firstServing = await Promise.any(hosts.map((host) => host.waitFor('serving').then(() => host)));
  // Give every other process time to reach the lock and (wrongly) start serving too.
  await sleep(1500);
  const serving = (): HostProcess[] => hosts.filter((host) => host.alive && host.port !== undefined);
  assert.deepEqual(serving(), [firstServing], 'more than one process serves the data directory');
  for (const host of hosts) if (host !== firstServing) await host.waitFor('waiting');

  const writer = storeWriter();
  const acknowledged: string[] = [];
  const takeovers: number[] = [];
  let current = firstServing;
  for (let round = 0; round < HOSTS; round++) {
    const port = current.port!;
    assert.equal(readPortFile(dataDir)?.pid, current.pid, 'the port file names the serving process');
    // Every write the current host has acknowledged before it dies must survive.
    for (let i = 0; i < 10; i++) acknowledged.push(await writer.write(port, `round ${round} write ${i}`));
    assert.deepEqual(await writer.present(port, acknowledged), acknowledged, `round ${round}: writes missing on the serving host`);

    const killedAt = Date.now();
    await current.kill('SIGKILL');
    const waiting = hosts.filter((host) => host.alive);
    if (waiting.length === 0) break;
    const next = await Promise.any(waiting.map((host) => host.waitFor('serving', TAKEOVER_LIMIT_MS + 5000).then(() => host)));
    const takeoverMs = Date.now() - killedAt;
    takeovers.push(takeoverMs);
    assert.ok(takeoverMs < TAKEOVER_LIMIT_MS, `takeover took ${takeoverMs} ms`);
    await sleep(300);
    assert.deepEqual(serving(), [next], 'more than one process serves after a takeover');
    const health = await raw(next.port!, { path: '/.well-known/health' });
    assert.equal(health.status, 200);
    assert.deepEqual(await writer.present(next.port!, acknowledged), acknowledged, `round ${round}: an acknowledged write was lost in the takeover`);
    current = next;
  }
  assert.equal(takeovers.length, HOSTS - 1);
  figures('hosting', {
    hosts: HOSTS,
    takeovers: takeovers.length,
    takeoverMaxMs: Math.max(...takeovers),
    takeoverP50Ms: percentile(takeovers, 50),
    writes: acknowledged.length,
    lost: 0,
    via: writer.via,
  });
});

test('a host started while another serves never serves until that one is gone', async (t) => {
  const dataDir = tempDir('satchel-rel-hosting2-');
  const first = new HostProcess(dataDir);
  t.after(async () => {
    await first.kill();
    await second.kill();
    removeKilledHostDir(dataDir);
  });
  await first.waitFor('serving');
  const second = new HostProcess(dataDir);
  await second.waitFor('waiting');
  // A clean stop (SIGTERM) hands over as well as a crash does.
  await sleep(1000);
  assert.equal(second.port, undefined);
  await first.kill('SIGTERM');
  const { code } = await first.exited;
  assert.equal(code, 0, 'a clean stop exits 0');
  const started = Date.now();
  await second.waitFor('serving', TAKEOVER_LIMIT_MS);
  assert.equal((await raw(second.port!, { path: '/.well-known/health' })).status, 200);
  assert.equal(readPortFile(dataDir)?.port, second.port);
  figures('hosting.clean-handover', { takeoverMs: Date.now() - started });
});
