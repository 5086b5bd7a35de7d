/**
 * A sync's commits are streamed to git's fast-import (issue 34): the input is made a bounded chunk
 * at a time as git takes it, so a first sync of a whole library never holds every record's bytes
 * (before, the whole stream was built and concatenated first: over 1 GB at 100k snippets), and
 * the chunks are written into two buffers in turn rather than a new one each (a new 1 MiB buffer
 * per chunk kept 40–70 MB of stale chunks in the host until V8's next full collection).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../support/helpers.ts';
import { blobOid } from '../../../src/core/sync/vaultRepo.ts';
import { LOCAL_REF, VaultRepo } from '../../../src/core/sync/vaultRepo.ts';
import { fastImportStream, STREAM_CHUNK_BYTES, type CommitPlan } from '../../../src/core/sync/fastImport.ts';
import type { VaultFile } from '../../../src/core/sync/vaultFormat.ts';

const RECORD_BYTES = 64 * 1024;

/** `count` record folders of RECORD_BYTES each (distinct contents), counting how many were made. */
function folders(count: number, made: { count: number }, failAt?: number): Iterable<readonly [string, readonly VaultFile[] | undefined]> {
  return {
    *[Symbol.iterator]() {
      for (let i = 0; i < count; i++) {
        if (i === failAt) throw new Error('record unreadable');
        made.count++;
        const data = Buffer.alloc(RECORD_BYTES, `record ${i} `);
        yield [`assets/${String(i % 256).padStart(2, '0')}/r${i}`, [{ name: 'snippet.txt', data }]] as const;
      }
    },
  };
}

test('the fast-import input is made in chunks of about STREAM_CHUNK_BYTES, each as it is asked for, never the whole library first', async () => {
  const count = 200; // 12.5 MiB of records
  const made = { count: 0 };
  const plans: CommitPlan[] = [{ ref: LOCAL_REF, parent: undefined, message: 'test', changes: folders(count, made) }];
  const stream = fastImportStream(plans);
  const first = await stream.next();
  assert.equal(first.done, false);
  assert.ok(made.count < count / 4, `only the records of the first chunk are made before it is handed on (made ${made.count} of ${count})`);
  let total = first.value!.length;
  let chunks = 1;
  for (let next = await stream.next(); !next.done; next = await stream.next()) {
    assert.ok(next.value.length <= STREAM_CHUNK_BYTES + RECORD_BYTES + 4096, `a chunk of ${next.value.length} bytes holds at most one record past the bound`);
    total += next.value.length;
    chunks++;
  }
  assert.ok(first.value!.length <= STREAM_CHUNK_BYTES + RECORD_BYTES + 4096);
  assert.equal(made.count, count);
  assert.ok(total > count * RECORD_BYTES, 'every record was streamed');
  assert.ok(chunks >= (count * RECORD_BYTES) / (STREAM_CHUNK_BYTES + RECORD_BYTES), `${chunks} chunks`);
});

test('the chunks are written into two buffers in turn, made once: no new memory per chunk; a file over a chunk goes as its own bytes', async () => {
  const large = Buffer.alloc(STREAM_CHUNK_BYTES * 2 + 7, 'large ');
  const changes = function* (): Generator<readonly [string, readonly VaultFile[] | undefined]> {
    yield* folders(100, { count: 0 });
    yield ['assets/00/large', [{ name: 'snippet.txt', data: large }]];
    yield* folders(50, { count: 0 });
  };
  const memory = new Set<ArrayBufferLike>();
  let chunks = 0;
  let sawLarge = false;
  for await (const chunk of fastImportStream([{ ref: LOCAL_REF, parent: undefined, message: 'test', changes: changes() }])) {
    chunks++;
    if (chunk === large) sawLarge = true;
    else memory.add(chunk.buffer);
  }
  assert.ok(chunks > 10, `${chunks} chunks`);
  assert.ok(sawLarge, 'the large file was handed on as it is, not copied');
  assert.equal(memory.size, 2, 'every other chunk is a view of one of two buffers');
});

test('streamed commits are written by git whole; a record that fails mid-stream rejects with its error and writes no commit', async () => {
  const root = tempDir('satchel-commit-stream-');
  try {
    const repo = new VaultRepo(join(root, 'sync'));
    await repo.init();
    const failing: CommitPlan[] = [{ ref: LOCAL_REF, parent: undefined, message: 'half', changes: folders(100, { count: 0 }, 60) }];
    await assert.rejects(repo.commit(failing), /record unreadable/);
    assert.equal(await repo.resolve(LOCAL_REF), undefined, 'no ref points at a half-written commit');
    assert.deepEqual(readdirSync(repo.git.gitDir).filter((name) => name.startsWith('fast_import_crash')), [], 'git was stopped, not left to report a crash');
    const [oid] = await repo.commit([{ ref: LOCAL_REF, parent: undefined, message: 'whole', changes: folders(100, { count: 0 }) }]);
    assert.equal(await repo.resolve(LOCAL_REF), oid);
    const listed = execFileSync('git', ['--git-dir', repo.git.gitDir, 'ls-tree', '-r', '--name-only', oid!], { encoding: 'utf8' }).trim().split('\n');
    assert.equal(listed.filter((path) => path.endsWith('/snippet.txt')).length, 100);
    const one = execFileSync('git', ['--git-dir', repo.git.gitDir, 'cat-file', 'blob', `${oid}:assets/99/r99/snippet.txt`]);
    assert.deepEqual(one, Buffer.alloc(RECORD_BYTES, 'record 99 '));
    // The stream writes each chunk into memory the chunk before last had: git read every one before it was written again.
    const blobs = execFileSync('git', ['--git-dir', repo.git.gitDir, 'ls-tree', '-r', oid!], { encoding: 'utf8' }).trim().split('\n');
    for (const line of blobs.filter((entry) => entry.endsWith('/snippet.txt'))) {
      const [, , blob, path] = /^(\d+) blob ([0-9a-f]+)\t(.+)$/.exec(line)!;
      const index = Number(/\/r(\d+)\//.exec(path!)![1]);
      assert.equal(blob, blobOid(Buffer.alloc(RECORD_BYTES, `record ${index} `)), `${path} holds its own record's bytes`);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
