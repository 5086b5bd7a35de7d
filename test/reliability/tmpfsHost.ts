/**
 * A host process serving a data directory on a small tmpfs of its own (a disk the test can fill),
 * restartable, and everything undone afterwards: the host stopped, the filler removed, the tmpfs
 * unmounted.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../support/helpers.ts';
import { HostProcess } from './support.ts';
import { fillDisk, mountTmpfs, unmount } from './disk.ts';

export interface TmpfsHost {
  readonly dataDir: string;
  readonly host: HostProcess;
  readonly port: number;
  /** Another program takes every byte left on the tmpfs. */
  fill(): void;
  /** Stops the host with `signal` and starts a new one on the same directory; resolves once it serves. */
  restart(signal: NodeJS.Signals): Promise<void>;
}

export async function withTmpfsHost(prefix: string, sizeKb: number, body: (disk: TmpfsHost) => Promise<void>): Promise<void> {
  const mount = tempDir(prefix);
  assert.ok(mountTmpfs(mount, sizeKb), `mount a ${sizeKb} KB tmpfs`);
  const dataDir = join(mount, 'data');
  let host = new HostProcess(dataDir);
  let port = 0;
  try {
    port = (await host.waitFor('serving')).port!;
    await body({
      dataDir,
      get host() {
        return host;
      },
      get port() {
        return port;
      },
      fill: () => fillDisk(join(mount, 'filler')),
      async restart(signal) {
        await host.kill(signal);
        host = new HostProcess(dataDir);
        port = (await host.waitFor('serving')).port!;
      },
    });
  } finally {
    await host.kill();
    rmSync(join(mount, 'filler'), { force: true });
    unmount(mount);
  }
}
