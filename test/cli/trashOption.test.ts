/**
 * The headless host's trash retention: `--trash-retention-days N` (or SATCHEL_TRASH_RETENTION_DAYS)
 * reaches the host, whose trash listing reports it; a value out of range stops the CLI before it
 * serves, with a message naming the option.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { request } from 'undici';
import { retentionOption } from '../../src/cli/trashOption.ts';
import { tempDir } from '../support/helpers.ts';
import { CLI_ARGS, runCli } from '../support/cli.ts';

/** Starts the CLI from its sources, reads the port it serves on, returns the retention its trash reports, and stops it. */
async function reportedRetention(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<number> {
  const dataDir = tempDir('satchel-cli-trash-');
  const child = spawn(process.execPath, [...CLI_ARGS, '--data-dir', dataDir, '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, SATCHEL_TRASH_RETENTION_DAYS: '', ...env },
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`the CLI exited with ${code} before serving`)));
      createInterface({ input: child.stdout }).on('line', (line) => {
        const serving = /serving .* on http:\/\/127\.0\.0\.1:(\d+)/.exec(line);
        if (serving) resolve(Number(serving[1]));
      });
    });
    const reply = await request(`http://127.0.0.1:${port}/satchel/trash`);
    assert.equal(reply.statusCode, 200);
    return ((await reply.body.json()) as { retentionDays: number }).retentionDays;
  } finally {
    child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

test('retentionOption: whole days from 0 to 3650; empty or absent means the default', () => {
  assert.equal(retentionOption(undefined), undefined);
  assert.equal(retentionOption(''), undefined);
  assert.equal(retentionOption('0'), 0);
  assert.equal(retentionOption('7'), 7);
  assert.equal(retentionOption('3650'), 3650);
  for (const bad of ['-1', '1.5', 'week', '3651']) assert.throws(() => retentionOption(bad), /--trash-retention-days must be a whole number from 0 to 3650/);
});

test('the host started with --trash-retention-days or SATCHEL_TRASH_RETENTION_DAYS keeps its trash that long (30 days otherwise)', { timeout: 120_000 }, async () => {
  assert.equal(await reportedRetention([]), 30);
  assert.equal(await reportedRetention(['--trash-retention-days', '0']), 0);
  assert.equal(await reportedRetention([], { SATCHEL_TRASH_RETENTION_DAYS: '7' }), 7);
  assert.equal(await reportedRetention(['--trash-retention-days', '90'], { SATCHEL_TRASH_RETENTION_DAYS: '7' }), 90, 'the flag wins over the environment');
});

test('an out-of-range retention stops the CLI before it serves', { timeout: 60_000 }, async () => {
  const dataDir = tempDir('satchel-cli-trash-');
  try {
    const result = await runCli(['--data-dir', dataDir, '--port', '0', '--trash-retention-days=-2']);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /--trash-retention-days must be a whole number from 0 to 3650, not -2/);
    assert.doesNotMatch(result.stdout, /serving/);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
