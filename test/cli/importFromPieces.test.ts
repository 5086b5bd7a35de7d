/**
 * `satchel import --from-pieces URL`: with no host the command reads the stand-in Pieces OS itself
 * and writes the data directory; with a host serving it, the host reads Pieces OS. Either way a
 * second run adds nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Satchel } from '../../src/core/satchel.ts';
import { tryStartHost } from '../../src/hosting/host.ts';
import { silentLogger } from '../../src/core/context.ts';
import { tempDir } from '../support/helpers.ts';
import { runCli } from '../support/cli.ts';
import { startPiecesOs } from '../support/piecesOsServer.ts';
import { writePiecesArchive } from '../support/piecesArchive.ts';
import { ANCHOR, ANCHOR_POINT, ANNOTATIONS, ASSETS } from '../fixtures/piecesOs/library.ts';

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

test('with a host: an export-tool folder goes to the host as parts, annotations, anchors and authors included', { timeout: 90_000 }, async () => {
  const dataDir = tempDir('satchel-cli-pieces-archive-');
  const host = await tryStartHost({ dataDir, logger: silentLogger, port: 0 });
  assert.ok(host);
  const archive = join(tempDir('satchel-cli-pieces-export-'), 'Pieces-Export');
  mkdirSync(archive);
  writePiecesArchive(archive);
  try {
    const result = await runCli(['import', '--data-dir', dataDir, archive]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /through the Satchel host/);
    assert.match(result.stdout, /imported 4, skipped 0 duplicates, 0 failed, 1 conversations/);
    const records = host.core.context.records;
    assert.equal(records.get<{ text: string }>('annotation', ANNOTATIONS.retryComment.id)?.text, ANNOTATIONS.retryComment.text);
    assert.equal(records.get<{ fullpath: string }>('anchor', ANCHOR.id)?.fullpath, ANCHOR_POINT.fullpath);
    assert.ok(host.core.context.links.has({ kind: 'anchor', id: ANCHOR.id }, { kind: 'asset', id: 'asset-retry-0001' }));
    assert.equal(host.core.assets.get('asset-parse-0002').formats.iterable[0]?.application.name, 'JETBRAINS');
    assert.equal(host.core.assets.get('asset-sql-0003').created.value, '2023-11-20T16:45:10.500Z');
    const again = await runCli(['import', '--data-dir', dataDir, archive]);
    assert.match(again.stdout, /imported 0, skipped 4 duplicates, 0 failed \(/);
  } finally {
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(join(archive, '..'), { recursive: true, force: true });
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
