/**
 * Expected ends log no stack: SIGTERM while a large import is received, parsed or written, and a
 * sync or a trash empty whose caller leaves, end with one plain line at most. Each runs on a host
 * process of the shipped CLI; the assertion is on what the host printed (no `    at ` line).
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { request } from 'node:http';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../support/helpers.ts';
import { SatchelClient } from '../../src/client/satchelClient.ts';
import { HostProcess, figures, sleep } from './support.ts';
import { grownTrash } from './grownTrash.ts';

const root = tempDir('satchel-rel-quiet-');
after(() => rmSync(root, { recursive: true, force: true }));

/** A VS Code snippets file of `count` snippets, as the body of POST /satchel/import. */
function importBody(count: number): Buffer {
  const snippets: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) snippets[`snip ${i}`] = { prefix: `p${i}`, scope: 'javascript', body: [`function f${i}(a, b) {`, `  return a * ${i} + b;`, '}'] };
  return Buffer.from(JSON.stringify({ files: [{ name: 'big.code-snippets', content: JSON.stringify(snippets) }] }));
}

/** The host's printed lines that are a stack frame. */
function stackLines(host: HostProcess): string[] {
  return `${host.stdout}\n${host.stderr}`.split('\n').filter((line) => /^\s+at /.test(line));
}

/** POSTs `body` to /satchel/import; `sent` resolves once the whole body is written, `firstLine` with the first NDJSON line. */
function postImport(port: number, body: Buffer): { sent: Promise<void>; firstLine: Promise<string>; done: Promise<string> } {
  let sent!: () => void;
  let firstLine!: (line: string) => void;
  const sentP = new Promise<void>((resolve) => (sent = resolve));
  const firstP = new Promise<string>((resolve) => (firstLine = resolve));
  const done = new Promise<string>((resolve) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/satchel/import', headers: { 'content-type': 'application/json', 'content-length': body.length }, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => {
        text += chunk;
        if (text.includes('\n')) firstLine(text.slice(0, text.indexOf('\n')));
      });
      res.on('end', () => resolve(text)).on('error', () => resolve(text));
    });
    req.on('error', () => resolve(''));
    req.end(body, () => sent());
  });
  return { sent: sentP, firstLine: firstP, done };
}

/**
 * Runs a long operation twice: its caller leaves at the first progress line, then (after the host
 * has logged how it ended) SIGTERM at the second run's first progress line; resolves once the host exited.
 */
async function leaveThenTerminate(host: HostProcess, run: (signal: AbortSignal, onProgress: () => void) => Promise<unknown>): Promise<void> {
  for (const stop of ['leave', 'sigterm'] as const) {
    const controller = new AbortController();
    let seen = false;
    await run(controller.signal, () => {
      if (seen) return;
      seen = true;
      if (stop === 'leave') controller.abort();
      else host.child.kill('SIGTERM');
    }).catch(() => undefined);
    assert.ok(seen, `the operation reported progress before it ended (${stop})`);
    if (stop === 'leave') await sleep(500);
  }
  await host.exited;
}

const BODY = importBody(60_000);

for (const [moment, delayMs] of [
  // The parse on the JSON worker takes a few hundred ms; SIGTERM at several moments of it.
  ['as the body is parsed', 0],
  ['as the body is parsed', 30],
  ['as the body is parsed', 60],
  ['as the body is parsed', 120],
  ['while batches are written', -1],
] as const) {
  test(`SIGTERM ${moment}${delayMs > 0 ? ` (+${delayMs} ms)` : ''} mid-import logs no stack`, { timeout: 120_000 }, async () => {
    const host = new HostProcess(join(root, `import-${moment.length}-${delayMs}`));
    try {
      const { port } = await host.waitFor('serving', 30_000);
      const posted = postImport(port!, BODY);
      if (delayMs >= 0) {
        await posted.sent;
        await sleep(delayMs);
      } else {
        await posted.firstLine;
      }
      host.child.kill('SIGTERM');
      const exit = await host.exited;
      const reply = await posted.done;
      figures('quiet-sigterm-import', { moment: moment.replaceAll(' ', '_'), delay_ms: delayMs, stack_lines: stackLines(host).length, reply_tail: JSON.stringify(reply.slice(-120)) });
      assert.equal(exit.code, 0, host.stderr);
      assert.deepEqual(stackLines(host), [], `${host.stdout}\n${host.stderr}`);
    } finally {
      await host.kill();
    }
  });
}

test('a trash empty whose caller leaves, then SIGTERM during a second empty, log no stack', { timeout: 300_000 }, async () => {
  const dataDir = await grownTrash(4_000);
  const host = new HostProcess(dataDir);
  try {
    const { port } = await host.waitFor('serving', 30_000);
    const client = new SatchelClient(`http://127.0.0.1:${port}`);
    await leaveThenTerminate(host, (signal, onProgress) => client.trash.empty({ signal, onProgress }));
    await host.exited;
    client.dispose();
    figures('quiet-trash-empty', { stack_lines: stackLines(host).length });
    assert.match(host.stdout, /cancelled/, 'the left empty was logged as cancelled');
    assert.deepEqual(stackLines(host), [], `${host.stdout}\n${host.stderr}`);
  } finally {
    await host.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a sync whose caller leaves, then SIGTERM during a second sync, log no stack', { timeout: 300_000 }, async () => {
  const remote = join(root, 'remote.git');
  execFileSync('git', ['init', '--bare', '--quiet', '--initial-branch=main', remote]);
  const host = new HostProcess(join(root, 'sync'));
  try {
    const { port } = await host.waitFor('serving', 30_000);
    const client = new SatchelClient(`http://127.0.0.1:${port}`);
    const content = importBody(3_000).toString('utf8');
    const files = (JSON.parse(content) as { files: Array<{ name: string; content: string }> }).files;
    await client.imports.importFiles(files.map((file) => ({ name: file.name, read: async () => file })));
    await leaveThenTerminate(host, (signal, onProgress) => client.sync.run({ remote }, { signal, onProgress }));
    await host.exited;
    client.dispose();
    figures('quiet-sync', { stack_lines: stackLines(host).length });
    assert.deepEqual(stackLines(host), [], `${host.stdout}\n${host.stderr}`);
  } finally {
    await host.kill();
  }
});
