/**
 * The vectors of one embedding model in memory, for brute-force nearest-neighbour search. Each
 * vector is stored normalized in one preallocated Float32Array, so cosine similarity is a plain
 * dot product over contiguous memory (no per-vector objects for the GC to walk, no square roots
 * per query). Removing swaps the last vector into the hole, so the matrix stays dense.
 */

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

  constructor(dimension: number) {
    if (!Number.isInteger(dimension) || dimension <= 0) throw new RangeError(`Bad vector dimension ${dimension}`);
    this.dimension = dimension;
    this.matrix = new Float32Array(INITIAL_CAPACITY * dimension);
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
    }
    normalizeInto(vector, this.matrix, slot * this.dimension);
  }

  delete(id: string): void {
    const slot = this.slots.get(id);
    if (slot === undefined) return;
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
    return new TopK(q, k, minSimilarity);
  }

  /** Offers the vectors of slots [from, to) to `best`. */
  private scan(best: TopK, from: number, to: number): void {
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

  clear(): void {
    this.ids = [];
    this.slots.clear();
    this.matrix = new Float32Array(INITIAL_CAPACITY * this.dimension);
  }

  private grow(): void {
    const next = new Float32Array(this.matrix.length * 2);
    next.set(this.matrix);
    this.matrix = next;
  }
}

/** The best k (score, id) pairs offered so far, kept sorted (k is small: a sorted insert beats a heap). */
class TopK {
  readonly query: Float32Array;
  private readonly k: number;
  private readonly minSimilarity: number;
  private readonly scores: number[] = [];
  private readonly ids: string[] = [];
  /** Below this a score cannot enter. */
  floor: number;

  constructor(query: Float32Array, k: number, minSimilarity: number) {
    this.query = query;
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
