/**
 * Whether short snippets want biases of their own (issue 31 §3, a seventh-pass experiment): a
 * second set of per-language offsets, added to the shipped biases for texts of at most 12 lines,
 * chosen on one half of the tuning packages' short windows and scored on the other half's (and the
 * other way round), so the figure is out of sample for the offsets as well as for the token model.
 * Each tuning snippet is scored by the fold token model that did not see its package, as in tune.ts.
 * The held-out sets are not read.
 *
 *   node --experimental-strip-types test/bench/languages/shortBias.ts TUNE.json TUNE.guesslang.json PREFIX [PREFIX…]
 * (PREFIX: fold models PREFIX0.json and PREFIX1.json, as outOfFold.ts writes them; one per seed.)
 */
import { readFileSync } from 'node:fs';
import { combine, tunedCombination, type Combination, type ModelGuess } from '../../../src/core/classify/combination.ts';
import { TokenModel, type TokenModelData, type TokenScores } from '../../../src/core/classify/tokenModel.ts';
import { sureWithoutModel } from '../../../src/core/classify/decision.ts';
import { correctedBySyntax } from '../../../src/core/classify/corrections.ts';
import { readBenchSet, type BenchSnippet } from './benchSet.ts';
import { foldOf, packageOf } from './train.ts';

const [tuneFile, guessFile, ...prefixes] = process.argv.slice(2);
if (!tuneFile || !guessFile || prefixes.length === 0) throw new Error('usage: shortBias.ts TUNE.json TUNE.guesslang.json PREFIX [PREFIX…]');

interface Case {
  readonly snippet: BenchSnippet;
  readonly guesses: readonly ModelGuess[];
  readonly scores: TokenScores;
}

const STEPS = [-1, -0.5, -0.25, 0.25, 0.5, 1];

/** As LanguageClassifier decides: guesslang only where the token model alone is unsure; then the corrections. */
function right(c: Case, weights: Combination): boolean {
  const alone = combine(c.scores, [], weights);
  const chosen = alone.confidence >= sureWithoutModel ? alone : combine(c.scores, c.guesses, weights);
  return correctedBySyntax(c.snippet.text, chosen.specific) === c.snippet.language;
}

const withOffsets = (offsets: Readonly<Record<string, number>>): Combination => ({
  ...tunedCombination,
  bias: Object.fromEntries(Object.entries(tunedCombination.bias ?? {}).map(([language, bias]) => [language, bias + (offsets[language] ?? 0)])),
});

const share = (cases: readonly Case[], weights: Combination): number => cases.filter((c) => right(c, weights)).length / cases.length;

/** Coordinate ascent on the offsets from zero, three passes, as tune.ts moves its biases. */
function chooseOffsets(cases: readonly Case[], languages: readonly string[]): Record<string, number> {
  let offsets: Record<string, number> = {};
  let current = share(cases, withOffsets(offsets));
  for (let pass = 0; pass < 3; pass++) {
    for (const language of languages) {
      for (const step of STEPS) {
        const trial = { ...offsets, [language]: (offsets[language] ?? 0) + step };
        const value = share(cases, withOffsets(trial));
        if (value > current + 1e-9) {
          current = value;
          offsets = trial;
        }
      }
    }
  }
  return offsets;
}

const snippets = readBenchSet(tuneFile);
const guesses = JSON.parse(readFileSync(guessFile, 'utf8')) as ModelGuess[][];
const pct = (value: number): string => (100 * value).toFixed(1);
for (const prefix of prefixes) {
  const folds = [0, 1].map((fold) => new TokenModel(JSON.parse(readFileSync(`${prefix}${fold}.json`, 'utf8')) as TokenModelData));
  const cases: Case[] = snippets.map((snippet, i) => ({ snippet, guesses: guesses[i]!, scores: folds[1 - foldOf(packageOf(snippet))]!.score(snippet.text) }));
  const languages = [...new Set(cases.flatMap((c) => c.scores.languages))];
  let before = 0;
  let after = 0;
  let shortCount = 0;
  for (const half of [0, 1]) {
    const chosenOn = cases.filter((c) => c.snippet.size === 'short' && foldOf(packageOf(c.snippet)) === half);
    const scoredOn = cases.filter((c) => c.snippet.size === 'short' && foldOf(packageOf(c.snippet)) !== half);
    const offsets = chooseOffsets(chosenOn, languages);
    const b = scoredOn.filter((c) => right(c, tunedCombination)).length;
    const a = scoredOn.filter((c) => right(c, withOffsets(offsets))).length;
    before += b;
    after += a;
    shortCount += scoredOn.length;
    const moved = Object.entries(offsets).filter(([, v]) => v !== 0).map(([k, v]) => `${k} ${v > 0 ? '+' : ''}${v}`).join(', ');
    console.log(`${prefix} offsets chosen on half ${half}'s short windows (${chosenOn.length}): ${moved || 'none'}; on the other half (${scoredOn.length}): ${pct(b / scoredOn.length)} → ${pct(a / scoredOn.length)}%`);
  }
  console.log(`${prefix} short windows, offsets out of sample: ${pct(before / shortCount)} → ${pct(after / shortCount)}% (${after - before > 0 ? '+' : ''}${after - before} of ${shortCount})`);
}
