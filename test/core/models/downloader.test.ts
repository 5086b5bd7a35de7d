import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DownloadError, downloadFile, partialBytes, PAUSE } from '../../../src/core/models/downloader.ts';
import { FileServer } from '../../support/fileServer.ts';
import { tempDir } from '../../support/helpers.ts';

let files: FileServer;
let dir: string;
const data = randomBytes(1024 * 1024 + 123);
let digest: string;

before(async () => {
  files = await FileServer.start();
  digest = files.set('model.bin', data);
  dir = tempDir('satchel-dl-');
});
after(async () => {
  await files.close();
  rmSync(dir, { recursive: true, force: true });
});

const sha = (buffer: Buffer) => createHash('sha256').update(buffer).digest('hex');
let n = 0;
const dest = () => join(dir, `file-${++n}.bin`);

test('a full download lands atomically with its sha256 and progress up to the total', async () => {
  const target = dest();
  const seen: number[] = [];
  const result = await downloadFile({
    source: files.url('model.bin'),
    dest: target,
    sha256: digest,
    signal: new AbortController().signal,
    onProgress: (p) => {
      assert.equal(p.total, data.length);
      seen.push(p.received);
    },
  });
  assert.equal(result.sha256, digest);
  assert.equal(result.bytes, data.length);
  assert.equal(seen.at(-1), data.length);
  assert.ok(seen.every((v, i) => i === 0 || v >= seen[i - 1]!));
  assert.deepEqual(readFileSync(target), data);
  assert.equal(existsSync(`${target}.part`), false);
  assert.equal(existsSync(`${target}.part.json`), false);
});

test('a dropped connection is retried and resumed with Range + If-Range', async () => {
  const target = dest();
  const before = files.requests.length;
  files.drops.push(300_000);
  const result = await downloadFile({ source: files.url('model.bin'), dest: target, signal: new AbortController().signal, backoffMs: 10 });
  assert.equal(result.sha256, digest);
  assert.equal(result.attempts, 2);
  const second = files.requests.slice(before)[1]!;
  assert.equal(second.status, 206);
  assert.match(second.range!, /^bytes=\d+-$/);
  assert.ok(Number(/\d+/.exec(second.range!)![0]) > 0);
  assert.ok(second.ifRange, 'If-Range carries the ETag');
  assert.deepEqual(readFileSync(target), data);
});

test('a server that ignores Range restarts cleanly on its 200', async () => {
  const target = dest();
  files.drops.push(200_000);
  files.ignoreRange = true;
  try {
    const result = await downloadFile({ source: files.url('model.bin'), dest: target, sha256: digest, signal: new AbortController().signal, backoffMs: 10 });
    assert.equal(result.restarts, 1);
    assert.equal(sha(readFileSync(target)), digest);
  } finally {
    files.ignoreRange = false;
  }
});

test('a wrong checksum fails and keeps no file', async () => {
  const target = dest();
  await assert.rejects(
    downloadFile({ source: files.url('model.bin'), dest: target, sha256: 'ab'.repeat(32), signal: new AbortController().signal }),
    (error: unknown) => error instanceof DownloadError && error.reason === 'checksum',
  );
  assert.equal(existsSync(target), false);
  assert.equal(existsSync(`${target}.part`), false);
  assert.equal(existsSync(`${target}.part.json`), false);
});

test('a paused download keeps its bytes and resumes later; a changed file restarts it', async () => {
  const target = dest();
  files.rate = 2 * 1024 * 1024;
  const controller = new AbortController();
  const paused = downloadFile({
    source: files.url('model.bin'),
    dest: target,
    signal: controller.signal,
    onProgress: (p) => {
      if (p.received > 200_000) controller.abort(PAUSE);
    },
  });
  await assert.rejects(paused, (reason: unknown) => reason === PAUSE);
  files.rate = 0;
  const kept = await partialBytes(target);
  assert.ok(kept > 200_000 && kept < data.length, `kept ${kept}`);
  const resumed = await downloadFile({ source: files.url('model.bin'), dest: target, sha256: digest, signal: new AbortController().signal });
  assert.equal(resumed.resumedFrom, kept);
  assert.equal(resumed.restarts, 0);

  // Same again, but the file changes while paused: If-Range fails, so the download starts over.
  const other = dest();
  const controller2 = new AbortController();
  files.rate = 2 * 1024 * 1024;
  await assert.rejects(
    downloadFile({ source: files.url('model.bin'), dest: other, signal: controller2.signal, onProgress: (p) => p.received > 100_000 && controller2.abort(PAUSE) }),
  );
  files.rate = 0;
  const changed = Buffer.concat([data, Buffer.from('changed')]);
  const newDigest = files.set('model.bin', changed);
  try {
    const restarted = await downloadFile({ source: files.url('model.bin'), dest: other, signal: new AbortController().signal });
    assert.equal(restarted.restarts, 1);
    assert.equal(restarted.sha256, newDigest);
  } finally {
    digest = files.set('model.bin', data);
  }
});

test('a 404 is fatal at once; a local file copies through the same path', async () => {
  await assert.rejects(
    downloadFile({ source: files.url('missing.bin'), dest: dest(), signal: new AbortController().signal }),
    (error: unknown) => error instanceof DownloadError && error.reason === 'http',
  );
  const local = join(dir, 'local-source.bin');
  writeFileSync(local, data);
  const target = dest();
  const result = await downloadFile({ source: local, dest: target, sha256: digest, signal: new AbortController().signal });
  assert.equal(result.bytes, data.length);
  assert.deepEqual(readFileSync(target), data);
  await assert.rejects(
    downloadFile({ source: 'relative/path.bin', dest: dest(), signal: new AbortController().signal }),
    (error: unknown) => error instanceof DownloadError && error.reason === 'source',
  );
});
