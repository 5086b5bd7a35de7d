/**
 * Model download on loopback: the models area's downloader (streaming sha256 verified, fsync,
 * atomic rename) against a plain undici stream-to-file of the same file from the same server.
 * Each download runs in its own process; the two alternate so drift hits both alike.
 */
import { createHash, randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { existsSync, openSync, rmSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
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

export async function measureDownload(_built: Built, bytes: number, runs: number): Promise<DownloadFigure> {
  const downloader = join(repoRoot, 'src', 'core', 'models', 'downloader.ts');
  if (!existsSync(downloader)) throw new Error('src/core/models/downloader.ts does not exist (models area not landed)');
  const dir = tempDataDir('satchel-bench-download-');
  const file = join(dir, 'model.bin');
  const hash = createHash('sha256');
  const fd = openSync(file, 'w');
  for (let written = 0; written < bytes; written += 8 * 2 ** 20) {
    const chunk = randomBytes(Math.min(8 * 2 ** 20, bytes - written));
    hash.update(chunk);
    writeSync(fd, chunk);
  }
  closeSync(fd);
  const sha256 = hash.digest('hex');
  const server = await startChild(join(repoRoot, 'test', 'bench', 'fileServer.ts'), [file]);
  const script = join(repoRoot, 'test', 'bench', 'downloadChild.ts');
  const rates: Record<'plain' | 'satchel', number[]> = { plain: [], satchel: [] };
  try {
    for (let i = 0; i < runs; i++) {
      for (const mode of ['plain', 'satchel'] as const) {
        const dest = join(dir, `out-${mode}-${i}.bin`);
        const { stdout } = await run(process.execPath, [...nodeFlags(script), script, mode, server.url, dest, ...(mode === 'satchel' ? [sha256] : [])], { cwd: repoRoot });
        const result = JSON.parse(stdout.trim().split('\n').pop()!) as { ms: number; bytes: number };
        if (result.bytes !== bytes) throw new Error(`${mode} download wrote ${result.bytes} of ${bytes} bytes`);
        rates[mode].push(bytes / 1e6 / (result.ms / 1000));
        rmSync(dest, { force: true });
      }
    }
  } finally {
    await server.stop();
    removeDir(dir);
  }
  return { bytes, satchelMBps: median(rates.satchel), plainMBps: median(rates.plain), runs, path: 'core downloader (src/core/models/downloader.ts) in a child process' };
}
