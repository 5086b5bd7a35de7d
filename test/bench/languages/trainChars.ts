/**
 * Trains the character model (charModel.ts; issue 31's fifth pass, tried and not shipped) on
 * snippets cut from the tuning packages only, never the held-out ones: a multinomial logistic
 * regression over hashed character n-grams, by stochastic gradient descent with averaged weights,
 * on the training windows and two short windows cut from each longer one (as trainWeights.ts
 * does), then quantized to int8; or, with CHAR_KIND=nb, naive Bayes over the same buckets.
 *
 *   node --experimental-strip-types test/bench/languages/trainChars.ts /tmp/train.json /tmp/chars.bin [--fold 0|1 [--residual PREFIX]]
 *
 * `--fold 0|1` trains on half the packages (by train.ts's hash of their id), for charBlend.ts to
 * score the other half; with `--residual TOKEN-FOLDS-PREFIX` too, on top of the shipped combination's
 * scores from the token model of the other half (a residual model). CHAR_BITS, CHAR_EPOCHS, CHAR_RATE, CHAR_FORM (plain, masked) and CHAR_KIND
 * override the defaults, which are the best variant tried out of fold (docs/languages.md).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { CharModel, decodeCharModel, encodeCharModel, forEachBucket, type CharForm, type CharModelData } from './charModel.ts';
import { readBenchSet, type BenchSnippet } from './benchSet.ts';
import { tunedCombination } from '../../../src/core/classify/combination.ts';
import { TokenModel, type TokenModelData } from '../../../src/core/classify/tokenModel.ts';
import type { ClassificationSpecific } from '../../../src/core/piecesTypes.ts';
import { foldOf, packageOf } from './train.ts';
import { withShortWindows } from './trainWeights.ts';
import { lcg, shuffle } from './seeded.ts';

const fromEnv = (name: string, fallback: number): number => (process.env[name] === undefined ? fallback : Number(process.env[name]));
/** 2^16 buckets: 1.77 MB for 27 languages. */
const bits = fromEnv('CHAR_BITS', 16);
const epochs = fromEnv('CHAR_EPOCHS', 3);
const rate = fromEnv('CHAR_RATE', 0.5);
/** `nb`: naive Bayes over the same buckets instead of the regression (counts, one pass). */
const kind = process.env['CHAR_KIND'] ?? 'lr';
/** How names are read (charModel.ts CharForm). */
const form: CharForm = process.env['CHAR_FORM'] === 'plain' ? 'plain' : 'masked';
/** A residual model's offsets are the combination's scores times this (they are too sure to train on as they are). */
const offsetScale = fromEnv('CHAR_OFFSET_SCALE', 1);
/** Naive Bayes's additive smoothing, in snippets. */
const smoothing = fromEnv('CHAR_SMOOTHING', 5);

/** int8 with one scale, clipped at the 99.99th percentile of the weights' size so a few large ones do not coarsen the rest. */
function quantize(values: Float32Array): { scale: number; weights: Int8Array } {
  const length = Math.min(values.length, 1_000_000);
  const sample = Float32Array.from({ length }, (_, i) => Math.abs(values[Math.floor((i * values.length) / length)]!)).sort();
  const scale = (sample[Math.floor(sample.length * 0.9999)]! || 1) / 127;
  return { scale, weights: Int8Array.from(values, (value) => Math.max(-127, Math.min(127, Math.round(value / scale)))) };
}

/**
 * Naive Bayes over the distinct buckets: log P(bucket present | language), smoothed, less its mean
 * over the languages (which changes no answer and keeps int8's range for the differences).
 */
function trainBayes(snippets: readonly BenchSnippet[], languages: readonly string[]): CharModelData {
  const count = languages.length;
  const size = 1 << bits;
  const counts = new Float32Array(size * count);
  const documents = new Float64Array(count);
  const seen = new Uint32Array(size);
  let stamp = 0;
  for (const snippet of withShortWindows(snippets)) {
    const language = languages.indexOf(snippet.language);
    documents[language]!++;
    forEachBucket(snippet.text, bits, seen, ++stamp, (bucket) => {
      counts[bucket * count + language]!++;
    }, form);
  }
  const logs = new Float32Array(size * count);
  for (let bucket = 0; bucket < size; bucket++) {
    let mean = 0;
    for (let l = 0; l < count; l++) mean += logs[bucket * count + l] = Math.log((counts[bucket * count + l]! + smoothing) / (documents[l]! + 2 * smoothing));
    mean /= count;
    for (let l = 0; l < count; l++) logs[bucket * count + l]! -= mean;
  }
  const { scale, weights } = quantize(logs);
  const total = documents.reduce((a, b) => a + b, 0);
  return { bits, form, languages, scale, intercepts: Float32Array.from(documents, (d) => Math.log(d / total)), weights };
}

/**
 * The shipped combination's log-scores without guesslang (combination.ts: the token model's
 * log-likelihoods cooled, plus the biases), in `languages` order: what a residual model is trained
 * on top of.
 */
export function combinationScores(model: TokenModel, languages: readonly string[]): (text: string) => Float64Array {
  return (text) => {
    const scores = model.score(text);
    const combined = scores.languages.map((language, i) => scores.logLikelihoods[i]! / tunedCombination.temperature + (tunedCombination.bias?.[language] ?? 0));
    const lowest = Math.min(...combined);
    return Float64Array.from(languages, (language) => {
      const at = scores.languages.indexOf(language as ClassificationSpecific);
      return at === -1 ? lowest : combined[at]!;
    });
  };
}

/**
 * With `offsets`, a residual model: the regression is trained on top of those fixed scores (the
 * token model's, from a model that did not see the example's package), so it learns only what they miss.
 */
export function trainChars(snippets: readonly BenchSnippet[], offsets?: (text: string) => Float64Array): CharModelData {
  const languages = [...new Set(snippets.map((snippet) => snippet.language))].sort();
  if (kind === 'nb') return trainBayes(snippets, languages);
  const count = languages.length;
  const examples = withShortWindows(snippets).map((snippet) => ({ text: snippet.text, language: languages.indexOf(snippet.language) }));
  const fixed = offsets === undefined ? undefined : new Float32Array(examples.length * count);
  if (fixed !== undefined) examples.forEach((example, i) => fixed.set(offsets!(example.text).map((value) => value * offsetScale), i * count));
  const size = 1 << bits;
  const weights = new Float32Array(size * count);
  const intercepts = new Float64Array(count);
  // Sums of step × update, from which the average over all steps follows (averaged SGD).
  const weightSums = new Float64Array(weights.length);
  const interceptSums = new Float64Array(count);
  const seen = new Uint32Array(size);
  let stamp = 0;
  const buckets = new Int32Array(64 * 1024);
  const scores = new Float64Array(count);
  const random = lcg(11);
  const order = examples.map((_, i) => i);
  let step = 0;
  for (let epoch = 0; epoch < epochs; epoch++) {
    shuffle(order, random);
    const learningRate = rate / (1 + epoch);
    let loss = 0;
    for (const at of order) {
      const { text, language } = examples[at]!;
      let n = 0;
      forEachBucket(text, bits, seen, ++stamp, (bucket) => {
        buckets[n++] = bucket;
      }, form);
      if (n === 0) continue;
      const x = 1 / Math.sqrt(n);
      for (let l = 0; l < count; l++) scores[l] = 0;
      for (let k = 0; k < n; k++) {
        const row = buckets[k]! * count;
        for (let l = 0; l < count; l++) scores[l]! += weights[row + l]!;
      }
      let top = -Infinity;
      for (let l = 0; l < count; l++) top = Math.max(top, (scores[l] = intercepts[l]! + scores[l]! * x + (fixed === undefined ? 0 : fixed[at * count + l]!)));
      let total = 0;
      for (let l = 0; l < count; l++) total += (scores[l] = Math.exp(scores[l]! - top));
      loss -= Math.log(scores[language]! / total);
      for (let l = 0; l < count; l++) {
        const gradient = scores[l]! / total - (l === language ? 1 : 0);
        if (Math.abs(gradient) < 1e-3) continue;
        const change = learningRate * gradient;
        intercepts[l]! -= change * 0.1;
        interceptSums[l]! -= change * 0.1 * step;
        const featureChange = change * x;
        for (let k = 0; k < n; k++) {
          const at2 = buckets[k]! * count + l;
          weights[at2]! -= featureChange;
          weightSums[at2]! -= featureChange * step;
        }
      }
      step++;
    }
    console.log(`epoch ${epoch + 1}: mean loss ${(loss / order.length).toFixed(4)}`);
  }
  const { scale, weights: quantized } = quantize(Float32Array.from(weights, (value, i) => value - weightSums[i]! / step));
  return { bits, form, languages, scale, intercepts: Float32Array.from(intercepts, (value, l) => value - interceptSums[l]! / step), weights: quantized };
}

/**
 * The two fold models: each trained on one half of the tuning packages, to score the other half.
 * With a prefix they are read from PREFIXchars0.bin and PREFIXchars1.bin when there and written there when not.
 */
export function foldCharModels(trainFile: string, prefix?: string): CharModel[] {
  return [0, 1].map((fold) => {
    const file = prefix === undefined ? undefined : `${prefix}chars${fold}.bin`;
    if (file !== undefined && existsSync(file)) return new CharModel(decodeCharModel(readFileSync(file)));
    const data = trainChars(readBenchSet(trainFile).filter((snippet) => foldOf(packageOf(snippet)) === fold));
    if (file !== undefined) writeFileSync(file, encodeCharModel(data));
    return new CharModel(data);
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [input, output] = process.argv.slice(2);
  if (!input || !output) throw new Error('usage: trainChars.ts TRAIN.json MODEL.bin [--fold 0|1]');
  const foldAt = process.argv.indexOf('--fold');
  const fold = foldAt === -1 ? undefined : Number(process.argv[foldAt + 1]);
  const snippets = readBenchSet(input).filter((snippet) => fold === undefined || foldOf(packageOf(snippet)) === fold);
  const started = performance.now();
  // --residual PREFIX: on top of the token model of the other half (PREFIX0.json, PREFIX1.json, as outOfFold.ts writes them).
  const residualAt = process.argv.indexOf('--residual');
  let offsets: ((text: string) => Float64Array) | undefined;
  if (residualAt !== -1) {
    if (fold === undefined) throw new Error('--residual needs --fold: each half on top of the token model of the other');
    const tokens = new TokenModel(JSON.parse(readFileSync(`${process.argv[residualAt + 1]!}${1 - fold}.json`, 'utf8')) as TokenModelData);
    offsets = combinationScores(tokens, [...new Set(snippets.map((snippet) => snippet.language))].sort());
  }
  const model = trainChars(snippets, offsets);
  writeFileSync(output, encodeCharModel(model));
  console.log(`${model.languages.length} languages, 2^${model.bits} buckets, ${(readFileSync(output).length / 1e6).toFixed(2)} MB, ${((performance.now() - started) / 1000).toFixed(0)} s`);
}
