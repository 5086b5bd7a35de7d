/**
 * The flags a VS Code window starts the headless host with (hosting/hostCommand.ts): `--no-wait`
 * leaves with code 75 when the data directory is served, `--managed` is said in the port file, and
 * a bad tuning value stops the start with the flag's name.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../support/cli.ts';
import { tempDir } from '../support/helpers.ts';
import { tryStartHost } from '../../src/hosting/host.ts';
import { silentLogger } from '../../src/core/context.ts';
import { readPortFile } from '../../src/hosting/portFile.ts';
import { DATABASE_FILE } from '../../src/core/store/database.ts';
import { EXIT_NO_SQLITE, EXIT_SERVED_ELSEWHERE, EXIT_STORE_UNUSABLE } from '../../src/hosting/hostExit.ts';
import { spawnSync } from 'node:child_process';
import { ensureCliBuilt } from '../reliability/support.ts';

test('--no-wait leaves with code 75 while another process serves the data directory', async () => {
  const dataDir = tempDir('satchel-managed-');
  const other = await tryStartHost({ dataDir, logger: silentLogger, port: 0 });
  assert.ok(other);
  try {
    const result = await runCli(['--data-dir', dataDir, '--port', '0', '--no-wait', '--managed']);
    assert.equal(result.code, EXIT_SERVED_ELSEWHERE, result.stderr);
    assert.match(result.stdout, /already served .*--no-wait: leaving/s);
    assert.equal(readPortFile(dataDir)?.managed, undefined, 'a host started by hand is not marked as a window\'s');
  } finally {
    await other.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a store that will not open ends the host with code 77, and a bad --idle-minutes with the flag named', async () => {
  const dataDir = tempDir('satchel-managed-');
  try {
    writeFileSync(join(dataDir, DATABASE_FILE), 'this is not a SQLite database, and it is long enough to have a header'.repeat(20));
    const broken = await runCli(['--data-dir', dataDir, '--port', '0', '--no-wait']);
    assert.equal(broken.code, EXIT_STORE_UNUSABLE, broken.stderr);
    const bad = await runCli(['--data-dir', dataDir, '--port', '0', '--idle-minutes', 'soon']);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /--idle-minutes must be a number of minutes from 0, not soon/);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('the built host on a Node without node:sqlite ends with code 76, which a window explains as such', () => {
  const dir = tempDir('satchel-managed-');
  try {
    // What an Electron built without node:sqlite answers.
    const preload = join(dir, 'nosqlite.cjs');
    writeFileSync(preload, "const m = require('node:module'); const isBuiltin = m.isBuiltin; m.isBuiltin = (id) => !/sqlite/.test(id) && isBuiltin(id);");
    const result = spawnSync(process.execPath, ['--require', preload, ensureCliBuilt(), '--data-dir', dir], { encoding: 'utf8' });
    assert.equal(result.status, EXIT_NO_SQLITE, result.stderr);
    assert.match(result.stderr, /needs Node\.js 22\.13 or newer \(node:sqlite\)/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
