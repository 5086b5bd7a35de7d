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
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../support/helpers.ts';
import { HostProcess, createCustomModel, figures, raw, sleep } from './support.ts';
import { canMount } from './disk.ts';
import { withTmpfsHost } from './tmpfsHost.ts';

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


function createModel(port: number, path: string, declaredBytes?: number): Promise<string> {
  return createCustomModel(port, {
    name: `endless ${path}`,
    unique: `http://127.0.0.1:${originPort}/${path}.gguf`,
    ...(declaredBytes !== undefined ? { bytes: declaredBytes } : {}),
  });
}

async function startDownload(port: number, id: string): Promise<void> {
  const started = await raw(port, { method: 'POST', path: `/model/${id}/download` });
  assert.equal(started.status, 200, started.text);
}

async function progress(port: number, id: string): Promise<string> {
  const reply = await raw(port, { path: `/model/${id}/download/progress` });
  return String((reply.json as { status?: unknown } | undefined)?.status);
}

/** Starts the download and waits until it has ended (any final state); returns that state and the time. */
async function downloadToEnd(port: number, id: string, timeoutMs = 60_000): Promise<{ status: string; ms: number }> {
  const started = performance.now();
  await startDownload(port, id);
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
  await withTmpfsHost('satchel-rel-dl-tmpfs-', 112 * 1024, async (disk) => {
    const id = await createModel(disk.port, 'unknown');
    const result = await downloadToEnd(disk.port, id);
    const health = await raw(disk.port, { path: '/.well-known/health' });
    figures('download-unknown-size', { status: result.status, ms: result.ms, leftovers: leftovers(disk.dataDir, id).length, alive: String(disk.host.alive) });
    assert.ok(disk.host.alive, `the host exited: ${disk.host.stderr}`);
    assert.equal(health.status, 200);
    assert.equal(result.status, 'FAILED');
    assert.deepEqual(leftovers(disk.dataDir, id), []);
    await disk.restart('SIGKILL');
  });
});

test('a disk filled by another program mid-download fails the download, not the host, and the host restarts on the full disk', { skip: !canMount() && 'needs root to mount a tmpfs' }, async () => {
  await withTmpfsHost('satchel-rel-dl-full-', 112 * 1024, async (disk) => {
    const id = await createModel(disk.port, 'slow');
    await startDownload(disk.port, id);
    await sleep(500);
    disk.fill();
    const deadline = Date.now() + 60_000;
    while (disk.host.alive && Date.now() < deadline) {
      const model = await raw(disk.port, { path: `/model/${id}` }).catch(() => undefined);
      if ((model?.json as { downloading?: boolean } | undefined)?.downloading === false) break;
      await sleep(100);
    }
    const alive = disk.host.alive;
    const status = alive ? await progress(disk.port, id) : 'host exited';
    figures('download-disk-filled', { status, alive: String(alive), leftovers: leftovers(disk.dataDir, id).length });
    assert.ok(alive, `the host exited when the disk filled: ${disk.host.stderr.slice(-500)}`);
    assert.equal(status, 'FAILED');
    assert.deepEqual(leftovers(disk.dataDir, id), []);
    // A crash now, with the disk still full: the host must come back.
    await disk.restart('SIGKILL');
    assert.equal((await raw(disk.port, { path: '/.well-known/health' })).status, 200);
  });
});

test('a crash mid-download on a disk that then fills up never keeps the host from starting', { skip: !canMount() && 'needs root to mount a tmpfs' }, async () => {
  await withTmpfsHost('satchel-rel-dl-crash-', 112 * 1024, async (disk) => {
    const id = await createModel(disk.port, 'slow');
    await startDownload(disk.port, id);
    await sleep(700);
    await disk.host.kill('SIGKILL');
    disk.fill();
    const restarting = performance.now();
    await disk.restart('SIGKILL');
    const restartMs = Math.round(performance.now() - restarting);
    assert.equal((await raw(disk.port, { path: '/.well-known/health' })).status, 200);
    figures('download-crash-full-restart', { restart_ms: restartMs, partial: leftovers(disk.dataDir, id).join('+') || 'none' });
    // The cut-off download can be dropped, which frees its partial file.
    const cancel = await raw(disk.port, { method: 'POST', path: `/model/${id}/download/cancel` });
    assert.equal(cancel.status, 200, cancel.text);
    assert.deepEqual(leftovers(disk.dataDir, id), []);
  });
});
