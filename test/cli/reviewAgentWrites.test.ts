/**
 * `satchel --review-agent-writes` (what `npm start -- --review-agent-writes` runs): the headless
 * host makes agents' writes wait for review; the choice is kept in the data directory, so a later
 * start without the flag honours it, and `--no-review-agent-writes` turns it off.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { once } from 'node:events';
import { CLI_ARGS } from '../support/cli.ts';
import { tempDir } from '../support/helpers.ts';
import { SatchelClient } from '../../src/client/satchelClient.ts';
import { authorOf } from '../../src/core/history/authors.ts';

const AGENT = authorOf('agent', 'a test agent');

/** Starts the CLI host; resolves with its URL once it serves. */
async function startCli(dataDir: string, flags: readonly string[]): Promise<{ child: ChildProcess; url: string; log: () => string }> {
  const child = spawn(process.execPath, [...CLI_ARGS, '--data-dir', dataDir, '--port', '0', ...flags], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const served = /serving .* on (http:\/\/\S+?)(;|\s|$)/.exec(output);
      if (served) resolve(served[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the CLI exited (${code}) before serving:\n${output}`)));
  });
  return { child, url, log: () => output };
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

test('the CLI host honours --review-agent-writes, keeps the choice, and --no-review-agent-writes turns it off', { timeout: 90_000 }, async () => {
  const dataDir = tempDir();
  try {
    const reviewing = await startCli(dataDir, ['--review-agent-writes']);
    assert.match(reviewing.log(), /agents' writes wait for review/);
    const agent = new SatchelClient(reviewing.url, { author: AGENT });
    try {
      const proposed = await agent.agentChanges.save({ content: 'echo numbat_marker\n', name: 'numbat' });
      assert.equal(proposed.status, 'proposed', 'the write waits for review');
      assert.equal((await agent.assets.search('numbat_marker')).iterable?.length ?? 0, 0);
    } finally {
      agent.dispose();
      await stop(reviewing.child);
    }

    const unflagged = await startCli(dataDir, []);
    const client = new SatchelClient(unflagged.url);
    try {
      assert.equal((await client.agentChanges.list()).reviewing, true, 'the last choice stands without the flag');
    } finally {
      client.dispose();
      await stop(unflagged.child);
    }

    const off = await startCli(dataDir, ['--no-review-agent-writes']);
    const after = new SatchelClient(off.url, { author: AGENT });
    try {
      const list = await after.agentChanges.list();
      assert.equal(list.reviewing, false);
      assert.equal(list.total, 1, 'the proposal made earlier is still listed');
      assert.equal((await after.agentChanges.save({ content: 'echo numbat_counted\n' })).status, 'applied');
    } finally {
      after.dispose();
      await stop(off.child);
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
