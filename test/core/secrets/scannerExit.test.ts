/**
 * A SecretScanner nobody disposed never keeps its process alive: once its worker has nothing to do it
 * is let go (a CLI command that scanned a snippet exits when it is done), while a scan still awaited
 * holds the process until it is answered.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const child = fileURLToPath(new URL('./undisposedScanner.ts', import.meta.url));
/** Far above the child's own work (a second or two on a loaded machine); a process held open never ends. */
const BOUND_MS = 30_000;

test('a process with a used, undisposed scanner exits by itself, after its scans are answered', async () => {
  const proc = spawn(process.execPath, ['--experimental-strip-types', '--disable-warning=ExperimentalWarning', child], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  proc.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const killer = setTimeout(() => proc.kill('SIGKILL'), BOUND_MS);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => proc.once('close', (c, s) => resolve([c, s])));
  clearTimeout(killer);
  assert.equal(signal, null, `the child was still running after ${BOUND_MS} ms (its output: ${out}${err})`);
  assert.equal(code, 0, err);
  assert.deepEqual(JSON.parse(out.trim()), { thread: true, found: true, stored: null });
});
