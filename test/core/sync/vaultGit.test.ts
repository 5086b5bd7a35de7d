/** The vault kept in git by hand or by sync: a Windows clone (core.autocrlf=true) round-trips byte for byte; export takes a fresh git work tree and a file manager's litter. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, withCore } from '../../support/helpers.ts';
import { exportVault } from '../../../src/core/sync/vaultExport.ts';
import { vaultParts } from '../../../src/core/sync/vaultImport.ts';
import { allRecords, conversationsOf, recordsOf, seed, variedLibrary } from './vaultSupport.ts';
import { comparable, withMachines } from './syncSupport.ts';
import { TEST_WRITE } from '../../support/authors.ts';

const SLOW = { timeout: 120_000 };

test('a clone of the synced vault made with core.autocrlf=true (Git for Windows) imports byte for byte, and its machine then syncs with no conflict copy', SLOW, async () => {
  await withMachines(async ({ a, b, remote, root }) => {
    await variedLibrary(a);
    await a.assets.writes.create(seed('const a = 1;\nconst b = 2;\n', { name: 'Plain LF' }), TEST_WRITE);
    await a.sync.sync();
    assert.equal(execFileSync('git', ['--git-dir', remote, 'show', 'main:.gitattributes'], { encoding: 'utf8' }), '* -text\n');
    const clone = join(root, 'windows');
    execFileSync('git', ['-c', 'core.autocrlf=true', 'clone', '--quiet', remote, clone]);
    await b.imports.import(vaultParts(clone).map((part) => ({ name: part.name, parsed: part.read() })));
    const before = allRecords(a);
    const after = allRecords(b);
    assert.equal(after.size, before.size);
    for (const [id, record] of before) assert.deepEqual(comparable(after.get(id)!), comparable(record), record.name);
    const summary = await b.sync.sync();
    assert.deepEqual(summary.notices, []);
    assert.equal(b.sync.conflicts().length, 0);
    assert.equal(summary.sent, 0, 'nothing rewritten to send back');
  });
});

test('export --vault takes a folder that only holds .git, writes the vault\'s .gitattributes, and a .DS_Store in the vault does not stop the next export', async () => {
  const root = tempDir('satchel-vault-git-');
  const dir = join(root, 'vault');
  try {
    await withCore(async (core) => {
      await variedLibrary(core);
      const ids = core.assets.identifiers();
      const run = () => exportVault(dir, recordsOf(core), [ids], ids.length, { conversations: conversationsOf(core) });
      execFileSync('git', ['init', '--quiet', dir]);
      assert.equal((await run()).exported, ids.length);
      assert.equal(readFileSync(join(dir, '.gitattributes'), 'utf8'), '* -text\n');
      for (const litter of [join(dir, 'assets', '.DS_Store'), join(dir, 'conversations', '.DS_Store')]) writeFileSync(litter, 'mac');
      const shard = join(dir, 'assets', 'ff');
      mkdirSync(shard, { recursive: true });
      writeFileSync(join(shard, '.DS_Store'), 'mac');
      core.assets.writes.delete(ids[0]!, TEST_WRITE);
      const again = await exportVault(dir, recordsOf(core), [ids.slice(1)], ids.length - 1, { conversations: conversationsOf(core) });
      assert.equal(again.removed, 1);
      assert.ok(existsSync(join(dir, 'assets', '.DS_Store')), 'a file that is not a record is left alone');
    });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a snippet emptied by an edit (the edit door takes it) is exported and imported back as it is, not refused as empty', async () => {
  const root = tempDir('satchel-vault-empty-');
  const dir = join(root, 'vault');
  try {
    let id = '';
    await withCore(async (core) => {
      id = (await core.assets.writes.create(seed('soon gone\n', { name: 'Emptied' }), TEST_WRITE)).id;
      core.assets.writes.edit(id, { content: { text: '' } }, TEST_WRITE);
      const ids = core.assets.identifiers();
      await exportVault(dir, recordsOf(core), [ids], ids.length);
    });
    await withCore(async (core) => {
      const summary = await core.imports.import(vaultParts(dir).map((part) => ({ name: part.name, parsed: part.read() })));
      assert.deepEqual(summary.failures, []);
      assert.equal(recordsOf(core).read(id)?.content, '');
    });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
