/**
 * `satchel import`: with no host it takes the host lock and writes the data directory itself;
 * with a host serving the directory it imports through the host (whose store then has the assets).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Satchel } from '../../src/core/satchel.ts';
import { tryStartHost } from '../../src/hosting/host.ts';
import { silentLogger } from '../../src/core/context.ts';
import { tempDir } from '../support/helpers.ts';
import { CLI_ARGS, runCli } from '../support/cli.ts';

const fixtures = fileURLToPath(new URL('../fixtures/import/', import.meta.url));

test('with no host: the folder is imported into the data directory directly, and a re-run skips it all', { timeout: 60_000 }, async () => {
  const dataDir = tempDir('satchel-cli-import-');
  try {
    const first = await runCli(['import', '--data-dir', dataDir, fixtures]);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stderr, /importing into it directly/);
    assert.match(first.stdout, /imported 23, skipped 0 duplicates/);
    assert.match(first.stdout, /unknown\.json: .*not a file Satchel imports/);
    assert.match(first.stderr, /\[#+\.*\] /, 'a progress bar was drawn');
    const again = await runCli(['import', '--data-dir', dataDir, fixtures]);
    assert.match(again.stdout, /imported 0, skipped 23 duplicates/);
    const core = Satchel.open({ dataDir });
    try {
      assert.equal(core.assets.identifiers().length, 23);
      // The command merged the search index before it exited: the store owes no merge.
      assert.equal(core.assets.bulkTargets().indexing.search.merging?.pending(), false);
    } finally {
      await core.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('with a host serving the data directory: the import goes through the host', { timeout: 60_000 }, async () => {
  const dataDir = tempDir('satchel-cli-import-host-');
  const host = await tryStartHost({ dataDir, logger: silentLogger, port: 0 });
  assert.ok(host);
  try {
    const result = await runCli(['import', '--data-dir', dataDir, `${fixtures}gist.json`]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /through the Satchel host/);
    assert.match(result.stdout, /imported 2, skipped 0 duplicates, 1 failed/);
    assert.equal(host.core.assets.identifiers().length, 2);
  } finally {
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('Ctrl-C cancels after the current batch: exit 130, a summary, whole batches kept', { timeout: 60_000 }, async () => {
  const dataDir = tempDir('satchel-cli-cancel-');
  try {
    const file = join(dataDir, 'go.json');
    const snippets = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`Cancel ${i}`, { prefix: `c${i}`, body: `func cancel${i}() int { return ${i} }` }]));
    writeFileSync(file, JSON.stringify(snippets));
    const child = spawn(process.execPath, [...CLI_ARGS, 'import', '--data-dir', dataDir, '--batch-size', '500', file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let interrupted = false;
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      // The progress line after the first batch (output is not a terminal: a line per update).
      if (!interrupted && / 500 new /.test(stderr)) {
        interrupted = true;
        child.kill('SIGINT');
      }
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    assert.equal(code, 130, stderr);
    assert.match(stdout, /^Cancelled: imported \d+/m);
    const imported = Number(/imported ([\d,]+)/.exec(stdout)![1]!.replace(/,/g, ''));
    assert.ok(imported >= 500 && imported < 20_000 && imported % 500 === 0, `${imported} imported`);
    const core = Satchel.open({ dataDir });
    try {
      assert.equal(core.assets.identifiers().length, imported);
    } finally {
      await core.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('bad arguments: usage and a non-zero exit, nothing written', async () => {
  const result = await runCli(['import']);
  assert.equal(result.code, 2);
  assert.match(result.stdout, /Usage: satchel import/);
  const dataDir = tempDir('satchel-cli-none-');
  try {
    const missing = await runCli(['import', '--data-dir', dataDir, '/nonexistent/snippets.json']);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /Cannot read \/nonexistent/);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
