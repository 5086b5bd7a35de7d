import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PostingsBuilder, type PackedPostings } from '../../../src/core/search/titlePostings.ts';

/** Both passes over the same titles, as TitleTrigrams builds. */
function build(titles: ReadonlyArray<readonly [rowid: number, codes: Iterable<number>]>): PackedPostings {
  const builder = new PostingsBuilder();
  for (const [rowid, codes] of titles) builder.count(rowid, [...codes]);
  for (const [rowid, codes] of titles) builder.fill(rowid, [...codes]);
  return builder.finish();
}

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
  const titles: Array<[number, Set<number>]> = [];
  // Rowids up to 2^31 - 1: gaps of one to five bytes.
  const rowids = [1, 2, 3, 130, 131, 20_000, 20_001, 3_000_000, 2 ** 31 - 1];
  for (const rowid of rowids) {
    const codes = new Set<number>();
    for (let i = 0; i < 6; i++) codes.add(Math.floor(next() * 5));
    codes.add(2 ** 30 + 5); // a word-start code, above every trigram
    titles.push([rowid, codes]);
    for (const code of codes) want.set(code, [...(want.get(code) ?? []), rowid]);
  }
  const postings = build(titles);
  for (const [code, rows] of want) {
    assert.deepEqual(rowidsOf(postings, code), rows, `code ${code}`);
    assert.equal(postings.get(code)?.length, rows.length);
  }
  assert.equal(postings.get(99), undefined);
  assert.equal(postings.entries, [...want.values()].reduce((sum, rows) => sum + rows.length, 0));
});

test('the builder refuses rowids out of order, and a fill that differs from the count', () => {
  const builder = new PostingsBuilder();
  builder.count(50, [1, 2]);
  assert.throws(() => builder.count(7, [1]), /ascend/);
  const short = new PostingsBuilder();
  short.count(1, [1, 2]);
  short.count(2, [2]);
  short.fill(1, [1, 2]);
  assert.throws(() => short.finish(), /1 entries filled|2 entries filled of 3/);
  const other = new PostingsBuilder();
  other.count(1, [1]);
  assert.throws(() => other.fill(1, [9]), /not counted/);
});

test('rowids added after the build follow the packed ones, under old codes and new', () => {
  const postings = build([
    [1, [10]],
    [2, [10, 11]],
  ]);
  postings.add(10, 9);
  postings.add(12, 4);
  assert.deepEqual(rowidsOf(postings, 10), [1, 2, 9]);
  assert.equal(postings.get(10)?.length, 3);
  assert.deepEqual(rowidsOf(postings, 12), [4]);
  assert.equal(postings.entries, 5);
});

test('a dense index takes about a byte a rowid, not four, and the builder a few bytes a code, none a rowid', () => {
  // 20,000 titles with 40 codes each out of 400: each list holds every tenth title or so.
  const next = random(3);
  const titles: Array<[number, Set<number>]> = [];
  let entries = 0;
  for (let rowid = 1; rowid <= 20_000; rowid++) {
    const codes = new Set<number>();
    while (codes.size < 40) codes.add(Math.floor(next() * 400));
    titles.push([rowid, codes]);
    entries += codes.size;
  }
  const builder = new PostingsBuilder();
  for (const [rowid, codes] of titles) builder.count(rowid, [...codes]);
  // Holding each title's codes until the end (the builder before) took 4 bytes an entry: 3.2 MB here.
  assert.ok(builder.workingBytes < entries / 4, `${builder.workingBytes} working bytes for ${entries} entries of 400 codes`);
  for (const [rowid, codes] of titles) builder.fill(rowid, [...codes]);
  assert.ok(builder.workingBytes < entries / 4);
  const postings = builder.finish();
  assert.equal(postings.entries, entries);
  assert.ok(postings.packedBytes < entries * 1.2, `${postings.packedBytes} bytes for ${entries} rowids`);
});

test('packed lists hold what plain lists would, on random titles with many distinct codes', () => {
  const next = random(11);
  const want = new Map<number, number[]>();
  const titles: Array<[number, number[]]> = [];
  let rowid = 0;
  for (let t = 0; t < 5000; t++) {
    rowid += 1 + Math.floor(next() * (next() < 0.01 ? 100_000 : 20));
    const codes = new Set<number>();
    const size = Math.floor(next() * 30);
    // Common codes and rare ones: the slots grow past their first size (4096).
    while (codes.size < size) codes.add(next() < 0.5 ? Math.floor(next() * 50) : Math.floor(next() * 2 ** 30));
    titles.push([rowid, [...codes]]);
    for (const code of codes) want.set(code, [...(want.get(code) ?? []), rowid]);
  }
  const postings = build(titles);
  assert.ok(want.size > 4096, `${want.size} codes`);
  for (const [code, rows] of want) assert.deepEqual(rowidsOf(postings, code), rows, `code ${code}`);
});
