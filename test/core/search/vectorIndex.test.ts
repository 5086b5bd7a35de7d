/** The in-memory vector matrix and the rank fusion of hybrid search. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VectorIndex } from '../../../src/core/search/vectorIndex.ts';
import { fuseIdRankings, fuseRankings } from '../../../src/core/search/hybridSearch.ts';

const v = (...values: number[]) => Float32Array.from(values);

test('nearest is cosine similarity, best first, k and the minimum similarity respected', () => {
  const index = new VectorIndex(3);
  index.set('x', v(10, 0, 0));
  index.set('xy', v(1, 1, 0));
  index.set('y', v(0, 3, 0));
  index.set('minus-x', v(-1, 0, 0));
  const near = index.nearest(v(2, 0, 0), 3);
  assert.deepEqual(near.map((n) => n.id), ['x', 'xy', 'y']);
  assert.ok(Math.abs(near[0]!.similarity - 1) < 1e-6, 'lengths do not matter');
  assert.ok(Math.abs(near[1]!.similarity - Math.SQRT1_2) < 1e-6);
  assert.deepEqual(index.nearest(v(1, 0, 0), 10, 0.5).map((n) => n.id), ['x', 'xy']);
  assert.deepEqual(index.nearest(v(1, 0, 0), 0), []);
  assert.throws(() => index.nearest(v(1, 0), 3), RangeError);
});

test('equal similarities are ordered by id, whatever the order of writes', () => {
  const a = new VectorIndex(2);
  const b = new VectorIndex(2);
  for (const id of ['c', 'a', 'd', 'b']) a.set(id, v(1, 1));
  for (const id of ['b', 'd', 'a', 'c']) b.set(id, v(2, 2));
  assert.deepEqual(a.nearest(v(1, 1), 3).map((n) => n.id), ['a', 'b', 'c']);
  assert.deepEqual(b.nearest(v(1, 1), 3).map((n) => n.id), ['a', 'b', 'c']);
});

test('replace, delete (the last vector moves into the hole) and growth past the first allocation', () => {
  const index = new VectorIndex(2);
  for (let i = 0; i < 3000; i++) index.set(`n${i}`, v(Math.cos(i), Math.sin(i)));
  assert.equal(index.size, 3000);
  index.set('n5', v(0, -1));
  index.delete('n0');
  index.delete('missing');
  assert.equal(index.size, 2999);
  assert.equal(index.has('n0'), false);
  assert.equal(index.nearest(v(0, -1), 1)[0]!.id, 'n5');
  // The moved vector (the last one written) is still found where it now lives.
  const last = index.nearest(v(Math.cos(2999), Math.sin(2999)), 1)[0]!;
  assert.ok(last.similarity > 0.9999);
  index.set('zero', v(0, 0));
  assert.ok(!index.nearest(v(1, 0), 3000, -0.5).some((n) => n.id === 'zero' && n.similarity !== 0), 'a zero vector has similarity 0');
});

test('rank fusion: found by both first, ties keep lexical order, semantic-only hits marked, limit kept', () => {
  const lexical = [
    { rowid: 1, stage: 'substring' as const, score: 1 },
    { rowid: 2, stage: 'word' as const, score: 0.8 },
    { rowid: 3, stage: 'word' as const, score: 0.7 },
  ];
  const semantic = [
    { rowid: 3, similarity: 0.9 },
    { rowid: 9, similarity: 0.8 },
  ];
  const fused = fuseRankings(lexical, semantic, 10);
  // 2 (lexical rank 2) and 9 (vector rank 2) tie: the lexical ranking goes first.
  assert.deepEqual(fused.map((hit) => hit.rowid), [3, 1, 2, 9]);
  assert.deepEqual(fused.map((hit) => hit.stage), ['word', 'substring', 'word', 'semantic']);
  assert.ok(fused.every((hit, i) => i === 0 || hit.score <= fused[i - 1]!.score));
  assert.ok(fused[0]!.score <= 1 && fused.at(-1)!.score > 0);
  assert.deepEqual(fuseRankings(lexical, semantic, 2).map((hit) => hit.rowid), [3, 1]);
  assert.deepEqual(fuseRankings(lexical, [], 10), lexical.map((hit, i) => ({ ...hit, score: (1 / (61 + i)) / (2 / 61) })));
});

test('the sliced scan answers as the whole scan does', async () => {
  const index = new VectorIndex(4);
  for (let i = 0; i < 1000; i++) index.set(`n${String(i).padStart(4, '0')}`, v(Math.cos(i), Math.sin(i), (i % 7) / 7, 1));
  const query = v(0.3, -0.2, 0.5, 1);
  assert.deepEqual(await index.nearestSliced(query, 25, 0.1, 64), index.nearest(query, 25, 0.1));
  assert.deepEqual(await new VectorIndex(4).nearestSliced(query, 5), []);
});

test('rank fusion over ids: shared ids first, each id once, ties to the first ranking', () => {
  const fused = fuseIdRankings(['a', 'b', 'c'], ['c', 'x'], 10);
  assert.deepEqual(fused.map((hit) => hit.id), ['c', 'a', 'b', 'x']);
  assert.ok(fused.every((hit, i) => i === 0 || hit.score <= fused[i - 1]!.score));
});
