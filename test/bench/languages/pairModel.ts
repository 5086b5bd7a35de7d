/**
 * A pair specialist (issue 31's seventh pass, docs/languages.md): a binary logistic regression that
 * decides between two close languages (JavaScript and TypeScript, C and C++, Kotlin and Scala, PHP
 * and Perl) when they are the combination's first two. It is trained by trainWeights.ts's own
 * regression on that pair's training windows only (`trainPair`), over the token model's tokens or
 * those plus more features (`PairFeatures`), which a model of two languages can afford.
 */
import { tokensOf } from '../../../src/core/classify/tokenModel.ts';
import type { BenchSnippet } from './benchSet.ts';
import { charMaxChars, lineForm } from './charModel.ts';
import { trainWeights, weightScale, withShortWindows } from './trainWeights.ts';

export const specialistPairs = [
  ['js', 'ts'],
  ['c', 'cpp'],
  ['kt', 'scala'],
  ['php', 'pl'],
] as const;

/**
 * `tokens`: the token model's tokens. `trigrams`: and each line's runs of three words or
 * punctuation (`) : string`, `std :: vector`). `chars`: and each line's character 3- to 5-grams,
 * names masked (charModel.ts's `masked` form).
 */
export type PairFeatures = 'tokens' | 'trigrams' | 'chars';
export const pairFeatureKinds: readonly PairFeatures[] = ['tokens', 'trigrams', 'chars'];

export function pairFeaturesOf(kind: PairFeatures): (text: string) => Set<string> {
  return (text) => {
    const found = tokensOf(text);
    if (kind === 'trigrams') {
      for (const line of text.slice(0, 4_000).split('\n')) {
        const words = line.match(/[A-Za-z_]\w*|[^\s\w]{1,2}/g) ?? [];
        for (let i = 2; i < words.length; i++) found.add(`T${words[i - 2]!} ${words[i - 1]!} ${words[i]!}`);
      }
    } else if (kind === 'chars') {
      for (const line of text.slice(0, charMaxChars).split('\n')) {
        const read = lineForm(line, 'masked');
        for (let n = 3; n <= 5; n++) for (let i = 0; i + n <= read.length; i++) found.add(`G${read.slice(i, i + n)}`);
      }
    }
    return found;
  };
}

export interface PairModelData {
  /** The two languages; a positive score is the second. */
  readonly languages: readonly [string, string];
  readonly kind: PairFeatures;
  /** The weights and intercept are integers of 1/scale. */
  readonly scale: number;
  /** The features, one a line, and each one's weight toward the second language, in tenths. */
  readonly features: string;
  readonly weights: readonly number[];
  readonly intercept: number;
}

/** Features in fewer training snippets than this are one file's names. */
const minDocuments = 3;
const maxFeatures = 200_000;

/**
 * Experiments (docs/languages.md, seventh pass). `scale`: the weights are stored in 1/scale (the
 * token model's tenths by default; small weights of many features are otherwise dropped).
 * `shortOnly`: trained on short windows only (the short snippets and two short windows of each
 * longer one). `naiveBayes`: naive Bayes's log-odds for each feature (its share of each language's
 * training snippets, smoothed as the token model's: 5) times this are added to the regression's
 * weight, as the token model adds its two halves (0.25: the regression counts four times, over a
 * temperature of 4); 0 leaves the regression alone.
 */
export interface PairTraining {
  readonly scale: number;
  readonly shortOnly: boolean;
  readonly naiveBayes: number;
}

/** PAIR_SCALE, PAIR_SHORT=1 and PAIR_NB=w in the environment. */
export const pairTrainingFromEnvironment: PairTraining = {
  scale: process.env['PAIR_SCALE'] === undefined ? weightScale : Number(process.env['PAIR_SCALE']),
  shortOnly: process.env['PAIR_SHORT'] === '1',
  naiveBayes: process.env['PAIR_NB'] === undefined ? 0 : Number(process.env['PAIR_NB']),
};
const nbSmoothing = 5;

export function trainPair(
  snippets: readonly BenchSnippet[],
  languages: readonly [string, string],
  kind: PairFeatures,
  { scale, shortOnly, naiveBayes }: PairTraining = pairTrainingFromEnvironment,
): PairModelData {
  const featuresOf = pairFeaturesOf(kind);
  const both: readonly string[] = languages;
  const inPair = snippets.filter((snippet) => both.includes(snippet.language));
  const ofPair = shortOnly ? withShortWindows(inPair).filter((snippet) => snippet.size === 'short') : inPair;
  const documents = new Map<string, number>();
  for (const snippet of ofPair) for (const feature of featuresOf(snippet.text)) documents.set(feature, (documents.get(feature) ?? 0) + 1);
  const vocabulary = [...documents]
    .filter(([, count]) => count >= minDocuments)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, maxFeatures)
    .map(([feature]) => feature);
  const trained = trainWeights(ofPair, languages, vocabulary, featuresOf, scale);
  // Two classes of a softmax: only the difference of their weights counts.
  const toSecond = (pairs: string): number => {
    let weight = 0;
    for (const pair of pairs.split(' ')) {
      if (pair === '') continue;
      const [language, value] = pair.split(':');
      weight += (language === '1' ? 1 : -1) * Number(value);
    }
    return weight;
  };
  const weights = trained.weights.map(toSecond);
  if (naiveBayes > 0) {
    const [first, second] = [0, 1].map((l) => ofPair.filter((snippet) => snippet.language === languages[l]));
    const countsOf = (of: readonly BenchSnippet[]): Map<string, number> => {
      const counts = new Map<string, number>();
      for (const snippet of of) for (const feature of featuresOf(snippet.text)) counts.set(feature, (counts.get(feature) ?? 0) + 1);
      return counts;
    };
    const [a, b] = [countsOf(first!), countsOf(second!)];
    const share = (count: number, total: number): number => Math.log((count + nbSmoothing) / (total + 2 * nbSmoothing));
    vocabulary.forEach((feature, i) => {
      const odds = share(b.get(feature) ?? 0, second!.length) - share(a.get(feature) ?? 0, first!.length);
      weights[i] = Math.round(weights[i]! + naiveBayes * odds * scale);
    });
  }
  const kept = vocabulary.flatMap((feature, i) => (weights[i] === 0 ? [] : [[feature, weights[i]!] as const]));
  return {
    languages,
    kind,
    scale,
    features: kept.map(([feature]) => feature).join('\n'),
    weights: kept.map(([, weight]) => weight),
    intercept: trained.intercepts[1]! - trained.intercepts[0]!,
  };
}

export class PairModel {
  readonly languages: readonly [string, string];
  private readonly weightOf: Map<string, number>;
  private readonly intercept: number;
  private readonly featuresOf: (text: string) => Set<string>;

  constructor(data: PairModelData) {
    this.languages = data.languages;
    const features = data.features === '' ? [] : data.features.split('\n');
    this.weightOf = new Map(features.map((feature, i) => [feature, data.weights[i]! / data.scale]));
    this.intercept = data.intercept / data.scale;
    this.featuresOf = pairFeaturesOf(data.kind);
  }

  /** The log-odds of the second language against the first. */
  score(text: string): number {
    let score = this.intercept;
    for (const feature of this.featuresOf(text)) score += this.weightOf.get(feature) ?? 0;
    return score;
  }
}
