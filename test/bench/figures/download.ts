/**
 * Model download on loopback: Satchel downloading a custom model through its API (POST
 * /models/create with the file's URL, POST /model/{id}/download, done when the progress stream
 * says COMPLETED: streaming sha256, GGUF check, fsync, atomic rename) against a plain undici
 * stream-to-file of the same file from the same server in a process of its own. The two
 * alternate so drift hits both alike. If the API path fails, the models area's downloader module
 * is timed in a child process instead, and the figure says so.
 */
import { createHash, randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { openSync, rmSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import WebSocket from 'ws';
import { BenchClient } from '../client.ts';
import { nodeFlags, removeDir, repoRoot, startChild, tempDataDir, type Built } from '../processes.ts';
import { median } from '../stats.ts';

export interface DownloadFigure {
  readonly bytes: number;
  /** Median MB/s (10^6 bytes per second). */
  readonly satchelMBps: number;
  readonly plainMBps: number;
  readonly runs: number;
  readonly path: string;
}

const run = promisify(execFile);

export async function measureDownload(built: Built, bytes: number, runs: number): Promise<DownloadFigure> {
  const dir = tempDataDir('satchel-bench-download-');
  const file = join(dir, 'model.bin');
  const hash = createHash('sha256');
  const fd = openSync(file, 'w');
  for (let written = 0; written < bytes; written += 8 * 2 ** 20) {
    const chunk = randomBytes(Math.min(8 * 2 ** 20, bytes - written));
    // Satchel refuses a language model that is not GGUF; the magic is all it checks.
    if (written === 0) chunk.write('GGUF', 0, 'latin1');
    hash.update(chunk);
    writeSync(fd, chunk);
  }
  closeSync(fd);
  const sha256 = hash.digest('hex');
  const server = await startChild(join(repoRoot, 'test', 'bench', 'fileServer.ts'), [file]);
  const script = join(repoRoot, 'test', 'bench', 'downloadChild.ts');
  const rates: Record<'plain' | 'satchel', number[]> = { plain: [], satchel: [] };
  const inChild = async (mode: 'plain' | 'satchel', i: number): Promise<number> => {
    const dest = join(dir, `out-${mode}-${i}.bin`);
    const { stdout } = await run(process.execPath, [...nodeFlags(script), script, mode, server.url, dest, ...(mode === 'satchel' ? [sha256] : [])], { cwd: repoRoot });
    const result = JSON.parse(stdout.trim().split('\n').pop()!) as { ms: number; bytes: number };
    if (result.bytes !== bytes) throw new Error(`${mode} download wrote ${result.bytes} of ${bytes} bytes`);
    rmSync(dest, { force: true });
    return result.ms;
  };
  let path = 'the API (POST /models/create with the URL, POST /model/{id}/download, until the progress stream says COMPLETED)';
  const hostDir = tempDataDir();
  const host = await startChild(built.host, ['--data-dir', hostDir, '--port', '0']);
  const client = new BenchClient(host.url, 2);
  try {
    let model: string | undefined;
    let apiFailure: string | undefined;
    for (let i = 0; i < runs; i++) {
      rates.plain.push(bytes / 1e6 / ((await inChild('plain', i)) / 1000));
      let ms: number | undefined;
      if (apiFailure === undefined) {
        try {
          model ??= await createModel(client, server.url);
          ms = await downloadThroughApi(client, model);
          await client.ok('POST', `/models/${encodeURIComponent(model)}/delete/cache`);
        } catch (error) {
          apiFailure = (error as Error).message.split('\n')[0];
          path = `the models area's downloader module in a child process (the API path failed: ${apiFailure})`;
          rates.satchel.length = 0;
        }
      }
      rates.satchel.push(bytes / 1e6 / ((ms ?? (await inChild('satchel', i))) / 1000));
    }
  } finally {
    await client.close();
    await host.stop();
    await server.stop();
    removeDir(hostDir);
    removeDir(dir);
  }
  return { bytes, satchelMBps: median(rates.satchel), plainMBps: median(rates.plain), runs, path };
}

async function createModel(client: BenchClient, url: string): Promise<string> {
  const reply = await client.ok('POST', '/models/create', {
    version: '1',
    created: { value: new Date().toISOString() },
    name: 'Benchmark download',
    cloud: false,
    type: 'BALANCED',
    usage: 'CODE_CONVERSATION',
    foundation: 'UNKNOWN',
    unique: url,
    cpu: true,
  });
  const id = (reply.body as { id?: unknown }).id;
  if (typeof id !== 'string') throw new Error(`POST /models/create answered without an id: ${reply.text.slice(0, 200)}`);
  return id;
}

/** ms from asking for the download to the progress stream's COMPLETED frame. */
async function downloadThroughApi(client: BenchClient, model: string): Promise<number> {
  const socket = new WebSocket(`${client.url.replace(/^http/, 'ws')}/model/${encodeURIComponent(model)}/download/progress`, { perMessageDeflate: false });
  try {
    await withTimeout(new Promise<void>((resolve, reject) => {
      socket.once('message', () => resolve());
      socket.once('error', reject);
    }), 10_000, 'the progress stream sent no frame on connect');
    const started = performance.now();
    const done = new Promise<number>((resolve, reject) => {
      socket.on('message', (data: WebSocket.RawData) => {
        const status = (JSON.parse(data.toString()) as { status?: string }).status;
        if (status === 'COMPLETED') resolve(performance.now() - started);
        else if (status === 'FAILED' || status === 'CANCELED') reject(new Error(`the download ended ${status}`));
      });
      socket.once('close', () => reject(new Error('the progress stream closed before COMPLETED')));
    });
    await client.ok('POST', `/model/${encodeURIComponent(model)}/download`);
    return await withTimeout(done, 600_000, 'the download did not complete within 10 minutes');
  } finally {
    socket.terminate();
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
