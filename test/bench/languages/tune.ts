/**
 * Chooses how the token model and guesslang are combined (decision.ts's weights), on the tuning
 * packages only: each half of them is scored by a token model trained on the other half, so the
 * weights are chosen on code neither model was trained on. Then prints the chosen weights' figure
 * on the held-out set with the shipped token model.
 *
 *   node --experimental-strip-types test/bench/languages/tune.ts TRAIN.json TUNE.json TUNE.model.json HELDOUT.model.json
 * (TUNE.model.json and HELDOUT.model.json: modelOutputs.ts on TUNE.json and heldout.json.)
 */
import { readFileSync } from 'node:fs';
import { combine, type Combination } from '../../../src/core/classify/combination.ts';
import type { ModelGuess } from '../../../src/core/classify/combination.ts';
import { TokenModel } from '../../../src/core/classify/tokenModel.ts';
import { readBenchSet, type BenchSnippet } from './benchSet.ts';
import { foldOf, packageOf, train } from './train.ts';
import shipped from '../../../src/core/classify/tokenModel.json' with { type: 'json' };

const [trainFile, tuneFile, tuneModelFile, heldOutModelFile] = process.argv.slice(2);
if (!trainFile || !tuneFile || !tuneModelFile || !heldOutModelFile) throw new Error('usage: tune.ts TRAIN.json TUNE.json TUNE.model.json HELDOUT.model.json');
const trainSet = readBenchSet(trainFile);
const folds = [0, 1].map((fold) => new TokenModel(train(trainSet.filter((snippet) => foldOf(packageOf(snippet)) === fold))));

interface Case {
  readonly snippet: BenchSnippet;
  readonly guesses: readonly ModelGuess[];
  readonly tokens: TokenModel;
}

function accuracy(cases: readonly Case[], weights: Combination): { all: number; short: number } {
  let right = 0;
  let short = 0;
  let shortAll = 0;
  for (const { snippet, guesses, tokens } of cases) {
    const ok = combine(tokens.score(snippet.text), guesses, weights).specific === snippet.language ? 1 : 0;
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
const tuneCases: Case[] = readBenchSet(tuneFile).map((snippet, i) => ({ snippet, guesses: tuneOutputs[i]!, tokens: folds[1 - foldOf(packageOf(snippet))]! }));
let best: { weights: Combination; score: { all: number; short: number } } | undefined;
for (const temperature of [1, 2, 3, 4, 6, 8, 12]) {
  for (const modelWeight of [0, 0.25, 0.5, 1, 1.5, 2, 3]) {
    for (const foreignConfidence of [0.5, 0.7, 0.9, 1.01]) {
      const weights: Combination = { temperature, modelWeight, foreignConfidence };
      const score = accuracy(tuneCases, weights);
      if (best === undefined || score.all + score.short > best.score.all + best.score.short) best = { weights, score };
    }
  }
}
console.log(`tuning set (out of fold): best ${JSON.stringify(best!.weights)} → ${(100 * best!.score.all).toFixed(1)}%, short ${(100 * best!.score.short).toFixed(1)}%`);
const heldOutputs = JSON.parse(readFileSync(heldOutModelFile, 'utf8')) as ModelGuess[][];
const shippedModel = new TokenModel(shipped as ConstructorParameters<typeof TokenModel>[0]);
const heldCases: Case[] = readBenchSet().map((snippet, i) => ({ snippet, guesses: heldOutputs[i]!, tokens: shippedModel }));
const held = accuracy(heldCases, best!.weights);
console.log(`held-out with these weights: ${(100 * held.all).toFixed(1)}%, short ${(100 * held.short).toFixed(1)}%`);
const tokensOnly = accuracy(heldCases, { ...best!.weights, modelWeight: 0 });
console.log(`held-out, token model alone: ${(100 * tokensOnly.all).toFixed(1)}%, short ${(100 * tokensOnly.short).toFixed(1)}%`);
