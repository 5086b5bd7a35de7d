/**
 * The token model's discriminative half (tokenModel.ts `weights`): a multinomial logistic
 * regression over the same tokens the naive Bayes half counts, trained by stochastic gradient
 * descent with averaged weights. Naive Bayes counts every token as if the others were not there;
 * the regression learns which tokens tell two close languages apart (C from C++, TypeScript from
 * JavaScript). It also trains on short windows cut from the longer snippets, since a 4-line
 * snippet has far fewer tokens than a 30-line one. Added to naive Bayes's log-likelihoods, on
 * tuning packages out of fold it took the token model from 81.6% to 84.4% (short 80.6% to 83.4%);
 * test/bench/languages/train.ts calls it, docs/languages.md has the held-out figures.
 */
import { tokensOf } from '../../../src/core/classify/tokenModel.ts';
import type { BenchSnippet } from './benchSet.ts';
import { lcg, shuffle } from './seeded.ts';
import { dedented, usableLines } from './windows.ts';

/**
 * Passes over the examples: 8 rather than 5 gave +0.2 points, +0.3 on short snippets, out of fold (tune.ts).
 * EPOCHS overrides it for experiments (docs/languages.md has the passes tried).
 */
const epochs = process.env['EPOCHS'] === undefined ? 8 : Number(process.env['EPOCHS']);
/** The shuffle's seed; SHUFFLE_SEED changes it, to see how much a figure moves with the order alone (SEEDS: below). */
const shuffleSeed = process.env['SHUFFLE_SEED'] === undefined ? 7 : Number(process.env['SHUFFLE_SEED']);
const rate = 0.2;
/** The weights are stored in tenths; smaller ones are dropped, which keeps the JSON compact. */
export const weightScale = 10;

/** Two short windows (4–12 lines) of each longer snippet, next to the snippet itself. */
export function withShortWindows(snippets: readonly BenchSnippet[]): BenchSnippet[] {
  const random = lcg(99);
  const windows: BenchSnippet[] = [];
  for (const snippet of snippets) {
    const lines = snippet.text.split('\n');
    if (lines.length < 15) continue;
    for (let k = 0; k < 2; k++) {
      const length = 4 + Math.floor(random() * 9);
      const start = Math.floor(random() * (lines.length - length));
      windows.push({ ...snippet, size: 'short', text: `${lines.slice(start, start + length).join('\n')}\n` });
    }
  }
  return [...snippets, ...windows, ...lineWindows(snippets)];
}

/**
 * One window of one to three whole lines of each snippet (windows.ts's usableLines, up to 20 tries),
 * what people save as one-liners; from a generator of their own, so the short windows above are
 * drawn as without it. Out of fold, mean of three shuffle orders: one to three lines 72.0% -> 74.1%,
 * 4-12 lines 90.8 -> 90.9, 15-40 lines 95.3 -> 95.0 (docs/languages.md, "One to three lines");
 * LINE_WINDOWS=N cuts N (0: the model before).
 */
const lineWindowsEach = Number(process.env['LINE_WINDOWS'] ?? 1);

function lineWindows(snippets: readonly BenchSnippet[]): BenchSnippet[] {
  const random = lcg(199);
  const windows: BenchSnippet[] = [];
  for (const snippet of snippets) {
    const lines = snippet.text.replace(/\n$/, '').split('\n');
    for (let k = 0; k < lineWindowsEach; k++) {
      for (let tries = 0; tries < 20; tries++) {
        const length = 1 + Math.floor(random() * 3);
        if (lines.length < length) break;
        const start = Math.floor(random() * (lines.length - length + 1));
        const window = lines.slice(start, start + length);
        if (!usableLines(window)) continue;
        windows.push({ ...snippet, size: 'line', text: `${dedented(window).join('\n')}\n` });
        break;
      }
    }
  }
  return windows;
}

export interface TrainedWeights {
  /** For each token of `vocabulary`, `language:weight` pairs in tenths, the zero ones left out. */
  readonly weights: readonly string[];
  /** A language's intercept, in tenths. */
  readonly intercepts: readonly number[];
}

/**
 * SEEDS=7,8,9 trains one regression a shuffle order and averages them: the scores are linear in the
 * weights, so the average is the mean of the orders' scores, at no cost when classifying.
 */
const seeds = process.env['SEEDS'] === undefined ? [shuffleSeed] : process.env['SEEDS'].split(',').map(Number);

/**
 * `featuresOf`: what a snippet is read into (the token model's tokens; a pair specialist may read
 * more, pairModel.ts); `scale`: the weights are stored as integers of 1/scale.
 */
export function trainWeights(
  snippets: readonly BenchSnippet[],
  languages: readonly string[],
  vocabulary: readonly string[],
  featuresOf: (text: string) => Iterable<string> = tokensOf,
  scale = weightScale,
): TrainedWeights {
  const index = new Map(vocabulary.map((token, i) => [token, i]));
  const count = languages.length;
  const examples = withShortWindows(snippets).map((snippet) => ({
    features: Int32Array.from([...featuresOf(snippet.text)].flatMap((token) => index.get(token) ?? [])),
    language: languages.indexOf(snippet.language),
  }));
  const meanWeights = new Float64Array(vocabulary.length * count);
  const meanIntercepts = new Float64Array(count);
  for (const seed of seeds) {
    const run = trainOrder(examples, count, vocabulary.length, seed);
    for (let i = 0; i < meanWeights.length; i++) meanWeights[i]! += run.weights[i]! / seeds.length;
    for (let i = 0; i < count; i++) meanIntercepts[i]! += run.intercepts[i]! / seeds.length;
  }
  return {
    weights: vocabulary.map((_, token) => {
      const pairs: string[] = [];
      for (let l = 0; l < count; l++) {
        const weight = Math.round(meanWeights[token * count + l]! * scale);
        if (weight !== 0) pairs.push(`${l}:${weight}`);
      }
      return pairs.join(' ');
    }),
    intercepts: Array.from(meanIntercepts, (value) => Math.round(value * scale)),
  };
}

interface Example {
  readonly features: Int32Array;
  readonly language: number;
}

/** One averaged-SGD run over the examples in the order `seed` shuffles them; the averaged weights, unrounded. */
function trainOrder(examples: readonly Example[], count: number, tokens: number, seed: number): { weights: Float64Array; intercepts: Float64Array } {
  const weights = new Float64Array(tokens * count);
  const intercepts = new Float64Array(count);
  // Sums of step × update, from which the average over all steps follows (averaged SGD).
  const weightSums = new Float64Array(weights.length);
  const interceptSums = new Float64Array(count);
  const random = lcg(seed);
  const order = examples.map((_, i) => i);
  const scores = new Float64Array(count);
  let step = 0;
  for (let epoch = 0; epoch < epochs; epoch++) {
    shuffle(order, random);
    const learningRate = rate / (1 + epoch);
    for (const at of order) {
      const { features, language } = examples[at]!;
      scores.set(intercepts);
      for (const feature of features) for (let l = 0; l < count; l++) scores[l]! += weights[feature * count + l]!;
      const top = Math.max(...scores);
      let total = 0;
      for (let l = 0; l < count; l++) total += (scores[l] = Math.exp(scores[l]! - top));
      for (let l = 0; l < count; l++) {
        const gradient = scores[l]! / total - (l === language ? 1 : 0);
        if (Math.abs(gradient) < 1e-4) continue;
        const change = learningRate * gradient;
        intercepts[l]! -= change;
        interceptSums[l]! -= change * step;
        for (const feature of features) {
          weights[feature * count + l]! -= change;
          weightSums[feature * count + l]! -= change * step;
        }
      }
      step++;
    }
  }
  for (let i = 0; i < weights.length; i++) weights[i] = weights[i]! - weightSums[i]! / step;
  for (let i = 0; i < count; i++) intercepts[i] = intercepts[i]! - interceptSums[i]! / step;
  return { weights, intercepts };
}
