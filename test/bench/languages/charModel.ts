/**
 * A character-level model tried beside the token model (issue 31's fifth pass, docs/languages.md;
 * not shipped: out of fold on the tuning packages it did not improve the classifier): a
 * multinomial logistic regression over a snippet's hashed character n-grams (1 to 5 characters of
 * each line, with markers at the line's start and end, whitespace runs read as one space, and
 * optionally the names a package chose masked). It would see what words miss on a few lines:
 * `: str`, `=> {`, `::`, `</`, `->`, `$_`, how a line opens and closes.
 *
 * A model is one binary file of int8 weights: a dense table of 2^bits buckets × languages, which
 * costs its file's size in memory and no parsing (trainChars.ts writes it, charBlend.ts scores its
 * log-scores added to the shipped combination).
 */
import type { ClassificationSpecific } from '../../../src/core/piecesTypes.ts';

/** A snippet is read no further than this (the token model reads 4,000): its first lines are what a short snippet has, and the token model reads the rest. */
export const charMaxChars = 1_000;
/** The longest n-gram. */
export const charMaxN = 5;

const magic = 0x314d4353; // "SCM1", little-endian

/** FNV-1a's offset and prime, then a final mix so the low bits (the bucket) depend on every character. */
const offset = 0x811c9dc5;
const prime = 0x01000193;

/**
 * How names are read. `plain`: as written. `masked`: a name a package chose (one with a capital, an
 * underscore or a digit, or longer than 8 letters) becomes one mark of its kind, so the n-grams
 * learn the syntax around names (`N.N(`, `: N)`, `->N`) rather than one package's names; short
 * lowercase words (keywords, mostly: `def`, `let`, `fn`, `struct`, `return`) stay as written.
 */
export type CharForm = 'plain' | 'masked';
const forms: readonly CharForm[] = ['plain', 'masked'];

function maskName(word: string): string {
  if (/^[a-z]{1,8}$/.test(word)) return word;
  if (/^[A-Z][A-Z0-9_]+$/.test(word)) return 'K';
  if (/^[A-Z]/.test(word)) return 'P';
  if (word.includes('_')) return 's';
  return 'n';
}

/** A line as the model reads it: start and end markers, indentation as one mark, inner whitespace as one space. */
export function lineForm(line: string, form: CharForm): string {
  const trimmed = line.trim();
  if (trimmed === '') return '';
  const indent = line.startsWith('\t') ? '\t' : line.startsWith(' ') ? ' ' : '';
  const spaced = trimmed.replace(/\s+/g, ' ');
  return `\u0002${indent}${form === 'masked' ? spaced.replace(/[A-Za-z_][A-Za-z0-9_]*/g, maskName) : spaced}\u0003`;
}

/**
 * Calls `visit` once for each distinct bucket of the text's n-grams. `seen` (2^bits stamps) and
 * `stamp` (a number not used in `seen` before) make the distinct test linear without a Set.
 */
export function forEachBucket(text: string, bits: number, seen: Uint32Array, stamp: number, visit: (bucket: number) => void, form: CharForm = 'plain'): number {
  const mask = (1 << bits) - 1;
  let distinct = 0;
  for (const line of text.slice(0, charMaxChars).split('\n')) {
    const read = lineForm(line, form);
    for (let i = 0; i < read.length; i++) {
      let hash = offset;
      for (let n = 0; n < charMaxN && i + n < read.length; n++) {
        hash = Math.imul(hash ^ read.charCodeAt(i + n), prime);
        let mixed = Math.imul(hash ^ (hash >>> 15), 0x2c1b3c6d);
        mixed ^= mixed >>> 13;
        const bucket = mixed & mask;
        if (seen[bucket] === stamp) continue;
        seen[bucket] = stamp;
        distinct++;
        visit(bucket);
      }
    }
  }
  return distinct;
}

export interface CharModelData {
  readonly bits: number;
  readonly form: CharForm;
  readonly languages: readonly string[];
  /** weight = quantized × scale */
  readonly scale: number;
  readonly intercepts: Float32Array;
  /** bucket × language, row by bucket. */
  readonly weights: Int8Array;
}

export interface CharScores {
  readonly languages: readonly ClassificationSpecific[];
  /** The regression's log-scores (unnormalised), in `languages` order. */
  readonly logits: Float64Array;
}

/** The binary file: magic, bits, language count, scale, the languages (comma separated, length-prefixed), intercepts, weights. */
export function encodeCharModel(data: CharModelData): Uint8Array {
  const names = new TextEncoder().encode(data.languages.join(','));
  const header = 16 + names.length;
  const padded = header + ((4 - (header % 4)) % 4);
  const bytes = new Uint8Array(padded + 4 * data.intercepts.length + data.weights.length);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, magic, true);
  view.setUint16(4, data.bits, true);
  view.setUint16(6, forms.indexOf(data.form), true);
  view.setFloat32(8, data.scale, true);
  view.setUint32(12, names.length, true);
  bytes.set(names, 16);
  data.intercepts.forEach((value, i) => view.setFloat32(padded + 4 * i, value, true));
  bytes.set(new Uint8Array(data.weights.buffer, data.weights.byteOffset, data.weights.length), padded + 4 * data.intercepts.length);
  return bytes;
}

export function decodeCharModel(bytes: Uint8Array): CharModelData {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 16 || view.getUint32(0, true) !== magic) throw new Error('Not a character model (charModel.bin): wrong magic number');
  const bits = view.getUint16(4, true);
  const form = forms[view.getUint16(6, true)];
  if (form === undefined) throw new Error('Character model (charModel.bin) reads names in a way this version does not know');
  const scale = view.getFloat32(8, true);
  const nameLength = view.getUint32(12, true);
  const languages = new TextDecoder().decode(bytes.subarray(16, 16 + nameLength)).split(',');
  const header = 16 + nameLength;
  const padded = header + ((4 - (header % 4)) % 4);
  const intercepts = Float32Array.from({ length: languages.length }, (_, i) => view.getFloat32(padded + 4 * i, true));
  const start = padded + 4 * languages.length;
  const size = (1 << bits) * languages.length;
  if (bits < 8 || bits > 24 || bytes.length !== start + size) throw new Error(`Character model (charModel.bin) is ${bytes.length} bytes, expected ${start + size}`);
  // A copy, so the model does not pin a larger buffer it was read into.
  const weights = new Int8Array(size);
  weights.set(new Int8Array(bytes.buffer, bytes.byteOffset + start, size));
  return { bits, form, languages, scale, intercepts, weights };
}

export class CharModel {
  readonly languages: readonly ClassificationSpecific[];
  private readonly data: CharModelData;
  private readonly seen: Uint32Array;
  private stamp = 0;
  private readonly sums: Int32Array;

  constructor(data: CharModelData) {
    this.data = data;
    this.languages = data.languages as readonly ClassificationSpecific[];
    this.seen = new Uint32Array(1 << data.bits);
    this.sums = new Int32Array(data.languages.length);
  }

  score(text: string): CharScores {
    const { weights, intercepts, scale } = this.data;
    const count = this.languages.length;
    const sums = this.sums;
    sums.fill(0);
    this.stamp = (this.stamp + 1) >>> 0;
    if (this.stamp === 0) {
      this.seen.fill(0);
      this.stamp = 1;
    }
    const distinct = forEachBucket(
      text,
      this.data.bits,
      this.seen,
      this.stamp,
      (bucket) => {
        const row = bucket * count;
        for (let l = 0; l < count; l++) sums[l]! += weights[row + l]!;
      },
      this.data.form,
    );
    // Features are a bag of distinct n-grams scaled to unit length, so a long snippet is surer than a short one, but not linearly.
    const norm = distinct === 0 ? 0 : scale / Math.sqrt(distinct);
    const logits = Float64Array.from(intercepts, (intercept, l) => intercept + sums[l]! * norm);
    return { languages: this.languages, logits };
  }
}
