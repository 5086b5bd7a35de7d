/**
 * Chooses how the token model and guesslang are combined (decision.ts's weights), on the tuning
 * packages only: each half of them is scored by a token model trained on the other half, so the
 * weights are chosen on code neither model was trained on. The biases start from the shipped ones
 * (combination.ts) and move only where the tuning snippets gain; they are scored with guesslang asked
 * below decision.ts's `sureWithoutModel`, as LanguageClassifier does, and with the syntax
 * corrections. Then prints how the gate trades guesslang's calls for accuracy, and the chosen
 * weights' figure on the held-out set with the shipped token model.
 *
 *   node --experimental-strip-types test/bench/languages/tune.ts TRAIN.json TUNE.json TUNE.model.json HELDOUT.model.json [FOLD-MODELS-PREFIX]
 * (TUNE.model.json and HELDOUT.model.json: modelOutputs.ts on TUNE.json and heldout.json; the prefix
 * reuses the fold models outOfFold.ts wrote.)
 */
import { readFileSync } from 'node:fs';
import { combine, tunedCombination, type Combination } from '../../../src/core/classify/combination.ts';
import type { ModelGuess } from '../../../src/core/classify/combination.ts';
import { NeuralModel, type NeuralScores } from './neuralModel.ts';
import { TokenModel, type TokenScores } from '../../../src/core/classify/tokenModel.ts';
import { readBenchSet, type BenchSnippet } from './benchSet.ts';
import { sureWithoutModel } from '../../../src/core/classify/decision.ts';
import { foldModels, foldOf, packageOf } from './train.ts';
import { correctedBySyntax } from '../../../src/core/classify/corrections.ts';
import shipped from '../../../src/core/classify/tokenModel.json' with { type: 'json' };

const [trainFile, tuneFile, tuneModelFile, heldOutModelFile, prefix] = process.argv.slice(2);
if (!trainFile || !tuneFile || !tuneModelFile || !heldOutModelFile) throw new Error('usage: tune.ts TRAIN.json TUNE.json TUNE.model.json HELDOUT.model.json [FOLD-MODELS-PREFIX]');
const folds = foldModels(trainFile, prefix);
/** NEURAL=PREFIX: the neural fold models trainNeural.ts wrote, whose weight is then chosen here too. */
const neuralPrefix = process.env['NEURAL'];
const neuralFolds = [0, 1].map((fold) => (neuralPrefix === undefined ? undefined : new NeuralModel(readFileSync(`${neuralPrefix}${fold}.bin`))));
const extraWeights = neuralPrefix === undefined ? [0] : [0, 0.5, 1, 1.5, 2, 3, 4];

interface Case {
  readonly snippet: BenchSnippet;
  readonly guesses: readonly ModelGuess[];
  readonly scores: TokenScores;
  readonly neural?: NeuralScores;
}

function accuracy(cases: readonly Case[], weights: Combination): { all: number; short: number } {
  let right = 0;
  let short = 0;
  let shortAll = 0;
  for (const { snippet, guesses, scores, neural } of cases) {
    // As LanguageClassifier does: guesslang only where the token model alone is unsure.
    const alone = combine(scores, [], weights, neural);
    const ok = correctedBySyntax(snippet.text, (alone.confidence >= sureWithoutModel ? alone : combine(scores, guesses, weights, neural)).specific) === snippet.language ? 1 : 0;
    right += ok;
    if (snippet.size === 'short') {
      short += ok;
      shortAll++;
    }
  }
  return { all: right / cases.length, short: short / shortAll };
}

const tuneOutputs = JSON.parse(readFileSync(tuneModelFile, 'utf8')) as ModelGuess[][];
// Each tuning snippet is scored by the token model of the other half of the packages.
const tuneCases: Case[] = readBenchSet(tuneFile).map((snippet, i) => {
  const other = 1 - foldOf(packageOf(snippet));
  return { snippet, guesses: tuneOutputs[i]!, scores: folds[other]!.score(snippet.text), neural: neuralFolds[other]?.score(snippet.text) };
});
let best: { weights: Combination; score: { all: number; short: number } } | undefined;
// Temperature 4 only: the regression's weight (tokenModel.ts) and the gate above which guesslang is not asked assume it.
for (const temperature of [4]) {
  for (const modelWeight of [0, 0.5, 1, 1.5, 2, 3, 4, 6]) {
    for (const foreignConfidence of [0.5, 0.7, 0.9, 1.01]) for (const floor of [1e-4, 1e-3, 1e-2, 3e-2]) for (const extraWeight of extraWeights) {
      const weights: Combination = { temperature, modelWeight, foreignConfidence, floor, extraWeight };
      const score = accuracy(tuneCases, weights);
      if (best === undefined || score.all + score.short > best.score.all + best.score.short) best = { weights, score };
    }
  }
}
// Then a bias a language, by coordinate ascent: a few passes, each trying small steps up and down.
const objective = (weights: Combination): number => {
  const score = accuracy(tuneCases, weights);
  return score.all + score.short;
};
// Warm: from the shipped biases, so a retune moves them only where it gains.
let bias: Record<string, number> = { ...tunedCombination.bias };
// With the neural model, its weight again with the shipped biases (the grid above has none).
if (neuralPrefix !== undefined) {
  let top = -1;
  for (const extraWeight of [...extraWeights, 0.75, 1.25, 1.75, 2.5]) {
    const value = objective({ ...best!.weights, extraWeight, bias });
    if (value > top) {
      top = value;
      best = { ...best!, weights: { ...best!.weights, extraWeight } };
    }
  }
}
let current = objective({ ...best!.weights, bias });
for (let pass = 0; pass < 3; pass++) {
  for (const language of new Set(tuneCases.map((c) => c.scores.languages).flat())) {
    for (const step of [-1, -0.5, -0.25, 0.25, 0.5, 1]) {
      const trial = { ...bias, [language]: Number(((bias[language] ?? 0) + step).toFixed(2)) };
      const value = objective({ ...best!.weights, bias: trial });
      if (value > current + 1e-9) {
        current = value;
        bias = trial;
      }
    }
  }
}
best = { weights: { ...best!.weights, bias }, score: accuracy(tuneCases, { ...best!.weights, bias }) };
console.log(`tuning set (out of fold): best ${JSON.stringify(best!.weights)} → ${(100 * best!.score.all).toFixed(1)}%, short ${(100 * best!.score.short).toFixed(1)}%`);
const tuneTokens = accuracy(tuneCases, { ...best!.weights, modelWeight: 0 });
console.log(`tuning set, token model alone: ${(100 * tuneTokens.all).toFixed(1)}%, short ${(100 * tuneTokens.short).toFixed(1)}%`);
const misses = new Map<string, number>();
for (const { snippet, guesses, scores, neural } of tuneCases) {
  const specific = correctedBySyntax(snippet.text, combine(scores, guesses, best!.weights, neural).specific);
  if (specific !== snippet.language) misses.set(`${snippet.language}→${specific}`, (misses.get(`${snippet.language}→${specific}`) ?? 0) + 1);
}
console.log(`tuning set mistakes: ${[...misses].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([pair, count]) => `${pair} ${count}`).join(', ')}`);
// How sure the token model alone must be for guesslang to be skipped (it costs 100 times more).
const gated = (cases: readonly Case[], sure: number): { all: number; short: number; skipped: number } => {
  let right = 0;
  let short = 0;
  let skipped = 0;
  for (const { snippet, guesses, scores, neural } of cases) {
    const alone = combine(scores, [], best!.weights, neural);
    const skip = alone.confidence >= sure;
    skipped += skip ? 1 : 0;
    const ok = correctedBySyntax(snippet.text, (skip ? alone : combine(scores, guesses, best!.weights, neural)).specific) === snippet.language ? 1 : 0;
    right += ok;
    short += snippet.size === 'short' ? ok : 0;
  }
  return { all: right / cases.length, short: short / cases.filter((c) => c.snippet.size === 'short').length, skipped: skipped / cases.length };
};
for (const sure of [0, 0.5, 0.6, 0.7, 0.8, 0.9, 0.97, 0.99, 0.995, 0.999, 1.01]) {
  const result = gated(tuneCases, sure);
  console.log(`skip guesslang at token confidence ≥ ${sure}: tuning ${(100 * result.all).toFixed(1)}%, short ${(100 * result.short).toFixed(1)}%, skipped ${(100 * result.skipped).toFixed(1)}%`);
}
// `-` in place of HELDOUT.model.json: the held-out set is not read (while choosing, it must not be).
if (heldOutModelFile === '-') process.exit(0);
const heldOutputs = JSON.parse(readFileSync(heldOutModelFile, 'utf8')) as ModelGuess[][];
const shippedModel = new TokenModel(shipped as ConstructorParameters<typeof TokenModel>[0]);
const heldCases: Case[] = readBenchSet().map((snippet, i) => ({ snippet, guesses: heldOutputs[i]!, scores: shippedModel.score(snippet.text) }));
const held = accuracy(heldCases, best!.weights);
console.log(`held-out with these weights: ${(100 * held.all).toFixed(1)}%, short ${(100 * held.short).toFixed(1)}%`);
const tokensOnly = accuracy(heldCases, { ...best!.weights, modelWeight: 0 });
console.log(`held-out, token model alone: ${(100 * tokensOnly.all).toFixed(1)}%, short ${(100 * tokensOnly.short).toFixed(1)}%`);
