/**
 * Trains the neural classifier (neuralModel.ts) on snippets cut from the tuning packages only,
 * never the held-out ones, with the same short windows cut from the longer snippets as the
 * regression (trainWeights.ts): the embeddings by row-wise Adagrad, the dense layers by SGD or
 * Adam, the rate falling linearly to zero (as fastText does), seeded, so the same snippets give the
 * same files on every run.
 *
 *   node --experimental-strip-types test/bench/languages/trainNeural.ts TRAIN.json PREFIX [TUNE.json] [--final OUT.bin]
 *
 * Writes the two fold models PREFIX0.bin and PREFIX1.bin (each trained on half the tuning packages,
 * by train.ts's `foldOf`; kept when already there), prints the neural model's own figures on
 * TUNE.json out of fold, and with `--final` trains on every tuning package and writes OUT.bin.
 * DIM, HIDDEN, BUCKETS (log2), CHARS, EPOCHS, RATE, ERATE and ADAM override the shape and training
 * (the defaults are the best variant out of fold; docs/languages.md, fifth pass, lists those tried).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { encodeNeuralModel, NeuralModel, neuralFeatures, type NeuralShape, type NeuralWeights } from './neuralModel.ts';
import { readBenchSet, type BenchSnippet } from './benchSet.ts';
import { tunedCombination } from '../../../src/core/classify/combination.ts';
import { foldModels, foldOf, packageOf } from './train.ts';
import { withShortWindows } from './trainWeights.ts';
import { generator } from './windows.ts';
import { shuffle } from './seeded.ts';

const setting = (name: string, fallback: number): number => (process.env[name] === undefined ? fallback : Number(process.env[name]));
const dim = setting('DIM', 32);
const hidden = setting('HIDDEN', 0);
const buckets = 2 ** setting('BUCKETS', 16);
const epochs = setting('EPOCHS', 5);
const charGrams = setting('CHARS', 0);
/** The dense layers' optimizer: Adam (ADAM=1, the hidden layer's default) or plain SGD (ADAM=0, the linear model's). */
const adam = setting('ADAM', hidden > 0 ? 1 : 0) === 1;
const rate = setting('RATE', adam ? 0.001 : 0.005);
/** The embeddings' step, scaled by each row's own running gradient (row-wise Adagrad): a rare token's row still learns. */
const embeddingRate = setting('ERATE', 0.1);

/**
 * BOOST=PREFIX: each example's score starts from the combination of the token model that did not
 * see its package (train.ts's fold models at PREFIX0.json and PREFIX1.json, out of fold), so the
 * neural model learns what to add to it rather than the language from scratch (docs/languages.md).
 */
function boostBase(snippets: readonly BenchSnippet[], languages: readonly string[], prefix: string, trainFile: string, cache: string): Float32Array {
  if (existsSync(cache)) {
    const bytes = readFileSync(cache);
    return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  }
  const tokenFolds = foldModels(trainFile, prefix);
  const all = withShortWindows(snippets);
  const base = new Float32Array(all.length * languages.length);
  all.forEach((snippet, i) => {
    const scores = tokenFolds[1 - foldOf(packageOf(snippet))]!.score(snippet.text);
    const at = new Map(scores.languages.map((language, l) => [language as string, scores.logLikelihoods[l]! / tunedCombination.temperature]));
    const least = Math.min(...at.values());
    languages.forEach((language, l) => (base[i * languages.length + l] = (at.get(language) ?? least) + (tunedCombination.bias?.[language] ?? 0)));
  });
  writeFileSync(cache, base);
  return base;
}

interface Examples {
  /** Every example's embedding rows, one after the other. */
  readonly features: Int32Array;
  /** Example i's rows are features[starts[i]..starts[i + 1]). */
  readonly starts: Int32Array;
  readonly labels: Int32Array;
  readonly folds: Int8Array;
  /** With BOOST, each example's starting scores (languages a row). */
  base?: Float32Array;
}

/** Reading 259,200 examples' tokens takes minutes on a loaded machine: kept in CACHE.bin for the next run. */
function cachedExamples(snippets: readonly BenchSnippet[], languages: readonly string[], cache: string): Examples {
  if (existsSync(cache)) {
    const bytes = readFileSync(cache);
    const ints = new Int32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
    const count = ints[0]!;
    const starts = ints.slice(1, count + 2);
    const labels = ints.slice(count + 2, 2 * count + 2);
    const folds = Int8Array.from(ints.subarray(2 * count + 2, 3 * count + 2));
    return { starts, labels, folds, features: ints.slice(3 * count + 2) };
  }
  const examples = examplesOf(snippets, languages);
  const count = examples.labels.length;
  const ints = new Int32Array(3 * count + 2 + examples.features.length);
  ints[0] = count;
  ints.set(examples.starts, 1);
  ints.set(examples.labels, count + 2);
  ints.set(examples.folds, 2 * count + 2);
  ints.set(examples.features, 3 * count + 2);
  writeFileSync(cache, ints);
  return examples;
}

function examplesOf(snippets: readonly BenchSnippet[], languages: readonly string[]): Examples {
  const all = withShortWindows(snippets);
  const rows: Int32Array[] = [];
  const starts = new Int32Array(all.length + 1);
  for (let i = 0; i < all.length; i++) {
    rows.push(neuralFeatures(all[i]!.text, buckets, charGrams));
    starts[i + 1] = starts[i]! + rows[i]!.length;
  }
  const features = new Int32Array(starts[all.length]!);
  rows.forEach((row, i) => features.set(row, starts[i]!));
  return {
    features,
    starts,
    labels: Int32Array.from(all, (snippet) => languages.indexOf(snippet.language)),
    folds: Int8Array.from(all, (snippet) => foldOf(packageOf(snippet))),
  };
}

/** Trains on the examples `use` keeps. */
export function trainNeural(examples: Examples, languages: readonly string[], use: (i: number) => boolean): NeuralWeights {
  const shape: NeuralShape = { languages, buckets, dim, hidden, charGrams };
  const count = languages.length;
  const width = hidden > 0 ? hidden : dim;
  const random = generator(31);
  const uniform = (size: number, bound: number): Float32Array => Float32Array.from({ length: size }, () => (2 * random() - 1) * bound);
  const embeddings = uniform(buckets * dim, setting('INIT', 0.5));
  const w1 = uniform(hidden * dim, Math.sqrt(6 / (dim + hidden)));
  const b1 = new Float32Array(hidden);
  const w2 = uniform(count * width, Math.sqrt(6 / (width + count)));
  const b2 = new Float32Array(count);
  const order = Array.from({ length: examples.labels.length }, (_, i) => i).filter(use);
  const total = epochs * order.length;
  const mean = new Float64Array(dim);
  const pre = new Float64Array(hidden);
  const input = new Float64Array(width);
  const out = new Float64Array(count);
  const gradInput = new Float64Array(width);
  const gradMean = new Float64Array(dim);
  const squares = new Float32Array(buckets);
  // Adam's moments for the dense layers (a few thousand numbers; SGD left the hidden layer behind).
  const moments = [w1, b1, w2, b2].map((part) => ({ first: new Float32Array(part.length), second: new Float32Array(part.length) }));
  let firstCorrection = 1;
  let secondCorrection = 1;
  let learningRate = rate;
  const update = (part: number, values: Float32Array, i: number, gradient: number): void => {
    if (!adam) {
      values[i]! -= learningRate * gradient;
      return;
    }
    const moment = moments[part]!;
    moment.first[i] = 0.9 * moment.first[i]! + 0.1 * gradient;
    moment.second[i] = 0.999 * moment.second[i]! + 0.001 * gradient * gradient;
    values[i]! -= (learningRate * (moment.first[i]! / firstCorrection)) / (Math.sqrt(moment.second[i]! / secondCorrection) + 1e-8);
  };
  let step = 0;
  for (let epoch = 0; epoch < epochs; epoch++) {
    shuffle(order, random);
    for (const at of order) {
      learningRate = rate * (1 - step++ / total);
      firstCorrection = 1 - 0.9 ** Math.min(step, 1000);
      secondCorrection = 1 - 0.999 ** Math.min(step, 100_000);
      const from = examples.starts[at]!;
      const to = examples.starts[at + 1]!;
      const n = to - from;
      if (n === 0) continue;
      mean.fill(0);
      for (let k = from; k < to; k++) {
        const row = examples.features[k]! * dim;
        for (let d = 0; d < dim; d++) mean[d]! += embeddings[row + d]!;
      }
      const root = Math.sqrt(n);
      for (let d = 0; d < dim; d++) mean[d]! /= root;
      if (hidden > 0) {
        for (let h = 0; h < hidden; h++) {
          let sum = b1[h]!;
          for (let d = 0; d < dim; d++) sum += w1[h * dim + d]! * mean[d]!;
          pre[h] = sum;
          input[h] = sum > 0 ? sum : 0;
        }
      } else input.set(mean);
      let top = -Infinity;
      for (let l = 0; l < count; l++) {
        let sum = b2[l]! + (examples.base?.[at * count + l] ?? 0);
        for (let k = 0; k < width; k++) sum += w2[l * width + k]! * input[k]!;
        out[l] = sum;
        if (sum > top) top = sum;
      }
      let norm = 0;
      for (let l = 0; l < count; l++) norm += (out[l] = Math.exp(out[l]! - top));
      gradInput.fill(0);
      const label = examples.labels[at]!;
      for (let l = 0; l < count; l++) {
        const gradient = out[l]! / norm - (l === label ? 1 : 0);
        for (let k = 0; k < width; k++) {
          gradInput[k]! += w2[l * width + k]! * gradient;
          update(2, w2, l * width + k, gradient * input[k]!);
        }
        update(3, b2, l, gradient);
      }
      if (hidden > 0) {
        gradMean.fill(0);
        for (let h = 0; h < hidden; h++) {
          if (pre[h]! <= 0) continue;
          const gradient = gradInput[h]!;
          for (let d = 0; d < dim; d++) {
            gradMean[d]! += w1[h * dim + d]! * gradient;
            update(0, w1, h * dim + d, gradient * mean[d]!);
          }
          update(1, b1, h, gradient);
        }
      } else gradMean.set(gradInput);
      let square = 0;
      for (let d = 0; d < dim; d++) square += (gradMean[d]! / root) ** 2;
      square /= dim;
      for (let k = from; k < to; k++) {
        const bucket = examples.features[k]!;
        squares[bucket]! += square;
        const change = embeddingRate / (Math.sqrt(squares[bucket]!) + 1e-6) / root;
        const row = bucket * dim;
        for (let d = 0; d < dim; d++) embeddings[row + d]! -= change * gradMean[d]!;
      }
    }
  }
  return { shape, embeddings, w1, b1, w2, b2 };
}

function trainFile(examples: Examples, languages: readonly string[], file: string, use: (i: number) => boolean): NeuralModel {
  if (!existsSync(file)) {
    const started = performance.now();
    writeFileSync(file, encodeNeuralModel(trainNeural(examples, languages, use)));
    console.log(`${file}: trained in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
  return new NeuralModel(readFileSync(file));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const finalAt = args.indexOf('--final');
  const finalFile = finalAt === -1 ? undefined : args[finalAt + 1];
  const [input, prefix, tuneFile] = args.filter((_, i) => finalAt === -1 || (i !== finalAt && i !== finalAt + 1));
  if (!input || !prefix) throw new Error('usage: trainNeural.ts TRAIN.json PREFIX [TUNE.json] [--final OUT.bin]');
  const snippets = readBenchSet(input);
  const languages = [...new Set(snippets.map((snippet) => snippet.language))].sort();
  const started = performance.now();
  const examples = cachedExamples(snippets, languages, `${input}.neural${Math.log2(buckets)}${charGrams > 0 ? `c${charGrams}` : ''}.bin`);
  console.log(`${examples.labels.length} examples, ${examples.features.length} rows read in ${((performance.now() - started) / 1000).toFixed(0)} s; dim ${dim}, hidden ${hidden}, buckets ${buckets}, character ${charGrams}-grams, ${epochs} epochs, rate ${rate}`);
  const boost = process.env['BOOST'];
  if (boost !== undefined) examples.base = boostBase(snippets, languages, boost, input, `${input}.boost.bin`);
  const folds = [0, 1].map((fold) => trainFile(examples, languages, `${prefix}${fold}.bin`, (i) => examples.folds[i] === fold));
  if (tuneFile !== undefined) {
    const tune = readBenchSet(tuneFile);
    let right = 0;
    let shortRight = 0;
    const perLanguage = new Map<string, [number, number]>();
    for (const snippet of tune) {
      const model = folds[1 - foldOf(packageOf(snippet))]!;
      const scores = model.score(snippet.text).logProbabilities;
      let best = 0;
      for (let l = 1; l < scores.length; l++) if (scores[l]! > scores[best]!) best = l;
      const ok = model.languages[best] === snippet.language ? 1 : 0;
      right += ok;
      if (snippet.size === 'short') shortRight += ok;
      const entry = perLanguage.get(snippet.language) ?? [0, 0];
      perLanguage.set(snippet.language, [entry[0] + ok, entry[1] + 1]);
    }
    const shortCount = tune.filter((snippet) => snippet.size === 'short').length;
    console.log(`neural model alone, out of fold: all ${((100 * right) / tune.length).toFixed(1)}, short ${((100 * shortRight) / shortCount).toFixed(1)}`);
    console.log([...perLanguage].map(([language, [ok, all]]) => `${language} ${((100 * ok) / all).toFixed(0)}`).join(', '));
  }
  if (finalFile !== undefined) trainFile(examples, languages, finalFile, () => true);
}
