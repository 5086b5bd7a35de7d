import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tempDir, waitFor as waitUntil } from '../support/helpers.ts';
import { HostElection, type Role } from '../../src/hosting/hostElection.ts';
import { silentLogger } from '../../src/core/context.ts';
import { SatchelClient } from '../../src/client/satchelClient.ts';
import { readPortFile } from '../../src/hosting/portFile.ts';

const fixture = fileURLToPath(new URL('./fixtures/electionProcess.ts', import.meta.url));

interface Window {
  readonly child: ChildProcess;
  readonly roles: { kind: string; url?: string }[];
}

function openWindow(dataDir: string): Window {
  const child = spawn(process.execPath, ['--experimental-strip-types', '--disable-warning=ExperimentalWarning', fixture, dataDir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const roles: Window['roles'] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => roles.push(JSON.parse(line)));
  return { child, roles };
}

/** Elections across processes take seconds, not the helper's default five. */
const waitFor = (condition: () => boolean): Promise<void> => waitUntil(condition, 15_000);

const last = (window: Window) => window.roles.at(-1)?.kind;

test('two window processes: one hosts, the other is its client; killing the host hands over without losing writes', async () => {
  const dataDir = tempDir('satchel-election-');
  const first = openWindow(dataDir);
  await waitFor(() => last(first) === 'host');
  const second = openWindow(dataDir);
  try {
    await waitFor(() => last(second) === 'client');
    const hostUrl = first.roles.at(-1)!.url!;
    assert.equal(second.roles.at(-1)!.url, hostUrl, 'the client found the host through the port file');

    // A write acknowledged by the first host must be there after the takeover.
    const before = new SatchelClient(hostUrl);
    const health = await before.health();
    assert.equal(health, 'ok');
    before.dispose();

    const killedAt = Date.now();
    first.child.kill('SIGKILL');
    await waitFor(() => last(second) === 'host');
    const takeoverMs = Date.now() - killedAt;
    assert.ok(takeoverMs < 5_000, `takeover took ${takeoverMs} ms`);
    const newUrl = second.roles.at(-1)!.url!;
    const after = new SatchelClient(newUrl);
    assert.equal(await after.health(), 'ok');
    after.dispose();
    assert.equal(readPortFile(dataDir)?.pid, second.child.pid, 'the port file now names the new host');
  } finally {
    first.child.kill('SIGKILL');
    second.child.kill('SIGTERM');
    await new Promise((resolve) => second.child.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('in one process: a second election is a client until the host closes cleanly, then hosts', async () => {
  const dataDir = tempDir('satchel-election-');
  const a = new HostElection({ dataDir, logger: silentLogger, port: 0, probeIntervalMs: 100 });
  const b = new HostElection({ dataDir, logger: silentLogger, port: 0, probeIntervalMs: 100 });
  const bRoles: Role['kind'][] = [];
  b.onDidChangeRole((role) => bRoles.push(role.kind));
  try {
    assert.equal((await a.start()).kind, 'host');
    assert.equal((await b.start()).kind, 'client');
    await a.close();
    await waitFor(() => b.role.kind === 'host');
    assert.equal(bRoles[0], 'client');
    assert.equal(bRoles.at(-1), 'host');
    assert.ok(!bRoles.includes('failed'));
    assert.ok(b.runningHost, 'b serves now');
  } finally {
    await a.close();
    await b.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a host that cannot listen reports the failed role instead of throwing', async () => {
  const dataDir = tempDir('satchel-election-');
  const blocker = new HostElection({ dataDir: tempDir('satchel-election-'), logger: silentLogger, port: 0 });
  const started = await blocker.start();
  assert.equal(started.kind, 'host');
  const port = started.kind === 'host' ? started.port : 0;
  const election = new HostElection({ dataDir, logger: silentLogger, port });
  try {
    const role = await election.start();
    assert.equal(role.kind, 'failed');
    assert.match(role.kind === 'failed' ? role.error.message : '', /listen/i);
  } finally {
    await election.close();
    await blocker.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
