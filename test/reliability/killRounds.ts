/**
 * The loop of the SIGKILL tests: a host is started on one data directory, what the last round left
 * is verified (and the store's integrity checked), writes run until a random moment, and the host
 * is killed with SIGKILL; then again. The last start only verifies.
 */
import type { TestContext } from 'node:test';
import { randomInt } from 'node:crypto';
import { join } from 'node:path';
import { DATABASE_FILE } from '../../src/core/store/database.ts';
import { removeKilledHostDir, tempDir } from '../support/helpers.ts';
import { HostProcess, sleep } from './support.ts';

export interface KillRound {
  /** Checks the restarted host against what was acknowledged; `file` is the store, for integrity checks. */
  verify(port: number, file: string): Promise<void>;
  /** Before the writes of a round, outside the kill's window (records the writes need). */
  prepare?(port: number): Promise<void>;
  /** Writes until `stop.now`; resolves once every writer has stopped (a write cut by the kill is the writer's to mark unknown). */
  write(port: number, stop: { readonly now: boolean }): Promise<void>;
}

/** Runs `kills` rounds on a fresh data directory (removed afterwards); returns how many kills there were. */
export async function killRounds(t: TestContext, kills: number, round: KillRound): Promise<number> {
  const dataDir = tempDir('satchel-rel-kill-');
  const file = join(dataDir, DATABASE_FILE);
  let host: HostProcess | undefined;
  t.after(async () => {
    await host?.kill();
    removeKilledHostDir(dataDir);
  });
  let killed = 0;
  for (let n = 0; n <= kills; n++) {
    host = new HostProcess(dataDir);
    const { port } = await host.waitFor('serving', 30_000);
    await round.verify(port!, file);
    if (n === kills) break;
    await round.prepare?.(port!);
    const stop = { now: false };
    const writing = round.write(port!, stop);
    // Kill at a random moment: sometimes almost at once, sometimes after many writes.
    await sleep(randomInt(50, 900));
    stop.now = true;
    host.child.kill('SIGKILL');
    await writing;
    await host.exited;
    killed++;
  }
  return killed;
}
