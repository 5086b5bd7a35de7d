/** The in-memory vector matrix and the rank fusion of hybrid search. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VectorIndex } from '../../../src/core/search/vectorIndex.ts';
import { fuseIdRankings, fuseRankings, lexicalWeight } from '../../../src/core/search/hybridSearch.ts';

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

/** cos(q − m, v − m) of unit q and v, computed the long way. */
function centredCosine(q: Float32Array, v: Float32Array, m: ArrayLike<number>): number {
  const unit = (x: Float32Array) => Array.from(x, (value) => value / Math.hypot(...x));
  const a = unit(q).map((value, i) => value - m[i]!);
  const b = unit(v).map((value, i) => value - m[i]!);
  return a.reduce((sum, value, i) => sum + value * b[i]!, 0) / (Math.hypot(...a) * Math.hypot(...b));
}

test('a centred index compares vectors from the mean of those it holds, the prior counted as its weight', () => {
  const prior = [0.5, 0.5, 0, 0];
  const index = new VectorIndex(4, { prior, weight: 2 });
  // A narrow cone around (1, 1, 0, 0): uncentred, every vector is near every other.
  const vectors = { a: v(1, 1, 0.2, 0), b: v(1, 1, 0, 0.2), c: v(1, 1, -0.2, 0), d: v(1.1, 1, 0, -0.2) };
  for (const [id, vector] of Object.entries(vectors)) index.set(id, vector);
  const unit = (x: Float32Array) => Array.from(x, (value) => value / Math.hypot(...x));
  const mean = [0, 1, 2, 3].map((i) => (Object.values(vectors).reduce((sum, x) => sum + unit(x)[i]!, 0) + 2 * prior[i]!) / (4 + 2));
  assert.deepEqual(Array.from(index.centre(), (x) => x.toFixed(6)), mean.map((x) => x.toFixed(6)));
  const query = v(1, 1, 0.3, 0.05);
  const near = index.nearest(query, 4);
  for (const n of near) assert.ok(Math.abs(n.similarity - centredCosine(query, vectors[n.id as keyof typeof vectors], mean)) < 1e-5, n.id);
  assert.equal(near[0]!.id, 'a');
  // Centred, the opposite direction of the cone is far away; uncentred it is as near as the rest.
  assert.ok(near.find((n) => n.id === 'c')!.similarity < -0.5);
  assert.ok(new VectorIndex(4).nearest(query, 4).every((n) => n.similarity > 0.9));
});

test('a centred index keeps its mean exact through replacements, deletes and growth', async () => {
  const prior = [0.3, 0.1, 0.2];
  const churned = new VectorIndex(3, { prior, weight: 5 });
  const final = new Map<string, Float32Array>();
  for (let i = 0; i < 2500; i++) churned.set(`n${i}`, v(1 + Math.sin(i), 2, Math.cos(3 * i)));
  for (let i = 0; i < 2500; i += 3) churned.delete(`n${i}`);
  for (let i = 1; i < 2500; i += 7) churned.set(`n${i}`, v(Math.cos(i), -1, 0.5));
  for (let i = 0; i < 2500; i++) {
    const id = `n${i}`;
    if (!churned.has(id)) continue;
    final.set(id, i % 7 === 1 ? v(Math.cos(i), -1, 0.5) : v(1 + Math.sin(i), 2, Math.cos(3 * i)));
  }
  const fresh = new VectorIndex(3, { prior, weight: 5 });
  for (const [id, vector] of final) fresh.set(id, vector);
  assert.equal(churned.size, fresh.size);
  churned.centre().forEach((x, i) => assert.ok(Math.abs(x - fresh.centre()[i]!) < 1e-9, `centre[${i}]`));
  const query = v(0.2, 1, -0.4);
  const a = churned.nearest(query, 20);
  const b = fresh.nearest(query, 20);
  assert.deepEqual(a.map((n) => n.id).sort(), b.map((n) => n.id).sort());
  a.forEach((n, i) => assert.ok(Math.abs(n.similarity - b[i]!.similarity) < 1e-5));
  assert.deepEqual(await churned.nearestSliced(query, 20, -1, 100), churned.nearest(query, 20));
  churned.clear();
  assert.deepEqual(Array.from(churned.centre(), (x) => Number(x.toFixed(6))), prior, 'empty: the prior alone');
});

test('a centred index of one snippet is centred on the prior, not on itself', () => {
  const index = new VectorIndex(2, { prior: [0.6, 0.6], weight: 50 });
  index.set('only', v(0, 1));
  const near = index.nearest(v(0, 1), 1)[0]!;
  assert.ok(Math.abs(near.similarity - 1) < 1e-6, 'the same direction is still the most similar');
  const zero = new VectorIndex(2, { prior: [0.6, 0.6], weight: 50 });
  zero.set('zero', v(0, 0));
  assert.equal(zero.nearest(v(1, 0), 1, -1)[0]!.similarity, 0, 'a zero vector matches nothing');
  assert.throws(() => new VectorIndex(3, { prior: [1, 0], weight: 1 }), RangeError);
});

test('fusion weighs the typo guesses of a description at half, those of a name or keywords in full', () => {
  const guesses = [
    { rowid: 1, stage: 'fuzzy' as const, score: 0.2 },
    { rowid: 2, stage: 'fuzzy' as const, score: 0.2 },
  ];
  const neighbours = [
    { rowid: 7, similarity: 0.5 },
    { rowid: 8, similarity: 0.4 },
  ];
  // Two words: a misspelt name; its guesses lead as before.
  assert.deepEqual(fuseRankings(guesses, neighbours, 10, lexicalWeight('flaten array')).map((hit) => hit.rowid), [1, 7, 2, 8]);
  // A sentence no exact stage matched: the vector neighbours lead, the guesses follow.
  assert.deepEqual(fuseRankings(guesses, neighbours, 10, lexicalWeight('wait until the user stops typing')).map((hit) => hit.rowid), [7, 8, 1, 2]);
  // Exact stages count in full whatever the query's length.
  const exact = [{ rowid: 3, stage: 'word' as const, score: 0.85 }];
  assert.deepEqual(fuseRankings(exact, neighbours, 10, lexicalWeight('sum the values of a list')).map((hit) => hit.rowid), [3, 7, 8]);
  assert.equal(lexicalWeight('  two   words ')('fuzzy'), 1);
  assert.equal(lexicalWeight('three words here')('fuzzy'), 0.5);
});
