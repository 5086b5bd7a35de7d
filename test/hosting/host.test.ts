import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { currentHost, tryStartHost } from '../../src/hosting/host.ts';
import { readPortFile, PORT_FILE } from '../../src/hosting/portFile.ts';
import { silentLogger } from '../../src/core/context.ts';
import { tempDir, waitFor } from '../support/helpers.ts';
import { Satchel } from '../../src/core/satchel.ts';
import { codeSeed } from '../support/assetFixtures.ts';
import { TEST_AUTHOR } from '../support/authors.ts';

test('the host writes the port file, refuses a second host on the same data directory, and cleans up', async () => {
  const dataDir = tempDir();
  const host = await tryStartHost({ dataDir, logger: silentLogger, port: 0 });
  assert.ok(host);
  const portFile = readPortFile(dataDir);
  assert.equal(portFile?.port, host.server.port);
  assert.equal(portFile?.pid, process.pid);
  assert.equal(await tryStartHost({ dataDir, logger: silentLogger, port: 0 }), undefined);
  await host.close();
  assert.equal(existsSync(join(dataDir, PORT_FILE)), false);
  const next = await tryStartHost({ dataDir, logger: silentLogger, port: 0 });
  assert.ok(next, 'the lock is free again after close');
  await next.close();
});

test('currentHost says whether another process serves the directory, and on which port', async () => {
  const dataDir = tempDir();
  assert.deepEqual(currentHost(dataDir), { hosted: false });
  const host = await tryStartHost({ dataDir, logger: silentLogger, port: 0 });
  assert.ok(host);
  try {
    assert.deepEqual(currentHost(dataDir), { hosted: true, port: host.server.port });
  } finally {
    await host.close();
  }
  assert.deepEqual(currentHost(dataDir), { hosted: false }, 'free again after close');
});

test('the host says when its start-up warm-up is done (the CLI collects what it left behind then)', async () => {
  const dataDir = tempDir();
  let warmed: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (warmed = resolve));
  let calls = 0;
  const active: boolean[] = [];
  const host = await tryStartHost({
    dataDir,
    logger: silentLogger,
    port: 0,
    whileBulkWork: (busy) => void active.push(busy),
    afterWarmUp: () => {
      calls++;
      // The warm-up is bulk work: over (the host's priority back) before it is said to be done.
      assert.deepEqual(active, [true, false]);
      warmed();
    },
  });
  assert.ok(host);
  try {
    await done;
    assert.equal(calls, 1);
  } finally {
    await host.close();
  }
});

test('the host says when bulk work ends (the CLI collects what an import or a sync left behind then)', async () => {
  const dataDir = tempDir();
  let ends = 0;
  const active: boolean[] = [];
  let warmed: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (warmed = resolve));
  const host = await tryStartHost({ dataDir, logger: silentLogger, port: 0, afterBulkWork: () => void ends++, whileBulkWork: (busy) => void active.push(busy), afterWarmUp: () => warmed() });
  assert.ok(host);
  try {
    await done;
    ends = 0;
    active.length = 0;
    const body = JSON.stringify({ One: { scope: 'go', prefix: 'one', body: 'func one() int { return 1 }' } });
    await host.core.imports.import([{ name: 'one.code-snippets', text: () => body }]);
    await host.core.imports.merged();
    assert.equal(ends, 1);
    assert.deepEqual(active, [true, false], 'told as the import began and as it ended (the CLI lowers its priority between)');
  } finally {
    await host.close();
  }
  assert.equal(ends, 1, 'closing is not bulk work ending');
  assert.deepEqual(active, [true, false]);
});

test('bulk work under way as the store opens (a library\'s pending secrets scan) is told at once', async () => {
  const dataDir = tempDir();
  const store = Satchel.open({ dataDir, logger: silentLogger, secretsScan: false });
  try {
    await Promise.all(Array.from({ length: 300 }, (_, i) => store.assets.writes.create(codeSeed(`const n${i} = ${i};`), { author: TEST_AUTHOR })));
  } finally {
    await store.close();
  }
  const active: boolean[] = [];
  const host = await tryStartHost({ dataDir, logger: silentLogger, port: 0, whileBulkWork: (busy) => void active.push(busy) });
  assert.ok(host);
  try {
    assert.equal(active[0], true, 'the scan of 300 pending snippets is bulk work from the start');
    await host.core.assets.secrets.settled();
    await waitFor(() => active.at(-1) === false);
    assert.equal(host.core.assets.secrets.summary().scan.pending, 0);
  } finally {
    await host.close();
  }
});
