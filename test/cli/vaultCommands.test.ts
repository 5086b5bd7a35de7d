/**
 * `satchel export --vault DIR` and `satchel import DIR` of a vault: with no host the command opens
 * the store itself; with a host serving it, the export reads beside the host and the import goes
 * through it. Either way the second library is the first, record for record.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Satchel } from '../../src/core/satchel.ts';
import { tryStartHost } from '../../src/hosting/host.ts';
import { silentLogger } from '../../src/core/context.ts';
import { tempDir } from '../support/helpers.ts';
import { runCli } from '../support/cli.ts';
import { allConversations, allRecords, variedLibrary } from '../core/sync/vaultSupport.ts';

async function library(dataDir: string): Promise<Map<string, unknown>> {
  const core = Satchel.open({ dataDir, importWorker: false });
  try {
    return new Map([...allRecords(core)].map(([id, record]) => [id, { ...record, content: typeof record.content === 'string' ? record.content : [...record.content] }]));
  } finally {
    await core.close();
  }
}

test('with no host: export writes the vault, import of it into another data directory makes the same library', { timeout: 120_000 }, async () => {
  const root = tempDir('satchel-cli-vault-');
  const [a, b, vault] = [join(root, 'a'), join(root, 'b'), join(root, 'vault')];
  try {
    const core = Satchel.open({ dataDir: a, importWorker: false });
    await variedLibrary(core);
    await core.close();
    const exported = await runCli(['export', '--data-dir', a, '--vault', vault]);
    assert.equal(exported.code, 0, exported.stderr);
    assert.match(exported.stdout, /exported 6 of 6 snippets and 2 conversations/);
    assert.ok(existsSync(join(vault, 'satchel.json')));
    const imported = await runCli(['import', '--data-dir', b, vault]);
    assert.equal(imported.code, 0, imported.stderr);
    assert.match(imported.stdout, /imported 6, skipped 0 duplicates, 0 failed, 2 conversations/);
    assert.deepEqual(await library(b), await library(a));
    // A directory that is neither empty nor a vault is refused, nothing written into it.
    const other = join(root, 'other');
    mkdirSync(other);
    writeFileSync(join(other, 'notes.txt'), 'mine');
    const refused = await runCli(['export', '--data-dir', a, '--vault', other]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /not empty and is not a Satchel vault/);
    assert.ok(!existsSync(join(other, 'satchel.json')));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('with a host serving both directories: the export reads beside it and the import goes through it', { timeout: 120_000 }, async () => {
  const root = tempDir('satchel-cli-vault-host-');
  const [a, b, vault] = [join(root, 'a'), join(root, 'b'), join(root, 'vault')];
  const hostA = await tryStartHost({ dataDir: a, logger: silentLogger, port: 0 });
  const hostB = await tryStartHost({ dataDir: b, logger: silentLogger, port: 0 });
  assert.ok(hostA && hostB);
  try {
    const ids = await variedLibrary(hostA.core);
    const exported = await runCli(['export', '--data-dir', a, '--vault', vault]);
    assert.equal(exported.code, 0, exported.stderr);
    assert.match(exported.stderr, /beside the Satchel host/);
    const imported = await runCli(['import', '--data-dir', b, vault]);
    assert.equal(imported.code, 0, imported.stderr);
    assert.match(imported.stderr, /through the Satchel host/);
    assert.match(imported.stdout, /imported 6, skipped 0 duplicates, 0 failed, 2 conversations/);
    assert.deepEqual([...allRecords(hostB.core).keys()].sort(), ids.slice(0, 6).sort());
    assert.deepEqual(allConversations(hostB.core), allConversations(hostA.core));
    const copies = allRecords(hostB.core);
    for (const [id, record] of allRecords(hostA.core)) {
      const copy = copies.get(id)!;
      assert.deepEqual({ ...copy, content: String(copy.content) }, { ...record, content: String(record.content) });
    }
  } finally {
    await hostA.close();
    await hostB.close();
    rmSync(root, { recursive: true, force: true });
  }
});
