/**
 * The data host as its own process, as a VS Code window runs it (hosting/hostSupervisor.ts): the
 * window's part starts `dist/cli.cjs`; four writers create snippets through it; the host is killed
 * with SIGKILL while writes are being acknowledged. The window starts it again within two seconds,
 * the writers carry on against the new host, and every write acknowledged before or after the kill
 * is in the store. The window's own process (this test's) is untouched throughout.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ensureCliBuilt, figures } from './support.ts';
import { assetIds, createAsset } from './writes.ts';
import { removeKilledHostDir, tempDir } from '../support/helpers.ts';
import { HostSupervisor } from '../../src/hosting/hostSupervisor.ts';
import type { Role } from '../../src/hosting/hosting.ts';
import type { Logger } from '../../src/core/context.ts';

const WRITERS = 4;
const BEFORE_KILL = 60;
const AFTER_RESTART = 60;
/** The bound: from the kill to the window connected to a new host. */
const RESTART_BOUND_MS = 2_000;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

test('a data host killed (SIGKILL) under acknowledged writes is started again within 2 s and loses none of them', { timeout: 120_000 }, async () => {
  const dataDir = tempDir('satchel-hostrestart-');
  const lines: string[] = [];
  const logger: Logger = {
    info: (message) => lines.push(`info ${message}`),
    warn: (message) => lines.push(`warn ${message}`),
    error: (message, error) => lines.push(`error ${message} ${(error as Error | undefined)?.message ?? ''}`),
  };
  const window = new HostSupervisor({ dataDir, logger, port: 0, idleMinutes: 1, probeIntervalMs: 100, command: { execPath: process.execPath, script: ensureCliBuilt() } });
  const roles: Role[] = [];
  window.onDidChangeRole((role) => roles.push(role));
  const acknowledged: string[] = [];
  let failedWrites = 0;
  let stop = false;
  try {
    const first = await window.start();
    assert.equal(first.kind, 'host', `the only window leads and started the host: ${lines.join('\n')}`);
    const firstPid = window.hostPid!;
    assert.ok(firstPid !== undefined && firstPid !== process.pid, 'the host is another process');

    const writer = async (n: number): Promise<void> => {
      for (let i = 0; !stop; i++) {
        const role = window.role;
        if (role.kind !== 'host') {
          await sleep(10);
          continue;
        }
        try {
          acknowledged.push(await createAsset(role.port, `export const writer${n}_${i} = ${i}; // host restart`));
        } catch {
          // In flight at the kill, or sent to the dead port: not acknowledged, so nothing is owed.
          failedWrites++;
          await sleep(10);
        }
      }
    };
    const writers = Array.from({ length: WRITERS }, (_, n) => writer(n));

    while (acknowledged.length < BEFORE_KILL) await sleep(5);
    const beforeKill = acknowledged.length;
    const killedAt = Date.now();
    process.kill(firstPid, 'SIGKILL');
    while (!(window.role.kind === 'host' && window.hostPid !== undefined && window.hostPid !== firstPid)) {
      assert.ok(Date.now() - killedAt < 30_000, `no new host 30 s after the kill: ${lines.join('\n')}`);
      await sleep(5);
    }
    const restartMs = Date.now() - killedAt;
    const atRestart = acknowledged.length;
    while (acknowledged.length < atRestart + AFTER_RESTART) await sleep(5);
    const firstAfter = Date.now() - killedAt;
    stop = true;
    await Promise.all(writers);

    const role = window.role;
    assert.equal(role.kind, 'host');
    const stored = new Set(await assetIds(role.kind === 'host' ? role.port : 0));
    const lost = acknowledged.filter((id) => !stored.has(id));
    figures('hostRestart', { acknowledged: acknowledged.length, before_kill: beforeKill, failed_in_flight: failedWrites, lost: lost.length, restart_ms: restartMs, writes_resumed_ms: firstAfter });
    assert.deepEqual(lost, [], 'every acknowledged write is in the restarted host');
    assert.ok(restartMs <= RESTART_BOUND_MS, `the window was connected to a new host ${restartMs} ms after the kill (bound ${RESTART_BOUND_MS} ms)`);
    const stopped = roles.find((r) => r.kind === 'waiting' && r.notice !== undefined);
    assert.match(stopped?.kind === 'waiting' ? (stopped.notice ?? '') : '', /stopped \(killed by SIGKILL\)/, 'the window says the host stopped and how');
    assert.match(role.notice ?? roles.filter((r) => r.kind === 'host').at(-1)?.notice ?? '', /was started again/);
  } finally {
    stop = true;
    await window.stopHost();
    await window.close();
    removeKilledHostDir(dataDir);
  }
});
