/**
 * The data host is its own process in a real VS Code: killed with SIGKILL, it is started again by
 * the window, which reconnects (the Assets view lists what was saved before the kill), says so in
 * the status bar, and whose extension host never went down with it.
 */
import * as vscode from 'vscode';
import assert from 'node:assert/strict';
import { EXTENSION_ID, until } from './support.ts';
import type { SatchelExtension } from '../../../src/extension/satchelExtension.ts';
import { readPortFile } from '../../../src/hosting/portFile.ts';
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';

/** The files this process (the extension host) has open, on Linux. */
function openFiles(): string[] {
  return readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      return [readlinkSync(`/proc/self/fd/${fd}`)];
    } catch {
      return [];
    }
  });
}
import type { Asset } from '../../../src/core/piecesTypes.ts';

describe('The data host beside VS Code', function () {
  let api: SatchelExtension;

  before(async function () {
    api = (await vscode.extensions.getExtension<SatchelExtension>(EXTENSION_ID)!.activate())!;
    await until('the server role', () => api.server.connection, 30_000);
  });

  it('activation is measured and cheap: the code cache, and no store opened in the extension host', function () {
    const figures = api.activation;
    assert.ok(figures, 'activation figures are recorded');
    console.log(`[figures] activation ${JSON.stringify(figures)}`);
    assert.ok(figures.activateMs < 1_000, `activate() took ${figures.activateMs} ms`);
    assert.ok(figures.codeCache === 'written' || figures.codeCache === 'used', `the bundle went through the loader (code cache ${figures.codeCache})`);
    // Satchel's own share, on the extension host thread's clocks: loading and activate() are in it, and it ran no longer than it took.
    const own = figures.own;
    assert.ok(own && own.wallMs >= figures.activateMs, `own share ${JSON.stringify(own)}`);
    // The CPU clock may run a little ahead of the wall clock on a virtual machine (test/packaging/activation.test.ts).
    assert.ok(typeof own.cpuMs === 'number' && own.cpuMs > 0 && own.cpuMs <= own.wallMs * 1.1 + 2, `own share ${JSON.stringify(own)}`);
    if (process.platform === 'linux') assert.equal(typeof own.waitedMs, 'number');
    // Each part of activate() on the thread's CPU clock too, beside its wall time.
    assert.deepEqual(Object.keys(figures.stepsOnCore ?? {}), Object.keys(figures.steps ?? {}));
    assert.ok(Object.keys(figures.steps ?? {}).length >= 5, JSON.stringify(figures.steps));
    assert.deepEqual(openFiles().filter((file) => file.includes('satchel.db')), [], 'the extension host holds no store file open');
  });

  it('a host killed with SIGKILL is started again; the window reconnects, keeps what was saved, and says what happened', async function () {
    this.timeout(60_000);
    const application = await api.server.application();
    const saved: Asset = await api.server.connection!.client.assets.createFromText({ text: 'export const beforeTheKill = 42;\n', application, language: 'ts', name: 'Saved before the kill' });
    const before = readPortFile(api.server.dataDir!)!;
    assert.notEqual(before.pid, process.pid);
    const killed = Date.now();
    process.kill(before.pid, 'SIGKILL');
    const role = await until('a new host', () => (api.server.role.kind === 'host' && api.server.role.pid !== before.pid ? api.server.role : undefined), 20_000).catch((error: unknown) => {
      // What the window and the host said, for a run that fails where nobody can look at it again.
      const log = join(api.server.dataDir!, 'host.log');
      console.log(`[diagnostics] role ${JSON.stringify(api.server.role)}; killed pid ${existsSync(`/proc/${before.pid}`) ? 'still exists' : 'gone'}`);
      if (existsSync(log)) console.log(`[diagnostics] host.log, last lines:\n${readFileSync(log, 'utf8').split('\n').slice(-40).join('\n')}`);
      throw error;
    });
    const restartMs = Date.now() - killed;
    console.log(`[figures] host restarted in VS Code ${restartMs} ms after SIGKILL`);
    assert.ok(restartMs < 10_000, `started again ${restartMs} ms after the kill`);
    // How it ended ("killed by SIGKILL") is known only to the window part that started that host.
    assert.match(role.kind === 'host' ? (role.notice ?? '') : '', new RegExp(`host \\(pid ${before.pid}, port ${before.port}\\) stopped.* started again`));
    assert.match(api.statusBar.text, /host restarted/);
    const back = await api.server.connection!.client.assets.get(saved.id);
    assert.equal(back.id, saved.id, 'what was acknowledged before the kill is there');
    await until('the asset in the Assets view again', () => api.assets.asset(saved.id), 20_000);
  });
});
