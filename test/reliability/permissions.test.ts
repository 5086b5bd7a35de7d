/**
 * Privacy of the data directory under a permissive umask (022): every snippet is stored in clear
 * text, so the directory is 0700 and the files Satchel writes there are 0600: the database, its
 * WAL and shared-memory files, the port file, the host lock and model files. A directory left
 * 0755 by an older Satchel is tightened when the host opens it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { downloadFile } from '../../src/core/models/downloader.ts';
import { tempDir } from '../support/helpers.ts';
import { HostProcess, figures } from './support.ts';
import { createAsset } from './writes.ts';

const posix = process.platform !== 'win32';

function mode(path: string): string {
  return (statSync(path).mode & 0o777).toString(8).padStart(4, '0');
}

function loose(dir: string): string[] {
  const out: string[] = [];
  if ((statSync(dir).mode & 0o077) !== 0) out.push(`${dir} ${mode(dir)}`);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...loose(path));
    else if ((statSync(path).mode & 0o077) !== 0) out.push(`${path} ${mode(path)}`);
  }
  return out;
}

test('under umask 022 the data directory is 0700 and every file the host writes is 0600', { skip: !posix }, async () => {
  const previous = process.umask(0o022);
  const parent = tempDir('satchel-rel-perm-');
  const dataDir = join(parent, 'data');
  const host = new HostProcess(dataDir);
  try {
    const { port } = await host.waitFor('serving');
    await createAsset(port!, 'const secret = "only mine";');
    for (const name of ['satchel.db', 'satchel.db-wal', 'satchel.db-shm', 'port.json', 'host.lock']) {
      assert.ok(existsSync(join(dataDir, name)), `${name} exists`);
    }
    const open = loose(dataDir);
    figures('permissions', { dir: mode(dataDir), db: mode(join(dataDir, 'satchel.db')), loose: open.length });
    assert.equal(mode(dataDir), '0700');
    assert.deepEqual(open, [], 'files readable by other users');
  } finally {
    await host.kill('SIGTERM');
    process.umask(previous);
  }
});

test('a data directory an older Satchel left 0755 with 0644 files is made private when opened', { skip: !posix }, async () => {
  const previous = process.umask(0o022);
  const dataDir = tempDir('satchel-rel-perm-old-');
  const first = new HostProcess(dataDir);
  try {
    await createAsset((await first.waitFor('serving')).port!, 'const a = 1;');
  } finally {
    await first.kill('SIGKILL');
  }
  chmodSync(dataDir, 0o755);
  for (const name of readdirSync(dataDir)) chmodSync(join(dataDir, name), 0o644);
  const second = new HostProcess(dataDir);
  try {
    await second.waitFor('serving');
    assert.equal(mode(dataDir), '0700');
    assert.deepEqual(loose(dataDir), []);
  } finally {
    await second.kill('SIGTERM');
    process.umask(previous);
  }
});

test('a shared directory named as the data directory keeps its mode; Satchel files in it are still 0600', { skip: !posix }, async () => {
  const previous = process.umask(0o022);
  const shared = tempDir('satchel-rel-perm-shared-');
  chmodSync(shared, 0o755);
  writeFileSync(join(shared, 'someone-elses.txt'), 'not ours');
  const host = new HostProcess(shared);
  try {
    await host.waitFor('serving');
    assert.equal(mode(shared), '0755', 'a directory that was not a Satchel data directory is left as it was');
    assert.equal(mode(join(shared, 'satchel.db')), '0600');
  } finally {
    await host.kill('SIGTERM');
    process.umask(previous);
  }
});

test('model downloads create a 0700 folder and 0600 files', { skip: !posix }, async () => {
  const previous = process.umask(0o022);
  try {
    const dir = tempDir('satchel-rel-perm-model-');
    const source = join(dir, 'source.gguf');
    writeFileSync(source, Buffer.concat([Buffer.from('GGUF'), Buffer.alloc(4096, 7)]));
    const dest = join(dir, 'models', 'm1', 'model.gguf');
    mkdirSync(dir, { recursive: true });
    await downloadFile({ source, dest, signal: new AbortController().signal });
    assert.equal(mode(join(dir, 'models', 'm1')), '0700');
    assert.equal(mode(dest), '0600');
  } finally {
    process.umask(previous);
  }
});
