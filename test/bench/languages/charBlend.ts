/**
 * Whether the character model (charModel.ts) helps the shipped classifier, on the tuning packages
 * out of fold: each half of the packages is scored by a token model and a character model both
 * trained on the other half. Prints the character model alone, how far it could help (where it is
 * right and the token model wrong, and the reverse), then, for each weight, the shipped
 * combination (combination.ts: weights, biases, corrections) with the character model's log-scores
 * added at that weight, without guesslang and with guesslang asked where the result is below
 * decision.ts's `sureWithoutModel` (as tune.ts scores; weight 0 is tune.ts's figure).
 *
 *   node --experimental-strip-types test/bench/languages/charBlend.ts TRAIN.json TUNE.json TUNE.guesslang.json TOKEN-FOLDS-PREFIX CHAR-FOLDS-PREFIX [0,0.25,0.5] [--retune]
 *
 * With `--retune`, the biases are also retuned at each weight as tune.ts does (from the shipped
 * ones, steps up and down a language at a time, kept where all + short gains), since a second
 * model shifts how sure each language comes out.
 *
 * The fold models are read from TOKEN-FOLDS-PREFIX0.json and CHAR-FOLDS-PREFIXchars0.bin (and 1)
 * when there, and trained and written there when not (train.ts, trainChars.ts with its CHAR_*
 * settings).
 */
import { readFileSync } from 'node:fs';
import { combine, tunedCombination, type Combination, type ModelGuess } from '../../../src/core/classify/combination.ts';
import { correctedBySyntax } from '../../../src/core/classify/corrections.ts';
import { sureWithoutModel } from '../../../src/core/classify/decision.ts';
import type { TokenScores } from '../../../src/core/classify/tokenModel.ts';
import { readBenchSet, type BenchSnippet } from './benchSet.ts';
import type { CharScores } from './charModel.ts';
import { foldModels, foldOf, packageOf } from './train.ts';
import { foldCharModels } from './trainChars.ts';

const [trainFile, tuneFile, guesslangFile, tokenPrefix, charPrefix, weightList = '0,0.1,0.2,0.3,0.5,0.75,1,1.5,2'] = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
if (!trainFile || !tuneFile || !guesslangFile || !tokenPrefix || !charPrefix) {
  throw new Error('usage: charBlend.ts TRAIN.json TUNE.json TUNE.guesslang.json TOKEN-FOLDS-PREFIX CHAR-FOLDS-PREFIX [WEIGHTS]');
}

interface Case {
  readonly snippet: BenchSnippet;
  readonly guesses: readonly ModelGuess[];
  readonly tokens: TokenScores;
  readonly chars: CharScores;
}

const tokenFolds = foldModels(trainFile, tokenPrefix);
const charFolds = foldCharModels(trainFile, charPrefix);
const guesslang = JSON.parse(readFileSync(guesslangFile, 'utf8')) as ModelGuess[][];
const started = performance.now();
const cases: Case[] = readBenchSet(tuneFile).map((snippet, i) => {
  const other = 1 - foldOf(packageOf(snippet));
  return { snippet, guesses: guesslang[i]!, tokens: tokenFolds[other]!.score(snippet.text), chars: charFolds[other]!.score(snippet.text) };
});
const charMs = (() => {
  const times = cases.map(({ snippet }) => {
    const at = performance.now();
    charFolds[0]!.score(snippet.text);
    return performance.now() - at;
  });
  times.sort((a, b) => a - b);
  return `mean ${(times.reduce((a, b) => a + b, 0) / times.length).toFixed(3)} ms, p95 ${times[Math.floor(times.length * 0.95)]!.toFixed(3)} ms`;
})();

/** The token model's log-likelihoods with the character model's log-scores added: combine() divides by its temperature, so they count `weight` times. */
function blended({ tokens, chars }: Case, weight: number): TokenScores {
  if (weight === 0) return tokens;
  const lowest = Math.min(...chars.logits);
  const logLikelihoods = Float64Array.from(tokens.logLikelihoods, (value, i) => {
    const at = chars.languages.indexOf(tokens.languages[i]!);
    return value + tunedCombination.temperature * weight * (at === -1 ? lowest : chars.logits[at]!);
  });
  return { ...tokens, logLikelihoods };
}

const charTop = ({ chars }: Case): string => chars.languages[chars.logits.indexOf(Math.max(...chars.logits))]!;
const short = cases.filter((c) => c.snippet.size === 'short');
const medium = cases.filter((c) => c.snippet.size === 'medium');
const share = (list: readonly Case[], right: (c: Case) => boolean): string => ((100 * list.filter(right).length) / Math.max(1, list.length)).toFixed(1);
const charRight = (c: Case): boolean => charTop(c) === c.snippet.language;
console.log(`${cases.length} tuning snippets, out of fold (${((performance.now() - started) / cases.length).toFixed(2)} ms each for both models; the character model alone ${charMs})`);
console.log(`character model alone: all ${share(cases, charRight)}, short ${share(short, charRight)}, medium ${share(medium, charRight)}`);
const tokenRight = (c: Case): boolean => correctedBySyntax(c.snippet.text, combine(c.tokens, [], tunedCombination).specific) === c.snippet.language;
console.log(
  `short: the token model (shipped combination, no guesslang) is wrong on ${short.filter((c) => !tokenRight(c)).length}; the character model is right on ${short.filter((c) => !tokenRight(c) && charRight(c)).length} of them, and wrong on ${short.filter((c) => tokenRight(c) && !charRight(c)).length} the token model gets right`,
);
const misses = new Map<string, number>();
for (const c of short) if (!charRight(c)) misses.set(`${c.snippet.language}→${charTop(c)}`, (misses.get(`${c.snippet.language}→${charTop(c)}`) ?? 0) + 1);
console.log(`short, character model alone, mistakes: ${[...misses].sort((a, b) => b[1] - a[1]).slice(0, 15).map(([pair, count]) => `${pair} ${count}`).join(', ')}`);
console.log('| character model weight | without guesslang: all / short | guesslang below the gate: all / short | guesslang asked |');
console.log('|---:|---:|---:|---:|');

function score(weight: number, weights: Combination): { alone: Map<Case, boolean>; gated: Map<Case, boolean>; asked: number } {
  let asked = 0;
  const alone = new Map<Case, boolean>();
  const gated = new Map<Case, boolean>();
  for (const c of cases) {
    const scores = blended(c, weight);
    const first = combine(scores, [], weights);
    alone.set(c, correctedBySyntax(c.snippet.text, first.specific) === c.snippet.language);
    const stands = first.confidence >= sureWithoutModel;
    asked += stands ? 0 : 1;
    gated.set(c, correctedBySyntax(c.snippet.text, (stands ? first : combine(scores, c.guesses, weights)).specific) === c.snippet.language);
  }
  return { alone, gated, asked };
}

/** tune.ts's objective and steps: all + short with guesslang below the gate. */
function retuned(weight: number): Combination {
  const objective = (weights: Combination): number => {
    const { gated } = score(weight, weights);
    return cases.filter((c) => gated.get(c)).length / cases.length + short.filter((c) => gated.get(c)).length / short.length;
  };
  let bias: Record<string, number> = { ...tunedCombination.bias };
  let current = objective(tunedCombination);
  for (let pass = 0; pass < 2; pass++) {
    for (const language of cases[0]!.tokens.languages) {
      for (const step of [-1, -0.5, 0.5, 1]) {
        const trial = { ...bias, [language]: Number(((bias[language] ?? 0) + step).toFixed(2)) };
        const value = objective({ ...tunedCombination, bias: trial });
        if (value > current + 1e-9) {
          current = value;
          bias = trial;
        }
      }
    }
  }
  return { ...tunedCombination, bias };
}

for (const weight of weightList.split(',').map(Number)) {
  const weights = process.argv.includes('--retune') ? retuned(weight) : tunedCombination;
  const { alone, gated, asked } = score(weight, weights);
  console.log(`| ${weight}${weights === tunedCombination ? '' : ', biases retuned'} | ${share(cases, (c) => alone.get(c)!)} / ${share(short, (c) => alone.get(c)!)} | ${share(cases, (c) => gated.get(c)!)} / ${share(short, (c) => gated.get(c)!)} | ${asked} |`);
}
