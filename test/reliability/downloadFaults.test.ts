/**
 * Downloads that must stop on their own (issue 18 row 2): an origin on 127.0.0.1 that streams
 * without a Content-Length and never ends. A declared size is enforced; a download of unknown size
 * stops while there is room left on the disk; a disk filled by someone else mid-download fails the
 * download, not the process; the partial file is deleted; and the host always starts again, even
 * on a disk that is still full.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers.ts';
import { HostProcess, figures, raw, sleep } from './support.ts';
import { mountTmpfs, unmount, canMount } from './disk.ts';

let origin: Server;
let originPort = 0;

before(async () => {
  // Every path streams GGUF-looking bytes forever, chunked (no Content-Length), 1 MiB at a time.
  origin = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    res.write(Buffer.from('GGUF'));
    const chunk = Buffer.alloc(1024 * 1024, 1);
    const pump = (): void => {
      while (!res.destroyed && res.write(chunk)) {
        // keep writing until the socket pushes back
      }
      if (!res.destroyed) res.once('drain', () => setTimeout(pump, req.url?.includes('slow') ? 50 : 0));
    };
    pump();
    res.on('error', () => {});
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originPort = (origin.address() as { port: number }).port;
});

after(() => {
  origin.closeAllConnections();
  origin.close();
});

const JSON_HEADERS = { 'content-type': 'application/json' };

async function createModel(port: number, path: string, declaredBytes?: number): Promise<string> {
  const reply = await raw(port, {
    method: 'POST',
    path: '/models/create',
    headers: JSON_HEADERS,
    body: JSON.stringify({
      version: '1',
      created: { value: new Date().toISOString() },
      name: `endless ${path}`,
      cloud: false,
      type: 'BALANCED',
      usage: 'CODE_CONVERSATION',
      unique: `http://127.0.0.1:${originPort}/${path}.gguf`,
      ...(declaredBytes !== undefined ? { bytes: { value: declaredBytes } } : {}),
    }),
  });
  assert.equal(reply.status, 200, reply.text);
  return (reply.json as { id: string }).id;
}

async function progress(port: number, id: string): Promise<string> {
  const reply = await raw(port, { path: `/model/${id}/download/progress` });
  return String((reply.json as { status?: unknown } | undefined)?.status);
}

/** Starts the download and waits until it has ended (any final state); returns that state and the time. */
async function downloadToEnd(port: number, id: string, timeoutMs = 60_000): Promise<{ status: string; ms: number }> {
  const started = performance.now();
  const reply = await raw(port, { method: 'POST', path: `/model/${id}/download` });
  assert.equal(reply.status, 200, reply.text);
  for (;;) {
    const model = await raw(port, { path: `/model/${id}` });
    if ((model.json as { downloading?: boolean }).downloading === false) break;
    if (performance.now() - started > timeoutMs) throw new Error(`the download of ${id} was still running after ${timeoutMs} ms`);
    await sleep(100);
  }
  return { status: await progress(port, id), ms: Math.round(performance.now() - started) };
}

/** Files left in a model's folder. */
function leftovers(dataDir: string, id: string): string[] {
  const folder = join(dataDir, 'models', id);
  return existsSync(folder) ? readdirSync(folder) : [];
}

test('a declared size is enforced on a body without Content-Length, and the partial file is deleted', async () => {
  const dataDir = tempDir('satchel-rel-dl-');
  const host = new HostProcess(dataDir);
  try {
    const { port } = await host.waitFor('serving');
    const id = await createModel(port!, 'declared', 4 * 1024 * 1024);
    // Short: without the bound this download writes about 200 MB a second until the disk is full.
    const result = await downloadToEnd(port!, id, 20_000);
    const model = await raw(port!, { path: `/model/${id}` });
    figures('download-declared-size', { status: result.status, ms: result.ms, leftovers: leftovers(dataDir, id).length });
    assert.equal(result.status, 'FAILED');
    assert.equal((model.json as { downloaded?: boolean }).downloaded, false);
    assert.deepEqual(leftovers(dataDir, id), []);
    assert.ok(host.alive);
  } finally {
    await host.kill();
  }
});

test('a download of unknown size stops while the disk has room, deletes its partial file, and the host restarts', { skip: !canMount() && 'needs root to mount a tmpfs' }, async () => {
  const mount = tempDir('satchel-rel-dl-tmpfs-');
  assert.ok(mountTmpfs(mount, 112 * 1024), 'mount a 112 MB tmpfs');
  const dataDir = join(mount, 'data');
  let host = new HostProcess(dataDir);
  try {
    const { port } = await host.waitFor('serving');
    const id = await createModel(port!, 'unknown');
    const result = await downloadToEnd(port!, id);
    const health = await raw(port!, { path: '/.well-known/health' });
    figures('download-unknown-size', { status: result.status, ms: result.ms, leftovers: leftovers(dataDir, id).length, alive: String(host.alive) });
    assert.ok(host.alive, `the host exited: ${host.stderr}`);
    assert.equal(health.status, 200);
    assert.equal(result.status, 'FAILED');
    assert.deepEqual(leftovers(dataDir, id), []);
    await host.kill('SIGKILL');
    host = new HostProcess(dataDir);
    await host.waitFor('serving');
  } finally {
    await host.kill();
    unmount(mount);
  }
});

test('a disk filled by another program mid-download fails the download, not the host, and the host restarts on the full disk', { skip: !canMount() && 'needs root to mount a tmpfs' }, async () => {
  const mount = tempDir('satchel-rel-dl-full-');
  assert.ok(mountTmpfs(mount, 112 * 1024), 'mount a 112 MB tmpfs');
  const dataDir = join(mount, 'data');
  mkdirSync(dataDir);
  let host = new HostProcess(dataDir);
  try {
    const { port } = await host.waitFor('serving');
    const id = await createModel(port!, 'slow');
    const started = await raw(port!, { method: 'POST', path: `/model/${id}/download` });
    assert.equal(started.status, 200, started.text);
    await sleep(500);
    // Another program takes every byte left.
    const fd = openSync(join(mount, 'filler'), 'w');
    try {
      for (const size of [1 << 20, 4096, 512]) {
        try {
          for (;;) writeSync(fd, Buffer.alloc(size));
        } catch {
          // full at this granularity
        }
      }
    } finally {
      closeSync(fd);
    }
    const deadline = Date.now() + 60_000;
    while (host.alive && Date.now() < deadline) {
      const model = await raw(port!, { path: `/model/${id}` }).catch(() => undefined);
      if ((model?.json as { downloading?: boolean } | undefined)?.downloading === false) break;
      await sleep(100);
    }
    const alive = host.alive;
    const status = alive ? await progress(port!, id) : 'host exited';
    figures('download-disk-filled', { status, alive: String(alive), leftovers: leftovers(dataDir, id).length });
    assert.ok(alive, `the host exited when the disk filled: ${host.stderr.slice(-500)}`);
    assert.equal(status, 'FAILED');
    assert.deepEqual(leftovers(dataDir, id), []);
    // A crash now, with the disk still full: the host must come back.
    await host.kill('SIGKILL');
    host = new HostProcess(dataDir);
    const restarted = await host.waitFor('serving');
    const health = await raw(restarted.port!, { path: '/.well-known/health' });
    assert.equal(health.status, 200);
  } finally {
    await host.kill();
    rmSync(join(mount, 'filler'), { force: true });
    unmount(mount);
  }
});

test('a crash mid-download on a disk that then fills up never keeps the host from starting', { skip: !canMount() && 'needs root to mount a tmpfs' }, async () => {
  const mount = tempDir('satchel-rel-dl-crash-');
  assert.ok(mountTmpfs(mount, 112 * 1024), 'mount a 112 MB tmpfs');
  const dataDir = join(mount, 'data');
  let host = new HostProcess(dataDir);
  try {
    const { port } = await host.waitFor('serving');
    const id = await createModel(port!, 'slow');
    const started = await raw(port!, { method: 'POST', path: `/model/${id}/download` });
    assert.equal(started.status, 200, started.text);
    await sleep(700);
    await host.kill('SIGKILL');
    const fd = openSync(join(mount, 'filler'), 'w');
    try {
      for (const size of [1 << 20, 4096, 512]) {
        try {
          for (;;) writeSync(fd, Buffer.alloc(size));
        } catch {
          // full at this granularity
        }
      }
    } finally {
      closeSync(fd);
    }
    host = new HostProcess(dataDir);
    const restarted = await host.waitFor('serving');
    figures('download-crash-full-restart', { served: 'yes', partial: leftovers(dataDir, id).join('+') || 'none' });
    // The cut-off download can be dropped, which frees its partial file.
    const cancel = await raw(restarted.port!, { method: 'POST', path: `/model/${id}/download/cancel` });
    assert.equal(cancel.status, 200, cancel.text);
    assert.deepEqual(leftovers(dataDir, id), []);
  } finally {
    await host.kill();
    rmSync(join(mount, 'filler'), { force: true });
    unmount(mount);
  }
});
