/**
 * "The host always restarts" (issue 18): after a clean stop or a crash, on a disk that another program has filled
 * to the last byte, the host takes its lock and serves what it stored (its lock note is best
 * effort; it used to wait for a host that did not exist, forever).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers.ts';
import { HostProcess, figures } from './support.ts';
import { assetIds, createAsset } from './writes.ts';
import { canMount, mountTmpfs, unmount } from './disk.ts';

function fill(path: string): void {
  const fd = openSync(path, 'w');
  try {
    for (const size of [1 << 20, 4096, 512, 1]) {
      try {
        for (;;) writeSync(fd, Buffer.alloc(size));
      } catch {
        // full at this granularity
      }
    }
  } finally {
    closeSync(fd);
  }
}

test('after a clean stop or a crash, a host restarts on a completely full disk and serves what it stored', { skip: !canMount() && 'needs root to mount a tmpfs' }, async () => {
  for (const stop of ['SIGTERM', 'SIGKILL'] as const) await restartOnFullDisk(stop);
});

async function restartOnFullDisk(stop: 'SIGTERM' | 'SIGKILL'): Promise<void> {
  const mount = tempDir('satchel-rel-restart-');
  assert.ok(mountTmpfs(mount, 16 * 1024), 'mount a 16 MB tmpfs');
  const dataDir = join(mount, 'data');
  let host = new HostProcess(dataDir);
  try {
    const { port } = await host.waitFor('serving');
    const ids = [await createAsset(port!, 'const a = 1;'), await createAsset(port!, 'const b = 2;')];
    await host.kill(stop);
    fill(join(mount, 'filler'));
    host = new HostProcess(dataDir);
    const started = performance.now();
    const restarted = await host.waitFor('serving', 20_000);
    const listed = await assetIds(restarted.port!);
    figures('full-disk-restart', { after: stop, ms: Math.round(performance.now() - started), assets: listed.length });
    assert.deepEqual([...listed].sort(), [...ids].sort());
  } finally {
    await host.kill();
    rmSync(join(mount, 'filler'), { force: true });
    unmount(mount);
  }
}
