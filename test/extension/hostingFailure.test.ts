/**
 * A window that cannot host (desktop VS Code on an Electron built without node:sqlite, or a store
 * that will not open) says so plainly and still works as the client of another Satchel serving the
 * data directory. node:sqlite's absence is simulated through the store's loader seam (the window
 * takes its lead lock with it; the data host it would start runs on the same Node).
 */
import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir, waitFor } from '../support/helpers.ts';
import { HostSupervisor } from '../../src/hosting/hostSupervisor.ts';
import type { Role } from '../../src/hosting/hosting.ts';
import { ensureCliBuilt } from '../reliability/support.ts';
import { explainClientOnly, explainHostingFailure } from '../../src/extension/hostingFailure.ts';
import { setSqliteLoaderForTests } from '../../src/core/store/sqlite.ts';
import { SqliteUnavailableError, StoreUnusableError } from '../../src/core/errors.ts';
import { HostLock } from '../../src/core/store/hostLock.ts';
import { Satchel } from '../../src/core/satchel.ts';
import { tryStartHost } from '../../src/hosting/host.ts';
import { silentLogger } from '../../src/core/context.ts';
import { DATABASE_FILE } from '../../src/core/store/database.ts';

afterEach(() => setSqliteLoaderForTests());

const withoutSqlite = () => setSqliteLoaderForTests(() => undefined);

/** A window's part, starting the built CLI as its data host when it leads. */
function windowOn(dataDir: string, probeIntervalMs: number): HostSupervisor {
  return new HostSupervisor({ dataDir, logger: silentLogger, port: 0, idleMinutes: 1, probeIntervalMs, command: { execPath: process.execPath, script: ensureCliBuilt() } });
}

test('without node:sqlite, opening a store or the host lock throws SqliteUnavailableError naming the runtime', () => {
  const dataDir = tempDir('satchel-nosqlite-');
  try {
    withoutSqlite();
    assert.throws(() => HostLock.tryAcquire(dataDir), (error: Error) => error instanceof SqliteUnavailableError && error.message.includes('node:sqlite') && error.message.includes(process.version));
    assert.throws(() => Satchel.open({ dataDir, logger: silentLogger }), SqliteUnavailableError);
    setSqliteLoaderForTests(() => {
      throw new Error('No such built-in module: node:sqlite');
    });
    assert.throws(() => HostLock.tryAcquire(dataDir), SqliteUnavailableError);
    setSqliteLoaderForTests();
    const lock = HostLock.tryAcquire(dataDir);
    assert.ok(lock, 'with node:sqlite back, the lock opens');
    lock.dispose();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('without node:sqlite and another Satchel serving the directory, the window is its client; it never tries to take over', async () => {
  const dataDir = tempDir('satchel-nosqlite-');
  const other = await tryStartHost({ dataDir, logger: silentLogger, port: 0 });
  assert.ok(other);
  withoutSqlite();
  const window = windowOn(dataDir, 100);
  const roles: Role[] = [];
  window.onDidChangeRole((role) => roles.push(role));
  let second: Awaited<ReturnType<typeof tryStartHost>>;
  try {
    const first = await window.start();
    assert.equal(first.kind, 'client');
    assert.equal(first.kind === 'client' && first.url, other.server.url);
    assert.ok(first.kind === 'client' && first.cannotHost instanceof SqliteUnavailableError, 'the client role says why it cannot host');
    assert.equal(roles.length, 1, 'no failure was announced before the client role');

    // The other server goes away: this window cannot host, so it reports the failure instead of waiting for the lock.
    await other.close();
    await waitFor(() => window.role.kind === 'failed');
    const failed = window.role;
    assert.ok(failed.kind === 'failed' && failed.error instanceof SqliteUnavailableError);

    // A Satchel started elsewhere (the CLI on Node 22) is picked up again.
    setSqliteLoaderForTests();
    second = await tryStartHost({ dataDir, logger: silentLogger, port: 0 });
    assert.ok(second, 'the lock was never taken by the window that cannot host');
    await waitFor(() => window.role.kind === 'client');
    assert.equal(window.role.kind === 'client' && window.role.url, second.server.url);
    assert.deepEqual(
      roles.map((role) => role.kind),
      ['client', 'failed', 'client'],
    );
  } finally {
    await window.close();
    await other.close();
    await second?.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('without node:sqlite and nothing serving the directory, the window fails with the reason and keeps looking', async () => {
  const dataDir = tempDir('satchel-nosqlite-');
  withoutSqlite();
  const window = windowOn(dataDir, 100);
  try {
    const role = await window.start();
    assert.equal(role.kind, 'failed');
    assert.ok(role.kind === 'failed' && role.error instanceof SqliteUnavailableError);
    setSqliteLoaderForTests();
    const cli = await tryStartHost({ dataDir, logger: silentLogger, port: 0 });
    assert.ok(cli);
    try {
      await waitFor(() => window.role.kind === 'client');
    } finally {
      await cli.close();
    }
  } finally {
    await window.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a store that will not open fails with StoreUnusableError, releases the lock, and does not retry in a loop', { timeout: 60_000 }, async () => {
  const dataDir = tempDir('satchel-badstore-');
  writeFileSync(join(dataDir, DATABASE_FILE), 'this is not a SQLite database, and it is long enough to have a header'.repeat(20));
  const window = windowOn(dataDir, 50);
  const roles: Role['kind'][] = [];
  window.onDidChangeRole((role) => roles.push(role.kind));
  try {
    const role = await window.start();
    assert.equal(role.kind, 'failed');
    assert.ok(role.kind === 'failed' && role.error instanceof StoreUnusableError);
    await new Promise((resolve) => setTimeout(resolve, 400));
    assert.deepEqual(roles, ['failed'], 'no host is started again and again');
    assert.match(role.kind === 'failed' ? role.error.message : '', /store/i, "the host's own words are in the error");
    const lock = HostLock.tryAcquire(dataDir);
    assert.ok(lock, 'the lock is free for a Satchel that can open the store');
    lock.dispose();
  } finally {
    await window.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('the messages say what is wrong and what to do', () => {
  const missing = explainHostingFailure(new SqliteUnavailableError('This Node.js runtime (v22.0.0, Electron 35.0.0) has no SQLite module (node:sqlite), which Satchel stores its data with.'), '/data');
  assert.match(missing.message, /node:sqlite/);
  assert.match(missing.message, /Electron 35\.0\.0/);
  assert.match(missing.message, /Update VS Code/);
  assert.match(missing.message, /npm start/);
  assert.match(missing.message, /connects to it/);
  assert.deepEqual(missing.actions, ['Show Log', 'Retry']);

  const unusable = explainHostingFailure(new StoreUnusableError('The data directory /data is not writable (read-only file system or permissions).'), '/data');
  assert.match(unusable.message, /cannot open its data in \/data/);
  assert.match(unusable.message, /not writable/);
  assert.match(unusable.message, /Data Directory/);
  assert.ok(unusable.actions.includes('Open Settings'));

  const other = explainHostingFailure(new Error('listen EADDRINUSE'), '/data');
  assert.match(other.message, /EADDRINUSE/);
  assert.ok(other.actions.includes('Retry'));

  assert.match(explainClientOnly(new SqliteUnavailableError('x'), 'http://127.0.0.1:39300'), /127\.0\.0\.1:39300.*no SQLite/);
});

test('no module loads node:sqlite at import time (the extension bundle must load where it is missing)', () => {
  const src = fileURLToPath(new URL('../../src/', import.meta.url));
  const offenders: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.[cm]?ts$/.test(entry.name)) {
        const source = readFileSync(path, 'utf8');
        if (/^\s*import\s+(?!type\b)[^;]*from\s+['"](node:)?sqlite['"]/m.test(source) || /(require|import)\(\s*['"](node:)?sqlite['"]\s*\)/.test(source)) {
          offenders.push(path);
        }
      }
    }
  };
  walk(src);
  assert.deepEqual(offenders, []);
});
