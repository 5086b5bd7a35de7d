import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PostingsBuilder, type PackedPostings } from '../../../src/core/search/titlePostings.ts';

function rowidsOf(postings: PackedPostings, code: number): number[] {
  const found: number[] = [];
  postings.get(code)?.forEach((rowid) => found.push(rowid));
  return found;
}

/** A small deterministic generator, so a failure names the case it met. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    return state / 2 ** 32;
  };
}

test('packed lists give back every rowid of each code, ascending, gaps of every width included', () => {
  const next = random(7);
  const want = new Map<number, number[]>();
  const builder = new PostingsBuilder();
  // Rowids up to 2^31 - 1: gaps of one to five bytes.
  const rowids = [1, 2, 3, 130, 131, 20_000, 20_001, 3_000_000, 2 ** 31 - 1];
  for (const rowid of rowids) {
    const codes = new Set<number>();
    for (let i = 0; i < 6; i++) codes.add(Math.floor(next() * 5));
    codes.add(2 ** 30 + 5); // a word-start code, above every trigram
    builder.add(rowid, codes);
    for (const code of codes) want.set(code, [...(want.get(code) ?? []), rowid]);
  }
  const postings = builder.finish();
  for (const [code, rows] of want) {
    assert.deepEqual(rowidsOf(postings, code), rows, `code ${code}`);
    assert.equal(postings.get(code)?.length, rows.length);
  }
  assert.equal(postings.get(99), undefined);
  assert.equal(postings.entries, [...want.values()].reduce((sum, rows) => sum + rows.length, 0));
});

test('titles given out of rowid order (a rebuild after changes) are packed in order', () => {
  const builder = new PostingsBuilder();
  builder.add(50, [1, 2]);
  builder.add(7, [1]);
  builder.add(300, [2, 1]);
  builder.add(8, [2]);
  const postings = builder.finish();
  assert.deepEqual(rowidsOf(postings, 1), [7, 50, 300]);
  assert.deepEqual(rowidsOf(postings, 2), [8, 50, 300]);
});

test('rowids added after the build follow the packed ones, under old codes and new', () => {
  const builder = new PostingsBuilder();
  builder.add(1, [10]);
  builder.add(2, [10, 11]);
  const postings = builder.finish();
  postings.add(10, 9);
  postings.add(12, 4);
  assert.deepEqual(rowidsOf(postings, 10), [1, 2, 9]);
  assert.equal(postings.get(10)?.length, 3);
  assert.deepEqual(rowidsOf(postings, 12), [4]);
  assert.equal(postings.entries, 5);
});

test('a dense index takes about a byte a rowid, not four', () => {
  // 20,000 titles with 40 codes each out of 400: each list holds every tenth title or so.
  const next = random(3);
  const builder = new PostingsBuilder();
  let entries = 0;
  for (let rowid = 1; rowid <= 20_000; rowid++) {
    const codes = new Set<number>();
    while (codes.size < 40) codes.add(Math.floor(next() * 400));
    builder.add(rowid, codes);
    entries += codes.size;
  }
  const postings = builder.finish();
  assert.equal(postings.entries, entries);
  assert.ok(postings.packedBytes < entries * 1.2, `${postings.packedBytes} bytes for ${entries} rowids`);
});
