/**
 * Issue 31's seventh pass (docs/languages.md): pair specialists, scored out of fold on the tuning
 * packages. Each half of the tuning packages is decided by the token fold model and the pair
 * specialists trained on the other half (train.ts `foldOf`); where the combination's first two
 * languages are a specialist's pair, the specialist decides between them, either when the two are
 * within a margin of each other (`margin M`), by adding its log-odds, times a weight, to theirs
 * (`blend w`), or when its log-odds for the second are above a threshold (`sure T`); the corrections (corrections.ts) apply after it, as in decision.ts.
 *
 *   SHUFFLE_SEED=7 node --experimental-strip-types test/bench/languages/pairSpecialist.ts TRAIN.json TUNE.json TUNE.guesslang.json FOLD-PREFIX SPECIALIST-PREFIX OUT.json
 *   node --experimental-strip-types test/bench/languages/pairSpecialist.ts --mean OUT7.json OUT8.json OUT9.json
 *
 * FOLD-PREFIX: the token fold models (outOfFold.ts's PREFIX0.json, PREFIX1.json) trained with the
 * same SHUFFLE_SEED; the specialists are written to SPECIALIST-PREFIX-KIND-PAIR-FOLD.json, or read
 * from there when present. PAIR_FEATURES=tokens,trigrams,chars chooses the kinds of features tried.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { correctedBySyntax } from '../../../src/core/classify/corrections.ts';
import { chooseLanguage, standsWithoutModel, type ModelGuess } from '../../../src/core/classify/decision.ts';
import { languageStatedInText } from '../../../src/core/classify/hints.ts';
import type { ClassificationSpecific } from '../../../src/core/piecesTypes.ts';
import { benchLanguages, readBenchSet, type BenchSnippet } from './benchSet.ts';
import { PairModel, pairFeatureKinds, specialistPairs, trainPair, type PairFeatures, type PairModelData } from './pairModel.ts';
import { foldModels, foldOf, packageOf } from './train.ts';

/** Ways the specialist decides, with their parameter: within a margin of the combined scores, or its log-odds added at a weight. */
const modes = [
  ...[0.5, 1, 2, 4, 8, Infinity].map((margin) => ({ name: `margin ${margin}`, flips: (m: number, odds: number) => m < margin && odds > 0 })),
  ...[0.25, 0.5, 1, 2].map((weight) => ({ name: `blend ${weight}`, flips: (m: number, odds: number) => weight * odds > m })),
  ...[2, 4, 8].map((sure) => ({ name: `sure ${sure}`, flips: (_: number, odds: number) => odds > sure })),
];

/** Right answers (counts) a result file holds: the baseline's, and each kind, pair and mode's change to them. */
interface Counts {
  aloneShort: number;
  aloneMedium: number;
  gatedShort: number;
  gatedMedium: number;
  /** Short windows, guesslang where unsure: wrong before and right after, and the reverse. */
  fixed: number;
  broken: number;
}
interface Results {
  readonly snippets: { readonly short: number; readonly medium: number };
  readonly baseline: Counts;
  readonly changes: Record<string, Counts>;
  /**
   * By kind and pair, on short windows with guesslang where unsure: how many have the pair as the
   * combination's first two, of them how many the combination and the specialist alone are right
   * on, and how many of the pair's windows are read as the other language of the pair.
   */
  readonly pairs?: Record<string, { readonly topTwo: number; readonly combinationRight: number; readonly specialistRight: number; readonly misses: number }>;
}

const zero = (): Counts => ({ aloneShort: 0, aloneMedium: 0, gatedShort: 0, gatedMedium: 0, fixed: 0, broken: 0 });

function mean(files: readonly string[]): void {
  const all = files.map((file) => JSON.parse(readFileSync(file, 'utf8')) as Results);
  const { short, medium } = all[0]!.snippets;
  const point = (value: number, of: number): string => ((100 * value) / of / all.length).toFixed(2);
  const sum = (pick: (r: Results) => Counts | undefined, key: keyof Counts): number => all.reduce((total, r) => total + (pick(r)?.[key] ?? 0), 0);
  const base = (key: keyof Counts, of: number): string => point(sum((r) => r.baseline, key), of);
  console.log(`mean of ${all.length} runs, ${short} short and ${medium} medium windows`);
  console.log(`baseline: alone short ${base('aloneShort', short)} medium ${base('aloneMedium', medium)}; guesslang below 0.6 short ${base('gatedShort', short)} medium ${base('gatedMedium', medium)}`);
  console.log('| kind | pair | short windows with the pair first two | combination right | specialist alone right | pair windows read as the other |');
  for (const key of Object.keys(all[0]!.pairs ?? {})) {
    const of = (k: 'topTwo' | 'combinationRight' | 'specialistRight' | 'misses'): string => (all.reduce((total, r) => total + (r.pairs?.[key]?.[k] ?? 0), 0) / all.length).toFixed(1);
    const [kind, pair] = key.split('|');
    console.log(`| ${kind} | ${pair} | ${of('topTwo')} | ${of('combinationRight')} | ${of('specialistRight')} | ${of('misses')} |`);
  }
  console.log('| kind | pair | mode | alone short Δ | alone medium Δ | gated short Δ | gated medium Δ | short fixed / broken (sum over runs) |');
  for (const key of Object.keys(all[0]!.changes)) {
    const of = (k: keyof Counts, n: number): string => point(sum((r) => r.changes[key], k), n);
    const [kind, pair, mode] = key.split('|');
    console.log(`| ${kind} | ${pair} | ${mode} | ${of('aloneShort', short)} | ${of('aloneMedium', medium)} | ${of('gatedShort', short)} | ${of('gatedMedium', medium)} | ${sum((r) => r.changes[key], 'fixed')} / ${sum((r) => r.changes[key], 'broken')} |`);
  }
}

interface Decided {
  readonly answer: ClassificationSpecific;
  /** The combination's first two and their margin, before the corrections. */
  readonly first?: ClassificationSpecific;
  readonly second?: ClassificationSpecific;
  readonly margin?: number;
}

function run(trainFile: string, tuneFile: string, guesslangFile: string, foldPrefix: string, specialistPrefix: string, outFile: string): void {
  const models = foldModels(trainFile, foldPrefix);
  const kinds = (process.env['PAIR_FEATURES']?.split(',') ?? pairFeatureKinds) as PairFeatures[];
  let training: BenchSnippet[] | undefined;
  const specialists = new Map<string, PairModel>();
  for (const kind of kinds) {
    for (const pair of specialistPairs) {
      for (const fold of [0, 1]) {
        const file = `${specialistPrefix}-${kind}-${pair.join('')}-${fold}.json`;
        if (!existsSync(file)) {
          training ??= readBenchSet(trainFile);
          const started = performance.now();
          const data = trainPair(training.filter((snippet) => foldOf(packageOf(snippet)) === fold), pair, kind);
          writeFileSync(file, JSON.stringify(data));
          console.log(`${file}: ${data.weights.length} features, ${((performance.now() - started) / 1000).toFixed(0)} s`);
        }
        specialists.set(`${kind}|${pair.join('')}|${fold}`, new PairModel(JSON.parse(readFileSync(file, 'utf8')) as PairModelData));
      }
    }
  }
  const allTune = readBenchSet(tuneFile);
  const guesslang = JSON.parse(readFileSync(guesslangFile, 'utf8')) as ModelGuess[][];
  const guessesOf = new Map(allTune.map((snippet, i) => [snippet, guesslang[i]!]));
  const tune = allTune.filter((snippet) => (benchLanguages as readonly string[]).includes(snippet.language));

  const decide = (snippet: BenchSnippet, guesses: readonly ModelGuess[]): { decided: Decided; stands: boolean } => {
    let seen: Omit<Decided, 'answer'> = {};
    const model = models[1 - foldOf(packageOf(snippet))]!;
    const guess = chooseLanguage(snippet.text, guesses, model, undefined, undefined, (_, first, second, margin) => {
      seen = { first, second, margin };
      return undefined;
    });
    return { decided: { answer: guess.specific, ...seen }, stands: standsWithoutModel(guess, snippet.text) };
  };
  const cases = tune.flatMap((snippet) => {
    if (languageStatedInText(snippet.text) !== undefined) return [];
    const alone = decide(snippet, []);
    const gated = alone.stands ? alone.decided : decide(snippet, guessesOf.get(snippet)!).decided;
    return [{ snippet, alone: alone.decided, gated }];
  });
  const stated = tune.filter((snippet) => languageStatedInText(snippet.text) !== undefined);
  const statedRight = (size: string): number => stated.filter((s) => s.size === size && languageStatedInText(s.text) === s.language).length;

  const baseline = zero();
  baseline.aloneShort = statedRight('short');
  baseline.gatedShort = statedRight('short');
  baseline.aloneMedium = statedRight('medium');
  baseline.gatedMedium = statedRight('medium');
  for (const { snippet, alone, gated } of cases) {
    const short = snippet.size === 'short';
    if (alone.answer === snippet.language) baseline[short ? 'aloneShort' : 'aloneMedium']++;
    if (gated.answer === snippet.language) baseline[short ? 'gatedShort' : 'gatedMedium']++;
  }
  const changes: Record<string, Counts> = {};
  const pairs: Record<string, { topTwo: number; combinationRight: number; specialistRight: number; misses: number }> = {};
  for (const kind of kinds) {
    for (const pair of specialistPairs) {
      const name = pair.join('');
      const members: readonly string[] = pair;
      const oddsOf = new Map<BenchSnippet, number>();
      const answerWith = (snippet: BenchSnippet, decided: Decided, flips: (margin: number, odds: number) => boolean): string => {
        if (decided.first === undefined || decided.second === undefined || !members.includes(decided.first) || !members.includes(decided.second)) return decided.answer;
        let odds = oddsOf.get(snippet);
        if (odds === undefined) oddsOf.set(snippet, (odds = specialists.get(`${kind}|${name}|${1 - foldOf(packageOf(snippet))}`)!.score(snippet.text)));
        // The specialist's log-odds for the second of the combination's two over the first.
        const forSecond = decided.second === pair[1] ? odds : -odds;
        return flips(decided.margin!, forSecond) ? correctedBySyntax(snippet.text, decided.second) : decided.answer;
      };
      const tally = { topTwo: 0, combinationRight: 0, specialistRight: 0, misses: 0 };
      for (const { snippet, gated } of cases) {
        if (snippet.size !== 'short') continue;
        const other = members.find((language) => language !== snippet.language);
        if (members.includes(snippet.language) && gated.answer === other) tally.misses++;
        if (!members.includes(gated.first ?? '') || !members.includes(gated.second ?? '')) continue;
        tally.topTwo++;
        if (gated.answer === snippet.language) tally.combinationRight++;
        if (answerWith(snippet, gated, (_, odds) => odds > 0) === snippet.language) tally.specialistRight++;
      }
      pairs[`${kind}|${name}`] = tally;
      for (const mode of modes) {
        const counts = zero();
        for (const { snippet, alone, gated } of cases) {
          const short = snippet.size === 'short';
          const delta = (before: string, after: string): number => (after === snippet.language ? 1 : 0) - (before === snippet.language ? 1 : 0);
          counts[short ? 'aloneShort' : 'aloneMedium'] += delta(alone.answer, answerWith(snippet, alone, mode.flips));
          const gatedDelta = delta(gated.answer, answerWith(snippet, gated, mode.flips));
          counts[short ? 'gatedShort' : 'gatedMedium'] += gatedDelta;
          if (short && gatedDelta > 0) counts.fixed++;
          if (short && gatedDelta < 0) counts.broken++;
        }
        changes[`${kind}|${name}|${mode.name}`] = counts;
      }
    }
  }
  const results: Results = { snippets: { short: tune.filter((s) => s.size === 'short').length, medium: tune.filter((s) => s.size === 'medium').length }, baseline, changes, pairs };
  writeFileSync(outFile, JSON.stringify(results, null, 1));
  mean([outFile]);
}

if (process.argv[2] === '--mean') mean(process.argv.slice(3));
else {
  const [trainFile, tuneFile, guesslangFile, foldPrefix, specialistPrefix, outFile] = process.argv.slice(2);
  if (!trainFile || !tuneFile || !guesslangFile || !foldPrefix || !specialistPrefix || !outFile) throw new Error('usage: pairSpecialist.ts TRAIN.json TUNE.json TUNE.guesslang.json FOLD-PREFIX SPECIALIST-PREFIX OUT.json | --mean OUT.json…');
  run(trainFile, tuneFile, guesslangFile, foldPrefix, specialistPrefix, outFile);
}
