/**
 * The git object reader: a large blob is collected chunk by chunk and joined once (joining each 64 KiB
 * chunk onto all before it copied a 63 MB blob hundreds of times over), and a blob over the bound is
 * dropped as it arrives, its size known from git's header, not read whole and refused afterwards.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Git, ObjectReader } from '../../../src/core/sync/git.ts';
import { tempDir } from '../../support/helpers.ts';

const MIB = 1024 * 1024;

/** A bare repository holding the given blobs; their oids in order. */
function repositoryWith(root: string, blobs: readonly Buffer[]): { git: Git; oids: string[] } {
  const gitDir = join(root, 'objects.git');
  execFileSync('git', ['init', '--bare', '--quiet', gitDir]);
  const oids = blobs.map((blob) => execFileSync('git', ['--git-dir', gitDir, 'hash-object', '-w', '--stdin'], { input: blob }).toString().trim());
  return { git: new Git(gitDir), oids };
}

/** Runs `fn` counting the bytes Buffer.concat allocates meanwhile. */
async function concatBytes<T>(fn: () => Promise<T>): Promise<{ result: T; copied: number }> {
  const original = Buffer.concat;
  let copied = 0;
  Buffer.concat = (list: readonly Uint8Array[], totalLength?: number): Buffer<ArrayBuffer> => {
    const joined = original(list, totalLength);
    copied += joined.length;
    return joined;
  };
  try {
    return { result: await fn(), copied };
  } finally {
    Buffer.concat = original;
  }
}

test('a 12 MiB blob between small ones comes back byte for byte, its bytes joined about once', { timeout: 60_000 }, async () => {
  const root = tempDir('satchel-object-reader-');
  try {
    const large = Buffer.alloc(12 * MIB);
    for (let i = 0; i < large.length; i++) large[i] = (i * 7919) % 251;
    const { git, oids } = repositoryWith(root, [Buffer.from('first\n'), large, Buffer.from('last\n')]);
    const reader = new ObjectReader(git);
    try {
      const { result, copied } = await concatBytes(() => Promise.all([...oids, 'f'.repeat(40)].map((oid) => reader.read(oid))));
      const [first, big, last, missing] = result;
      assert.equal(first?.data.toString(), 'first\n');
      assert.equal(last?.data.toString(), 'last\n');
      assert.equal(missing, undefined, 'an oid the repository lacks reads as undefined, in its turn');
      assert.ok(big !== undefined && big.data.equals(large), 'the large blob whole');
      // Each object's bytes are joined once: a little over 12 MiB. Joining every chunk onto what came
      // before copies about size² / (2 × chunk size): over 1 GiB for 12 MiB in 64 KiB chunks.
      assert.ok(copied < 2 * large.length, `bytes copied while reading: ${copied}`);
      assert.equal(big.oversized, false);
    } finally {
      reader.close();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a blob over the bound is answered oversized with its size and no data; the objects after it still read', { timeout: 60_000 }, async () => {
  const root = tempDir('satchel-object-reader-');
  try {
    const { git, oids } = repositoryWith(root, [Buffer.alloc(3 * MIB, 'x'), Buffer.from('after\n'), Buffer.alloc(MIB, 'y')]);
    const reader = new ObjectReader(git, 2 * MIB);
    try {
      const { result, copied } = await concatBytes(() => Promise.all(oids.map((oid) => reader.read(oid))));
      const [over, after, within] = result;
      assert.equal(over?.oversized, true);
      assert.equal(over?.size, 3 * MIB);
      assert.equal(over?.data.length, 0);
      assert.equal(after?.data.toString(), 'after\n');
      assert.equal(within?.data.length, MIB);
      assert.equal(within?.oversized, false);
      assert.ok(copied < 2 * MIB, `the oversized blob is not kept: ${copied} bytes joined`);
    } finally {
      reader.close();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
