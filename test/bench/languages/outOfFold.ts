/**
 * The classifier's figures on the tuning packages, out of fold: each half of the packages is scored
 * by a token model trained on the other half (train.ts `--fold`), through the whole decision
 * (decision.ts: the rules, the token model, the corrections), alone and with guesslang where the
 * token model is unsure. This is where changes to the features, the training or the corrections
 * are chosen, never on the held-out set.
 *
 *   node --experimental-strip-types test/bench/languages/outOfFold.ts TRAIN.json TUNE.json TUNE.guesslang.json [FOLD-MODELS-PREFIX]
 *
 * With a prefix, the two fold models are read from PREFIX0.json and PREFIX1.json when they exist
 * and written there when not, so changes to the decision alone are measured in seconds.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tunedCombination } from '../../../src/core/classify/combination.ts';
import { chooseLanguage, standsWithoutModel, type ModelGuess } from '../../../src/core/classify/decision.ts';
import { NeuralModel } from './neuralModel.ts';
import { languageStatedInText } from '../../../src/core/classify/hints.ts';
import { languageOf } from '../../../src/core/classify/languages.ts';
import type { ClassificationSpecific } from '../../../src/core/piecesTypes.ts';
import { benchLanguages, readBenchSet, type BenchSnippet } from './benchSet.ts';
import { foldModels, foldOf, packageOf } from './train.ts';

const [trainFile, tuneFile, guesslangFile, prefix] = process.argv.slice(2);
if (!trainFile || !tuneFile || !guesslangFile) throw new Error('usage: outOfFold.ts TRAIN.json TUNE.json TUNE.guesslang.json [FOLD-MODELS-PREFIX]');

/** Experiments: SMOOTHING and REGRESSION_WEIGHT override the token model's. */
const smoothing = process.env['SMOOTHING'] === undefined ? undefined : Number(process.env['SMOOTHING']);
const weight = process.env['REGRESSION_WEIGHT'] === undefined ? undefined : Number(process.env['REGRESSION_WEIGHT']);

const models = foldModels(trainFile, prefix, smoothing, weight);
/**
 * NEURAL=PREFIX adds the neural fold models trainNeural.ts wrote (PREFIX0.bin, PREFIX1.bin) with
 * weight NEURAL_WEIGHT (docs/languages.md, fifth pass).
 */
const neuralPrefix = process.env['NEURAL'];
const neuralModels = [0, 1].map((fold) => {
  if (neuralPrefix === undefined) return undefined;
  const neural = new NeuralModel(readFileSync(`${neuralPrefix}${fold}.bin`));
  return (text: string) => neural.score(text);
});
const combination = process.env['NEURAL_WEIGHT'] === undefined ? tunedCombination : { ...tunedCombination, extraWeight: Number(process.env['NEURAL_WEIGHT']) };
const allTune = readBenchSet(tuneFile);
const tune = allTune.filter((snippet) => (benchLanguages as readonly string[]).includes(snippet.language));
// Without guesslang's answers (not yet written), the gated figure is the token model's.
const guesslang = existsSync(guesslangFile) ? (JSON.parse(readFileSync(guesslangFile, 'utf8')) as ModelGuess[][]) : allTune.map(() => []);
const guessesOf = new Map(allTune.map((snippet, i) => [snippet, guesslang[i]!]));

const same = (specific: string, snippet: BenchSnippet): boolean => (languageOf(specific as ClassificationSpecific)?.specific ?? specific) === snippet.language;

interface Outcome {
  readonly snippet: BenchSnippet;
  readonly alone: string;
  readonly sure: number;
  readonly stands: boolean;
  readonly combined: string;
}

const started = performance.now();
const outcomes: Outcome[] = tune.map((snippet) => {
  const stated = languageStatedInText(snippet.text);
  const model = models[1 - foldOf(packageOf(snippet))]!;
  const neural = neuralModels[1 - foldOf(packageOf(snippet))]!;
  if (stated !== undefined) return { snippet, alone: stated, sure: 1, stands: true, combined: stated };
  const alone = chooseLanguage(snippet.text, [], model, combination, neural);
  const stands = standsWithoutModel(alone, snippet.text);
  const combined = stands ? alone.specific : chooseLanguage(snippet.text, guessesOf.get(snippet)!, model, combination, neural).specific;
  return { snippet, alone: alone.specific, sure: alone.source === 'tokens' ? alone.confidence : 1, stands, combined };
});
const elapsed = performance.now() - started;

const share = (list: readonly Outcome[], right: (outcome: Outcome) => boolean): string => `${((100 * list.filter(right).length) / Math.max(1, list.length)).toFixed(1)}`;
const short = outcomes.filter((o) => o.snippet.size === 'short');
const medium = outcomes.filter((o) => o.snippet.size === 'medium');
const aloneRight = (o: Outcome): boolean => same(o.alone, o.snippet);
const gatedRight = (o: Outcome): boolean => same(o.combined, o.snippet);
console.log(`tuning, out of fold, ${outcomes.length} snippets (${(elapsed / outcomes.length).toFixed(2)} ms each)`);
console.log(`token model alone: all ${share(outcomes, aloneRight)}, short ${share(short, aloneRight)}, medium ${share(medium, aloneRight)}`);
console.log(`guesslang where unsure: all ${share(outcomes, gatedRight)}, short ${share(short, gatedRight)}, medium ${share(medium, gatedRight)}; asked for ${outcomes.filter((o) => !o.stands).length}`);
for (const sure of [0.99, 0.999, 0.9999, 0.99999]) {
  const asked = outcomes.filter((o) => o.sure < sure).length;
  console.log(`  gate ${sure}: would ask guesslang for ${((100 * asked) / outcomes.length).toFixed(1)}% (right among them alone ${share(outcomes.filter((o) => o.sure < sure), aloneRight)}%)`);
}
console.log(`| language | alone | short alone | gated |`);
for (const language of benchLanguages) {
  const of = outcomes.filter((o) => o.snippet.language === language);
  console.log(`| ${language} | ${share(of, aloneRight)} | ${share(of.filter((o) => o.snippet.size === 'short'), aloneRight)} | ${share(of, gatedRight)} |`);
}
const misses = new Map<string, number>();
for (const o of short) if (!aloneRight(o)) misses.set(`${o.snippet.language}→${o.alone}`, (misses.get(`${o.snippet.language}→${o.alone}`) ?? 0) + 1);
console.log(`short, token model alone, mistakes: ${[...misses].sort((a, b) => b[1] - a[1]).slice(0, 30).map(([pair, count]) => `${pair} ${count}`).join(', ')}`);
if (process.argv.includes('--dump')) {
  writeFileSync('/tmp/outOfFold.misses.json', JSON.stringify(short.filter((o) => !aloneRight(o)).map((o) => ({ language: o.snippet.language, got: o.alone, source: o.snippet.source, text: o.snippet.text })), null, 1));
}
