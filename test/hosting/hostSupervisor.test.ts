/**
 * The window's part in serving a data directory (hosting/hostSupervisor.ts) against real host
 * processes of the built CLI: the host outlives the window that started it, another window takes
 * the lead and starts it again, it leaves once no window is connected, and a host that cannot
 * start says why through its exit code.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, waitFor } from '../support/helpers.ts';
import { isAlive } from '../support/processes.ts';
import { ensureCliBuilt } from '../reliability/support.ts';
import { HostSupervisor, type SupervisorOptions } from '../../src/hosting/hostSupervisor.ts';
import { HOST_FLAGS, hostArgs, refusedNodeFlag, type DataHostCommand } from '../../src/hosting/hostCommand.ts';
import { DATA_HOST_NODE_FLAGS } from '../../src/core/hostNodeFlags.ts';
import { readPortFile, writePortFile } from '../../src/hosting/portFile.ts';
import { createServer as createHttpServer } from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import { hostTuning } from '../../src/cli/hostTuning.ts';
import { exitWhenIdle } from '../../src/hosting/idleExit.ts';
import { Emitter } from '../../src/core/events.ts';
import { silentLogger } from '../../src/core/context.ts';
import { StoreUnusableError } from '../../src/core/errors.ts';
import { EXIT_SERVED_ELSEWHERE, EXIT_STORE_UNUSABLE } from '../../src/hosting/hostExit.ts';
import { parseArgs } from 'node:util';
import { createServer, type AddressInfo } from 'node:net';

/** A loopback port nothing listens on now (other hosts on this machine use the Pieces range). */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Writes a stand-in host script (TypeScript, run with --experimental-strip-types) with what every one imports before `body`. */
function writeStandInHost(path: string, body: string): void {
  const source = (module: string): string => JSON.stringify(new URL(module, import.meta.url).pathname);
  writeFileSync(
    path,
    `import { HostLock } from ${source('../../src/core/store/hostLock.ts')};
import { writePortFile } from ${source('../../src/hosting/portFile.ts')};
import { silentLogger } from ${source('../../src/core/context.ts')};
import { createServer } from 'node:http';
import { WebSocketServer } from ${JSON.stringify(import.meta.resolve('ws'))};
${body}`,
  );
}

function window(dataDir: string, options: Partial<SupervisorOptions> = {}): HostSupervisor {
  const command: DataHostCommand = { execPath: process.execPath, script: ensureCliBuilt() };
  return new HostSupervisor({ dataDir, logger: silentLogger, port: 0, idleMinutes: 1, probeIntervalMs: 100, command, ...options });
}

test('the host outlives the window that started it; the other window takes the lead and starts it again when it dies', { timeout: 60_000 }, async () => {
  const dataDir = tempDir('satchel-supervisor-');
  const first = window(dataDir);
  const second = window(dataDir);
  let pid: number | undefined;
  try {
    assert.equal((await first.start()).kind, 'host');
    pid = first.hostPid!;
    const role = await second.start();
    assert.equal(role.kind, 'client');
    assert.equal(second.hostPid, pid, 'both windows use one host');
    await first.close();
    await waitFor(() => second.role.kind === 'host', 5_000);
    assert.ok(isAlive(pid), 'the host is still running after its window closed');
    assert.equal(second.hostPid, pid, 'the new lead kept the same host');
    process.kill(pid, 'SIGKILL');
    await waitFor(() => second.hostPid !== undefined && second.hostPid !== pid, 10_000);
    pid = second.hostPid;
    assert.equal(readPortFile(dataDir)?.pid, pid);
  } finally {
    await second.stopHost();
    await first.close();
    await second.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('after an update, the lead window replaces a host another version started, and keeps the one it started itself', { timeout: 60_000 }, async () => {
  const dataDir = tempDir('satchel-supervisor-');
  const current = readPortFile;
  const before = window(dataDir);
  let updated: HostSupervisor | undefined;
  try {
    await before.start();
    const old = before.hostPid!;
    assert.equal(current(dataDir)?.version, JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version, 'the port file says which version serves');
    await before.close();
    updated = window(dataDir, { version: '99.0.0' });
    const role = await updated.start();
    assert.equal(role.kind, 'host');
    assert.notEqual(updated.hostPid, old, 'a host of this version was started');
    await waitFor(() => !isAlive(old), 5_000);
    const own = updated.hostPid!;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    assert.equal(updated.hostPid, own, 'the host it started (still reporting 0.1.0 here) is kept, not replaced in a loop');
  } finally {
    await updated?.stopHost();
    await updated?.close();
    await before.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a restart with new settings (a port): the next host has them; the part being replaced starts none with the old ones', { timeout: 60_000 }, async () => {
  const dataDir = tempDir('satchel-supervisor-');
  // The same steps as ServerController.restart(): stop the host, close this part, start a new one.
  const old = window(dataDir);
  let next: HostSupervisor | undefined;
  try {
    await old.start();
    assert.ok(await old.stopHost());
    // A busy extension host may take a while between the two; the old part must not fill the gap.
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(old.role.kind === 'host' || old.role.kind === 'client' ? old.hostPid : undefined, undefined, 'the old part started no host');
    await old.close();
    const port = await freePort();
    next = window(dataDir, { port });
    const role = await next.start();
    assert.equal(role.kind === 'host' && role.port, port, `the new host listens on the new port: ${JSON.stringify(role)}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(next.role.kind === 'host' && next.role.port, port, 'and stays the one used');
  } finally {
    await next?.stopHost();
    await next?.close();
    await old.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a host that keeps stopping is started again 4 times, then the window says so and stops trying', { timeout: 90_000 }, async () => {
  const dataDir = tempDir('satchel-supervisor-');
  const only = window(dataDir);
  try {
    await only.start();
    for (let stop = 1; stop <= 5; stop++) {
      const pid = only.hostPid!;
      process.kill(pid, 'SIGKILL');
      if (stop < 5) await waitFor(() => only.hostPid !== undefined && only.hostPid !== pid, 15_000);
    }
    await waitFor(() => only.role.kind === 'failed', 5_000);
    assert.match(only.role.kind === 'failed' ? only.role.error.message : '', /stopped 5 times in 3 minutes, so it is not started again/);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    // The port file, if any, is the fifth's, which SIGKILL left behind.
    const left = readPortFile(dataDir);
    assert.ok(left === undefined || !isAlive(left.pid), 'no sixth host');
  } finally {
    await only.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a presence socket the host drops while it still answers is opened again, with no role change; a host gone is reported', async () => {
  const dataDir = tempDir('satchel-supervisor-');
  // A stand-in host: health, the health stream, and a port file naming it.
  const server = createHttpServer((req, res) => res.end(req.url === '/.well-known/health' ? 'ok' : ''));
  const sockets: WebSocket[] = [];
  const streams = new WebSocketServer({ server, path: '/.well-known/stream/health' });
  streams.on('connection', (socket) => {
    sockets.push(socket);
    socket.send('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  writePortFile(dataDir, (server.address() as AddressInfo).port, silentLogger);
  const served = join(dataDir, 'served.cjs');
  writeFileSync(served, `process.exit(${EXIT_SERVED_ELSEWHERE});`);
  const only = window(dataDir, { command: { execPath: process.execPath, script: served } });
  const roles: string[] = [];
  only.onDidChangeRole((role) => roles.push(role.kind));
  try {
    assert.equal((await only.start()).kind, 'host');
    await waitFor(() => sockets.length === 1);
    sockets[0]!.terminate();
    await waitFor(() => sockets.length === 2, 5_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(roles, ['host'], 'the window kept its connection');
    server.closeAllConnections();
    for (const socket of sockets) socket.terminate();
    streams.close();
    server.close();
    await waitFor(() => only.role.kind === 'waiting' && only.role.notice !== undefined, 5_000);
    assert.match(only.role.kind === 'waiting' ? only.role.notice! : '', /stopped/);
  } finally {
    await only.close();
    streams.close();
    server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('the host leaves once no window has been connected for its idle time, and not while one is', { timeout: 60_000 }, async () => {
  const dataDir = tempDir('satchel-supervisor-');
  // 0.02 minutes: 1.2 s.
  const only = window(dataDir, { idleMinutes: 0.02 });
  try {
    await only.start();
    const pid = only.hostPid!;
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    assert.ok(isAlive(pid), 'a connected window keeps the host');
    await only.close();
    await waitFor(() => !isAlive(pid), 10_000);
    assert.equal(readPortFile(dataDir), undefined, 'it removed its port file as it left');
  } finally {
    await only.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a host that cannot open its store ends with a code the window turns into StoreUnusableError, with the log', async () => {
  const dataDir = tempDir('satchel-supervisor-');
  const script = join(dataDir, 'fails.cjs');
  writeFileSync(script, `console.error('[satchel] Cannot open the store: disk on fire'); process.exit(${EXIT_STORE_UNUSABLE});`);
  const failing = window(dataDir, { command: { execPath: process.execPath, script } });
  try {
    const role = await failing.start();
    assert.equal(role.kind, 'failed');
    assert.ok(role.kind === 'failed' && role.error instanceof StoreUnusableError);
    assert.match(role.kind === 'failed' ? role.error.message : '', /disk on fire/);
  } finally {
    await failing.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a runtime that refuses the host\'s V8 flags gets the host started again without them, not a failure', async () => {
  const dataDir = tempDir('satchel-supervisor-');
  const script = join(dataDir, 'picky.cjs');
  const starts = join(dataDir, 'starts.json');
  // Stands in for a runtime without the flag: refuses it as Node does (exit 9, "bad option"), else
  // finds the directory served elsewhere (so the window waits, having started it twice).
  writeFileSync(script, `const fs = require('node:fs');
const seen = fs.existsSync(${JSON.stringify(starts)}) ? JSON.parse(fs.readFileSync(${JSON.stringify(starts)}, 'utf8')) : [];
fs.writeFileSync(${JSON.stringify(starts)}, JSON.stringify([...seen, [process.execArgv, process.env.SATCHEL_NO_NODE_FLAGS ?? null]]));
const refused = process.execArgv.find((flag) => flag.startsWith('--max-semi-space-size'));
if (refused) { console.error('node: bad option: ' + refused); process.exit(9); }
process.exit(${EXIT_SERVED_ELSEWHERE});`);
  const warned: string[] = [];
  const picky = window(dataDir, { command: { execPath: process.execPath, script }, logger: { ...silentLogger, warn: (message) => warned.push(message) } });
  try {
    assert.equal((await picky.start()).kind, 'waiting');
    assert.deepEqual(JSON.parse(readFileSync(starts, 'utf8')), [[DATA_HOST_NODE_FLAGS, null], [[], '1']], 'the second start without the flags, told so for its own children');
    assert.match(warned.join('\n'), /does not take --max-semi-space-size=2 --heap-growing-percent=20: starting the Satchel host without them/);
  } finally {
    await picky.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a host that ends with Node\'s exit code for another bad option is a failure as before', () => {
  assert.equal(refusedNodeFlag(9, 'node: bad option: --max-semi-space-size=2\n', DATA_HOST_NODE_FLAGS), true);
  assert.equal(refusedNodeFlag(9, 'node: bad option: --inspect-brk=x\n', DATA_HOST_NODE_FLAGS), false);
  assert.equal(refusedNodeFlag(1, 'node: bad option: --max-semi-space-size=2\n', DATA_HOST_NODE_FLAGS), false);
  assert.equal(refusedNodeFlag(9, 'node: bad option: --max-semi-space-size=2\n', []), false);
});

test('a host that finds the directory served elsewhere leaves, and the window waits instead of failing', async () => {
  const dataDir = tempDir('satchel-supervisor-');
  const script = join(dataDir, 'served.cjs');
  writeFileSync(script, `process.exit(${EXIT_SERVED_ELSEWHERE});`);
  const waiting = window(dataDir, { command: { execPath: process.execPath, script } });
  try {
    assert.equal((await waiting.start()).kind, 'waiting');
  } finally {
    await waiting.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test("the window's settings reach the host as flags the CLI reads back", () => {
  const args = hostArgs({
    dataDir: '/d',
    port: 39310,
    idleMinutes: 10,
    connectorMinLength: 20,
    connectorReuseThreshold: 0.7,
    modelIdleUnloadMs: 90_000,
    catalogBaseUrl: 'http://127.0.0.1:1/m',
    allowedHosts: ['host.docker.internal'],
    reviewAgentWrites: false,
    keepBackups: 3,
    trashRetentionDays: 7,
  });
  const { values } = parseArgs({
    args,
    options: HOST_FLAGS,
    allowNegative: true,
  });
  assert.equal(values.wait, false);
  assert.equal(values.managed, true);
  assert.equal(values['review-agent-writes'], false);
  assert.deepEqual(values['allow-host'], ['host.docker.internal']);
  assert.deepEqual(hostTuning(values), {
    connector: { minLength: 20, reuseThreshold: 0.7 },
    models: { idleUnloadMs: 90_000, catalogBaseUrl: 'http://127.0.0.1:1/m' },
    idleMs: 600_000,
    softMemoryLimitBytes: 140 * 2 ** 20,
  });
  assert.equal(hostTuning({ 'soft-memory-limit': '0' }).softMemoryLimitBytes, undefined, '0: no limit');
  assert.equal(hostTuning({ 'soft-memory-limit': '200' }).softMemoryLimitBytes, 200 * 2 ** 20);
  assert.throws(() => hostTuning({ 'soft-memory-limit': 'lots' }), /--soft-memory-limit must be a number of megabytes/);
  assert.throws(() => hostTuning({ 'idle-minutes': '-1' }), /--idle-minutes must be a number of minutes from 0, not -1/);
  assert.throws(() => hostTuning({ 'connector-reuse-threshold': '2' }), /--connector-reuse-threshold/);
});

test('the idle exit counts connections: it fires only after the last one has been closed for its time', async () => {
  const changes = new Emitter<number>();
  let open = 1;
  let fired = 0;
  const watch = exitWhenIdle({ get connections() { return open; }, onDidChangeConnections: changes.event }, 50, () => fired++);
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(fired, 0, 'not while a connection is open');
  open = 0;
  changes.fire(0);
  open = 1;
  changes.fire(1);
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(fired, 0, 'a connection opened within the time resets it');
  open = 0;
  changes.fire(0);
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(fired, 1);
  watch.dispose();
});

test('a host seen to stop whose process lingers (holding the lock) is replaced once it is gone, without being started into its lock first', { timeout: 60_000 }, async () => {
  const dataDir = tempDir('satchel-supervisor-');
  // Stands in for a host killed while it waits on the disk: it serves, then stops answering (its
  // presence socket closes) but its process keeps the host lock for 1.5 s more.
  const lingering = join(dataDir, 'lingering.ts');
  writeStandInHost(
    lingering,
    `const lock = HostLock.tryAcquire(process.argv[2]);
if (!lock) process.exit(3);
const server = createServer((req, res) => res.end(req.url === '/.well-known/health' ? 'ok' : ''));
const streams = new WebSocketServer({ server, path: '/.well-known/stream/health' });
server.listen(0, '127.0.0.1', () => {
  writePortFile(process.argv[2], server.address().port, silentLogger);
  process.stdout.write('serving\\n');
});
process.stdin.once('data', () => {
  for (const socket of streams.clients) socket.terminate();
  streams.close();
  server.close();
  server.closeAllConnections();
  process.stdout.write('stopped\\n');
  setTimeout(() => { lock.dispose(); process.exit(0); }, 1_500);
});
`,
  );
  const { spawn } = await import('node:child_process');
  const old = spawn(process.execPath, ['--experimental-strip-types', '--disable-warning=ExperimentalWarning', lingering, dataDir], { stdio: ['pipe', 'pipe', 'inherit'] });
  const said: string[] = [];
  old.stdout.setEncoding('utf8').on('data', (text: string) => said.push(text));
  const oldExited = new Promise<number>((resolve) => old.once('exit', () => resolve(Date.now())));
  const started: number[] = [];
  const only = window(dataDir, { logger: { ...silentLogger, info: (message) => (message.startsWith('Started the Satchel host') ? started.push(Date.now()) : undefined) } });
  try {
    await waitFor(() => said.join('').includes('serving'), 10_000);
    assert.equal((await only.start()).kind, 'host', 'the window uses the host it found');
    assert.equal(only.hostPid, old.pid);
    old.stdin.write('stop\n');
    const gone = await oldExited;
    await waitFor(() => only.hostPid !== undefined && only.hostPid !== old.pid, 15_000);
    const attached = Date.now();
    assert.deepEqual(started.filter((at) => at < gone), [], 'no host was started while the old one still held the lock');
    assert.equal(started.length, 1, 'one start, not one turned away and retried after a back-off');
    assert.ok(attached - gone < 5_000, `the new host served ${attached - gone} ms after the old process ended`);
  } finally {
    old.kill('SIGKILL');
    await only.stopHost();
    await only.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a host killed on a fixed port: the next one, answering there before it writes its port file, is not taken for the dead one', { timeout: 60_000 }, async () => {
  const dataDir = tempDir('satchel-supervisor-');
  // Stands in for the CLI host: it serves on the window's port at once and writes its port file a second later.
  const slowHost = join(dataDir, 'slowHost.ts');
  writeStandInHost(
    slowHost,
    `const arg = (name) => process.argv[process.argv.indexOf(name) + 1];
const dataDir = arg('--data-dir');
const port = Number(arg('--port'));
const lock = HostLock.tryAcquire(dataDir);
if (!lock) process.exit(${EXIT_SERVED_ELSEWHERE});
const server = createServer((req, res) => res.end(req.url === '/.well-known/health' ? 'ok' : ''));
new WebSocketServer({ server, path: '/.well-known/stream/health' }).on('connection', (socket) => socket.send('ok'));
server.listen(port, '127.0.0.1', () => setTimeout(() => writePortFile(dataDir, port, silentLogger), 1_000));
`,
  );
  const port = await freePort();
  const only = window(dataDir, { port, command: { execPath: process.execPath, execArgv: ['--experimental-strip-types', '--disable-warning=ExperimentalWarning'], script: slowHost } });
  const pids: number[] = [];
  only.onDidChangeRole((role) => (role.kind === 'host' ? pids.push(role.pid ?? -1) : undefined));
  let second: number | undefined;
  try {
    assert.equal((await only.start()).kind, 'host');
    const first = only.hostPid!;
    assert.equal(readPortFile(dataDir)?.pid, first);
    pids.length = 0;
    process.kill(first, 'SIGKILL');
    await waitFor(() => only.role.kind === 'host' && only.hostPid !== undefined && only.hostPid !== first, 15_000);
    second = only.hostPid!;
    assert.equal(readPortFile(dataDir)?.pid, second, 'the window is on the host its port file names');
    assert.ok(!pids.includes(first), `after the kill the window said it was on pids ${pids.join(', ')}, the dead one among them`);
  } finally {
    if (second !== undefined && isAlive(second)) process.kill(second, 'SIGKILL');
    await only.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
