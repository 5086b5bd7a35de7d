/**
 * The vectors of one embedding model in memory, for brute-force nearest-neighbour search. Each
 * vector is stored normalized in one preallocated Float32Array, so cosine similarity is a plain
 * dot product over contiguous memory (no per-vector objects for the GC to walk, no square roots
 * per query). Removing swaps the last vector into the hole, so the matrix stays dense.
 *
 * Centred (`EmbeddingCentre`): some models put every text in one narrow cone (the built-in encoder's
 * unrelated snippets score a cosine of 0.5–0.75), so what all snippets share outweighs what two
 * share with each other. Such an index compares vectors after moving them by the mean of the
 * vectors it holds, cos(q − m, v − m): the library's own mean, kept exact by a running sum that
 * every set and delete updates, so it follows writes, re-embeds and deletes with no pass over the
 * matrix. A small library's mean says little, so a reference mean measured once for the model
 * stands in for `weight` vectors: a library of a few snippets is centred on the reference, one of
 * thousands on itself.
 */

import type { EmbeddingCentre } from '../models/embedder.ts';

export interface Neighbour {
  readonly id: string;
  /** Cosine similarity, -1..1. */
  readonly similarity: number;
}

const INITIAL_CAPACITY = 1024;

export class VectorIndex {
  readonly dimension: number;
  private matrix: Float32Array;
  private ids: string[] = [];
  private readonly slots = new Map<string, number>();
  private readonly centring: EmbeddingCentre | undefined;
  /** Of a centred index: the sum of the stored (normalized) vectors, in doubles so adding and taking away cancel. */
  private readonly sum: Float64Array | undefined;

  constructor(dimension: number, centring?: EmbeddingCentre) {
    if (!Number.isInteger(dimension) || dimension <= 0) throw new RangeError(`Bad vector dimension ${dimension}`);
    this.dimension = dimension;
    this.matrix = new Float32Array(INITIAL_CAPACITY * dimension);
    if (centring) {
      if (centring.prior.length !== dimension || !(centring.weight >= 0)) throw new RangeError(`Bad centring for ${dimension} dimensions`);
      this.centring = centring;
      this.sum = new Float64Array(dimension);
    }
  }

  /** The point vectors are compared from: the mean of the stored vectors and the prior; zeros when not centred. */
  centre(): Float64Array {
    const centre = new Float64Array(this.dimension);
    if (!this.centring || !this.sum) return centre;
    const { prior, weight } = this.centring;
    const count = this.ids.length + weight;
    if (count === 0) return centre;
    for (let i = 0; i < this.dimension; i++) centre[i] = (this.sum[i]! + weight * prior[i]!) / count;
    return centre;
  }

  get size(): number {
    return this.ids.length;
  }

  has(id: string): boolean {
    return this.slots.has(id);
  }

  /** Adds or replaces the vector of `id` (copied and normalized; a zero vector matches nothing). */
  set(id: string, vector: Float32Array): void {
    if (vector.length !== this.dimension) throw new RangeError(`Vector of ${vector.length} values, expected ${this.dimension}`);
    let slot = this.slots.get(id);
    if (slot === undefined) {
      slot = this.ids.length;
      if ((slot + 1) * this.dimension > this.matrix.length) this.grow();
      this.ids.push(id);
      this.slots.set(id, slot);
    } else this.accumulate(slot, -1);
    normalizeInto(vector, this.matrix, slot * this.dimension);
    this.accumulate(slot, 1);
  }

  delete(id: string): void {
    const slot = this.slots.get(id);
    if (slot === undefined) return;
    this.accumulate(slot, -1);
    const last = this.ids.length - 1;
    if (slot !== last) {
      const moved = this.ids[last]!;
      this.matrix.copyWithin(slot * this.dimension, last * this.dimension, (last + 1) * this.dimension);
      this.ids[slot] = moved;
      this.slots.set(moved, slot);
    }
    this.ids.pop();
    this.slots.delete(id);
  }

  /**
   * The `k` vectors most similar to `query`, best first, at least `minSimilarity` similar. Equal
   * similarities are ordered by id, so the answer does not depend on the order of writes.
   */
  nearest(query: Float32Array, k: number, minSimilarity = -1): Neighbour[] {
    const best = this.best(query, k, minSimilarity);
    if (best) this.scan(best, 0, this.ids.length);
    return best ? best.result() : [];
  }

  /**
   * `nearest` in slices of `sliceRows` vectors with a turn of the event loop between them: at
   * 100k × 384 a whole scan takes 40–80 ms, which the host would otherwise spend deaf to health
   * and other requests. A vector written or deleted meanwhile may be missed; one moved by a
   * delete may be seen twice, and is counted once.
   */
  async nearestSliced(query: Float32Array, k: number, minSimilarity = -1, sliceRows = 16_384): Promise<Neighbour[]> {
    const best = this.best(query, k, minSimilarity);
    if (!best) return [];
    for (let from = 0; from < this.ids.length; from += sliceRows) {
      if (from > 0) await new Promise((resolve) => setImmediate(resolve));
      this.scan(best, from, Math.min(from + sliceRows, this.ids.length));
    }
    return best.result();
  }

  private best(query: Float32Array, k: number, minSimilarity: number): TopK | undefined {
    if (query.length !== this.dimension) throw new RangeError(`Query of ${query.length} values, expected ${this.dimension}`);
    if (k <= 0 || this.ids.length === 0) return undefined;
    const q = new Float32Array(this.dimension);
    normalizeInto(query, q, 0);
    if (!this.centring) return new TopK(q, k, minSimilarity);
    // cos(q − m, v − m) with unit q and v: the scan needs v·q' and v·m per vector (q' the unit
    // q − m); (v − m)·q' = v·q' − m·q' and |v − m|² = 1 − 2 v·m + m·m.
    const centre = this.centre();
    const shifted = new Float32Array(this.dimension);
    for (let i = 0; i < this.dimension; i++) shifted[i] = q[i]! - centre[i]!;
    normalizeInto(shifted, q, 0);
    const m = Float32Array.from(centre);
    let mq = 0;
    let mm = 0;
    for (let i = 0; i < this.dimension; i++) {
      mq += centre[i]! * q[i]!;
      mm += centre[i]! * centre[i]!;
    }
    return new TopK(q, k, minSimilarity, { m, mq, mm });
  }

  /** Offers the vectors of slots [from, to) to `best`. */
  private scan(best: TopK, from: number, to: number): void {
    if (best.centred) {
      this.scanCentred(best, best.centred, from, to);
      return;
    }
    const dim = this.dimension;
    const m = this.matrix;
    const q = best.query;
    for (let slot = from; slot < to; slot++) {
      const base = slot * dim;
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      let i = 0;
      // Four running sums let the CPU overlap the multiply-adds.
      for (; i + 3 < dim; i += 4) {
        s0 += m[base + i]! * q[i]!;
        s1 += m[base + i + 1]! * q[i + 1]!;
        s2 += m[base + i + 2]! * q[i + 2]!;
        s3 += m[base + i + 3]! * q[i + 3]!;
      }
      for (; i < dim; i++) s0 += m[base + i]! * q[i]!;
      const score = s0 + s1 + s2 + s3;
      if (score >= best.floor) best.offer(score, this.ids[slot]!);
    }
  }

  /** `scan` of a centred index: two dot products per vector, in one pass over its values. */
  private scanCentred(best: TopK, centred: CentredQuery, from: number, to: number): void {
    const dim = this.dimension;
    const matrix = this.matrix;
    const q = best.query;
    const { m, mq, mm } = centred;
    for (let slot = from; slot < to; slot++) {
      const base = slot * dim;
      let vq0 = 0;
      let vq1 = 0;
      let vm0 = 0;
      let vm1 = 0;
      let i = 0;
      for (; i + 1 < dim; i += 2) {
        const a = matrix[base + i]!;
        const b = matrix[base + i + 1]!;
        vq0 += a * q[i]!;
        vq1 += b * q[i + 1]!;
        vm0 += a * m[i]!;
        vm1 += b * m[i + 1]!;
      }
      for (; i < dim; i++) {
        vq0 += matrix[base + i]! * q[i]!;
        vm0 += matrix[base + i]! * m[i]!;
      }
      const vq = vq0 + vq1;
      const vm = vm0 + vm1;
      const squared = 1 - 2 * vm + mm;
      // A zero vector (a model's failure; both products exactly 0) matches nothing, as uncentred.
      const score = squared > 1e-12 && (vq !== 0 || vm !== 0) ? (vq - mq) / Math.sqrt(squared) : 0;
      if (score >= best.floor) best.offer(score, this.ids[slot]!);
    }
  }

  clear(): void {
    this.ids = [];
    this.slots.clear();
    this.matrix = new Float32Array(INITIAL_CAPACITY * this.dimension);
    this.sum?.fill(0);
  }

  /** Adds (`sign` 1) or takes away (−1) the vector in `slot` to the running sum of a centred index. */
  private accumulate(slot: number, sign: 1 | -1): void {
    const sum = this.sum;
    if (!sum) return;
    const base = slot * this.dimension;
    for (let i = 0; i < this.dimension; i++) sum[i]! += sign * this.matrix[base + i]!;
  }

  private grow(): void {
    const next = new Float32Array(this.matrix.length * 2);
    next.set(this.matrix);
    this.matrix = next;
  }
}

/** What a centred scan needs besides the (centred, normalized) query: the centre m, m·q and m·m. */
interface CentredQuery {
  readonly m: Float32Array;
  readonly mq: number;
  readonly mm: number;
}

/** The best k (score, id) pairs offered so far, kept sorted (k is small: a sorted insert beats a heap). */
class TopK {
  readonly query: Float32Array;
  readonly centred: CentredQuery | undefined;
  private readonly k: number;
  private readonly minSimilarity: number;
  private readonly scores: number[] = [];
  private readonly ids: string[] = [];
  /** Below this a score cannot enter. */
  floor: number;

  constructor(query: Float32Array, k: number, minSimilarity: number, centred?: CentredQuery) {
    this.query = query;
    this.centred = centred;
    this.k = k;
    this.minSimilarity = minSimilarity;
    this.floor = minSimilarity;
  }

  offer(score: number, id: string): void {
    if (this.ids.includes(id)) return;
    let at = this.scores.length;
    while (at > 0 && precedes(score, id, this.scores[at - 1]!, this.ids[at - 1]!)) at--;
    if (at >= this.k) return;
    this.scores.splice(at, 0, score);
    this.ids.splice(at, 0, id);
    if (this.scores.length > this.k) {
      this.scores.pop();
      this.ids.pop();
    }
    if (this.scores.length === this.k) this.floor = Math.max(this.minSimilarity, this.scores[this.k - 1]!);
  }

  result(): Neighbour[] {
    return this.ids.map((id, i) => ({ id, similarity: this.scores[i]! }));
  }
}

function precedes(score: number, id: string, otherScore: number, otherId: string): boolean {
  return score > otherScore || (score === otherScore && id < otherId);
}

/** Writes `vector / |vector|` into `target` at `offset`; zeros when the norm is 0 or not finite. */
function normalizeInto(vector: Float32Array, target: Float32Array, offset: number): void {
  let norm = 0;
  for (let i = 0; i < vector.length; i++) norm += vector[i]! * vector[i]!;
  norm = Math.sqrt(norm);
  const scale = norm > 0 && Number.isFinite(norm) ? 1 / norm : 0;
  for (let i = 0; i < vector.length; i++) target[offset + i] = vector[i]! * scale;
}
