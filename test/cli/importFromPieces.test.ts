/**
 * `satchel import --from-pieces URL`: with no host the command reads the stand-in Pieces OS itself
 * and writes the data directory; with a host serving it, the host reads Pieces OS. Either way a
 * second run adds nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { Satchel } from '../../src/core/satchel.ts';
import { tryStartHost } from '../../src/hosting/host.ts';
import { silentLogger } from '../../src/core/context.ts';
import { tempDir } from '../support/helpers.ts';
import { runCli } from '../support/cli.ts';
import { startPiecesOs } from '../support/piecesOsServer.ts';
import { ASSETS } from '../fixtures/piecesOs/library.ts';

test('with no host: the Pieces library is imported directly, and a second run adds nothing', { timeout: 90_000 }, async () => {
  const dataDir = tempDir('satchel-cli-pieces-');
  const pieces = await startPiecesOs();
  try {
    const first = await runCli(['import', '--data-dir', dataDir, '--from-pieces', pieces.url]);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stderr, /importing into it directly/);
    assert.match(first.stdout, new RegExp(`From Pieces OS 12\\.3\\.1 at 127\\.0\\.0\\.1:${pieces.port}:`));
    assert.match(first.stdout, /imported 4, skipped 0 duplicates, 0 failed, 1 conversations/);
    const again = await runCli(['import', '--data-dir', dataDir, '--from-pieces', pieces.url]);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /imported 0, skipped 4 duplicates, 0 failed \(/);
    const core = Satchel.open({ dataDir });
    try {
      assert.deepEqual(core.assets.identifiers().sort(), ASSETS.map((asset) => asset.id).sort());
    } finally {
      await core.close();
    }
  } finally {
    await pieces.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('with a host: the host reads Pieces OS; an address that is not Pieces OS fails with the reason', { timeout: 90_000 }, async () => {
  const dataDir = tempDir('satchel-cli-pieces-host-');
  const host = await tryStartHost({ dataDir, logger: silentLogger, port: 0 });
  assert.ok(host);
  const pieces = await startPiecesOs();
  try {
    const result = await runCli(['import', '--data-dir', dataDir, '--from-pieces', pieces.url]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /through the Satchel host/);
    assert.match(result.stdout, /imported 4, skipped 0 duplicates/);
    assert.equal(host.core.assets.identifiers().length, ASSETS.length);
    const refused = await runCli(['import', '--data-dir', dataDir, '--from-pieces', host.server.url]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /is Satchel itself, not Pieces OS/);
  } finally {
    await pieces.close();
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
