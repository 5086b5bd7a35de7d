/**
 * The neural classifier tried in issue 31's fifth pass (docs/languages.md), kept as a benchmark
 * model because none of its variants gained out of fold: fastText-style, each of a snippet's tokens
 * (tokenModel.ts's `tokensOf`, and optionally its character n-grams) hashed into a fixed number of
 * embedding rows, so no vocabulary is stored; their sum over the square root of their number (a
 * short snippet's vector as long as a long one's, as with a mean, but not shrunk to noise), then
 * optionally a ReLU layer, then a softmax over the languages. Its log-probabilities go into the
 * combination as an extra score source (combination.ts `ExtraScores`, `extraWeight`).
 *
 * A model is one binary file: a JSON header (shape), then float32 row scales and dense layers, then
 * the embeddings as int8 (a scale a row). Loaded, the int8 table is a view on the file's bytes, so a
 * model takes about its file size in memory (2.25 MiB at 65,536 rows of 32).
 */
import { tokensOf } from '../../../src/core/classify/tokenModel.ts';

const magic = 0x314e4e53; // "SNN1", little-endian

export interface NeuralShape {
  readonly languages: readonly string[];
  /** Embedding rows: a power of two, so a hash's low bits pick one. */
  readonly buckets: number;
  readonly dim: number;
  /** Units of the hidden layer; 0 for a linear model over the pooled embeddings. */
  readonly hidden: number;
  /** Also the text's character n-grams of this length (whitespace runs read as one space); 0 or absent: tokens only. */
  readonly charGrams?: number;
}

/** The float weights training produces (and the quantized ones are read back into). */
export interface NeuralWeights {
  readonly shape: NeuralShape;
  /** buckets × dim */
  readonly embeddings: Float32Array;
  /** hidden × dim */
  readonly w1: Float32Array;
  readonly b1: Float32Array;
  /** languages × (hidden or dim) */
  readonly w2: Float32Array;
  readonly b2: Float32Array;
}

/** FNV-1a over UTF-16 code units: the same bucket for a token in training and here. */
export function hashToken(token: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < token.length; i++) hash = Math.imul(hash ^ token.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** The embedding rows a text reads: one a distinct token (tokensOf) and, with `charGrams`, a distinct character n-gram. */
export function neuralFeatures(text: string, buckets: number, charGrams = 0): Int32Array {
  const tokens = tokensOf(text);
  if (charGrams > 0) {
    const flat = text.slice(0, 4_000).replace(/\s+/g, ' ');
    for (let i = 0; i + charGrams <= flat.length; i++) tokens.add(`\u0001${flat.slice(i, i + charGrams)}`);
  }
  const features = new Int32Array(tokens.size);
  let i = 0;
  for (const token of tokens) features[i++] = hashToken(token) & (buckets - 1);
  return features;
}

export interface NeuralScores {
  readonly languages: readonly string[];
  /** Natural-log probability of each language, in `languages` order. */
  readonly logProbabilities: Float64Array;
}

/** A loaded model: the int8 embedding table and the dense layers, views on the file's bytes. */
export class NeuralModel {
  readonly languages: readonly string[];
  private readonly shape: NeuralShape;
  private readonly table: Int8Array;
  private readonly rowScales: Float32Array;
  private readonly w1: Float32Array;
  private readonly b1: Float32Array;
  private readonly w2: Float32Array;
  private readonly b2: Float32Array;

  constructor(bytes: Uint8Array) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (bytes.byteLength < 8 || view.getUint32(0, true) !== magic) throw new Error('neural model: not a Satchel neural model file');
    const headerLength = view.getUint32(4, true);
    const header: unknown = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headerLength)));
    this.shape = parseShape(header);
    const { buckets, dim, hidden, languages } = this.shape;
    const width = hidden > 0 ? hidden : dim;
    // Float32 parts first (4-byte aligned after the padded header), then the int8 table.
    let offset = align(8 + headerLength);
    const floats = (count: number): Float32Array => {
      const slice = bytes.slice(offset, offset + count * 4);
      if (slice.byteLength !== count * 4) throw new Error('neural model: file is truncated');
      offset += count * 4;
      return new Float32Array(slice.buffer, slice.byteOffset, count);
    };
    this.rowScales = floats(buckets);
    this.w1 = floats(hidden * dim);
    this.b1 = floats(hidden);
    this.w2 = floats(languages.length * width);
    this.b2 = floats(languages.length);
    if (bytes.byteLength !== offset + buckets * dim) throw new Error('neural model: file size does not match its header');
    this.table = new Int8Array(bytes.buffer, bytes.byteOffset + offset, buckets * dim);
    this.languages = languages;
  }

  /** Log-probabilities of each language for a text (uniform for a text without tokens). */
  score(text: string): NeuralScores {
    return { languages: this.languages, logProbabilities: this.scoreFeatures(neuralFeatures(text, this.shape.buckets, this.shape.charGrams)) };
  }

  scoreFeatures(features: Int32Array): Float64Array {
    const { dim, hidden, languages } = this.shape;
    const mean = new Float64Array(dim);
    for (const row of features) {
      const scale = this.rowScales[row]!;
      if (scale === 0) continue;
      const at = row * dim;
      for (let d = 0; d < dim; d++) mean[d]! += this.table[at + d]! * scale;
    }
    if (features.length > 0) for (let d = 0; d < dim; d++) mean[d]! /= Math.sqrt(features.length);
    let input = mean;
    if (hidden > 0) {
      input = new Float64Array(hidden);
      for (let h = 0; h < hidden; h++) {
        let sum = this.b1[h]!;
        for (let d = 0; d < dim; d++) sum += this.w1[h * dim + d]! * mean[d]!;
        input[h] = sum > 0 ? sum : 0;
      }
    }
    return logSoftmax(this.w2, this.b2, input, languages.length);
  }
}

function logSoftmax(w: Float32Array, b: Float32Array, input: Float64Array, count: number): Float64Array {
  const out = new Float64Array(count);
  const width = input.length;
  let top = -Infinity;
  for (let l = 0; l < count; l++) {
    let sum = b[l]!;
    for (let k = 0; k < width; k++) sum += w[l * width + k]! * input[k]!;
    out[l] = sum;
    if (sum > top) top = sum;
  }
  let total = 0;
  for (let l = 0; l < count; l++) total += Math.exp(out[l]! - top);
  const log = top + Math.log(total);
  for (let l = 0; l < count; l++) out[l]! -= log;
  return out;
}

function align(offset: number): number {
  return (offset + 3) & ~3;
}

function parseShape(header: unknown): NeuralShape {
  if (typeof header !== 'object' || header === null) throw new Error('neural model: bad header');
  const fields: Record<string, unknown> = Object.fromEntries(Object.entries(header));
  const { languages, buckets, dim, hidden, charGrams = 0 } = fields;
  const count = (value: unknown): number => {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw new Error('neural model: bad header');
    return value;
  };
  if (!Array.isArray(languages) || !languages.every((language) => typeof language === 'string')) throw new Error('neural model: bad header');
  const shape = { languages: languages.map(String), buckets: count(buckets), dim: count(dim), hidden: count(hidden), charGrams: count(charGrams) };
  if (shape.buckets === 0 || (shape.buckets & (shape.buckets - 1)) !== 0 || shape.dim === 0) throw new Error('neural model: bad header');
  return shape;
}

/**
 * The file bytes of a trained model: each embedding row quantized to int8 with its own scale (its
 * largest weight over 127), the dense layers kept as float32 (a few thousand numbers).
 */
export function encodeNeuralModel(weights: NeuralWeights): Uint8Array {
  const { shape } = weights;
  const header = new TextEncoder().encode(JSON.stringify(shape));
  const start = align(8 + header.length);
  const floatCount = shape.buckets + weights.w1.length + weights.b1.length + weights.w2.length + weights.b2.length;
  const bytes = new Uint8Array(start + floatCount * 4 + shape.buckets * shape.dim);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, magic, true);
  view.setUint32(4, header.length, true);
  bytes.set(header, 8);
  const scales = new Float32Array(shape.buckets);
  const table = new Int8Array(shape.buckets * shape.dim);
  for (let row = 0; row < shape.buckets; row++) {
    let top = 0;
    for (let d = 0; d < shape.dim; d++) top = Math.max(top, Math.abs(weights.embeddings[row * shape.dim + d]!));
    if (top === 0) continue;
    scales[row] = top / 127;
    for (let d = 0; d < shape.dim; d++) table[row * shape.dim + d] = Math.round(weights.embeddings[row * shape.dim + d]! / scales[row]!);
  }
  let offset = start;
  for (const part of [scales, weights.w1, weights.b1, weights.w2, weights.b2]) {
    for (const value of part) {
      view.setFloat32(offset, value, true);
      offset += 4;
    }
  }
  bytes.set(new Uint8Array(table.buffer), offset);
  return bytes;
}
