/**
 * "The host always restarts" (issue 18): after a clean stop or a crash, on a disk another program
 * has filled to the last byte, the host takes its lock (its holder note is best effort), gets back
 * its reserve so the WAL's side files fit, and serves what it stored. It used to wait for a host
 * that did not exist, forever, or call its intact database damaged.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { figures } from './support.ts';
import { assetIds, createAsset } from './writes.ts';
import { canMount } from './disk.ts';
import { withTmpfsHost } from './tmpfsHost.ts';

test('after a clean stop or a crash, a host restarts on a completely full disk and serves what it stored', { skip: !canMount() && 'needs root to mount a tmpfs' }, async () => {
  for (const stop of ['SIGTERM', 'SIGKILL'] as const) {
    await withTmpfsHost('satchel-rel-restart-', 16 * 1024, async (disk) => {
      const ids = [await createAsset(disk.port, 'const a = 1;'), await createAsset(disk.port, 'const b = 2;')];
      await disk.host.kill(stop);
      disk.fill();
      const started = performance.now();
      await disk.restart('SIGKILL');
      const listed = await assetIds(disk.port);
      figures('full-disk-restart', { after: stop, ms: Math.round(performance.now() - started), assets: listed.length });
      assert.deepEqual([...listed].sort(), [...ids].sort());
    });
  }
});
