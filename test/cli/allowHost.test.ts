/**
 * `satchel --allow-host NAME` (or SATCHEL_ALLOWED_HOSTS): the headless host answers that Host name
 * too, e.g. host.docker.internal for tools in a container; a name that is not a host name stops
 * the start with a clear message.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { rmSync } from 'node:fs';
import { CLI_ARGS, runCli } from '../support/cli.ts';
import { tempDir } from '../support/helpers.ts';

function status(port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/.well-known/health', headers: { host } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

test('--allow-host host.docker.internal: the host answers that name and still refuses others', async () => {
  const dataDir = tempDir('satchel-allow-');
  const child = spawn(process.execPath, [...CLI_ARGS, '--data-dir', dataDir, '--port', '0', '--allow-host', 'host.docker.internal'], { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /serving .* on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
        if (match) resolve(Number(match[1]));
      });
      child.once('exit', (code) => reject(new Error(`the CLI exited (${code}) before serving: ${out}`)));
    });
    assert.equal(await status(port, `host.docker.internal:${port}`), 200);
    assert.equal(await status(port, `attacker.example:${port}`), 421);
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('an allowed host with a port is refused at start with the reason', async () => {
  const dataDir = tempDir('satchel-allow-');
  try {
    const result = await runCli(['--data-dir', dataDir, '--port', '0', '--allow-host', 'host.docker.internal:39300']);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /"host\.docker\.internal:39300" is not a host name/);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
