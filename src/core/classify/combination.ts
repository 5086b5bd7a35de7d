/**
 * How the token model's and guesslang's answers make one: the token model's posterior (its
 * log-likelihoods cooled by a temperature, naive Bayes being overconfident) times guesslang's
 * probabilities raised to a weight. guesslang alone names languages the token model was not
 * trained on (Dockerfile, TOML…); its answer stands for those when it is sure enough. The weights
 * were chosen on the tuning packages only (test/bench/languages/tune.ts, docs/languages.md).
 */
import type { ClassificationSpecific } from '../piecesTypes.ts';
import type { TokenScores } from './tokenModel.ts';
import { specificFromGuesslang } from './languages.ts';

/** One of guesslang's answers (a guesslang language id), as its worker reports it. */
export interface ModelGuess {
  readonly languageId: string;
  readonly confidence: number;
}

export interface Combination {
  readonly temperature: number;
  /** guesslang's exponent: 0 ignores it. */
  readonly modelWeight: number;
  /** guesslang's confidence above which a language the token model does not know stands. */
  readonly foreignConfidence: number;
  /** Added to a language's combined log score: corrects the token model's leanings (Markdown holds every language's code). */
  readonly bias?: Readonly<Record<string, number>>;
  /** The probability given to a language guesslang does not list. */
  readonly floor?: number;
  /** A further model's log-probabilities (`ExtraScores`) count this many times; absent or 0 ignores them. */
  readonly extraWeight?: number;
}

/**
 * Log-probabilities a further model gives each language, added to the combination with
 * `extraWeight`: how a benchmark scores a candidate model beside the token model (issue 31's
 * neural classifier, test/bench/languages/neuralModel.ts, did not gain out of fold and does not ship).
 */
export interface ExtraScores {
  readonly languages: readonly string[];
  readonly logProbabilities: Float64Array;
}

/** The combination's answer, and the language next to it with how far behind (in combined log score) when there is one. */
export interface CombinedGuess {
  readonly specific: ClassificationSpecific;
  readonly confidence: number;
  readonly runnerUp?: ClassificationSpecific;
  readonly margin?: number;
}

export const tunedCombination: Combination = {
  temperature: 4,
  modelWeight: 4,
  // The tuning set holds none of the languages only guesslang knows, so 0.5 was kept rather than tuned.
  foreignConfidence: 0.5,
  floor: 1e-4,
  bias: {
    c: 0.25, cpp: -3.5, cs: 1, css: 3.5, go: -1, hs: -1.5, html: -3.5, java: -4.25, js: -5.5, json: -3, kt: 0, lua: -2, md: -4,
    php: -2.5, pl: 1.25, ps1: 1.5, py: -2.25, r: 3, rb: 1.25, rs: -0.75, scala: -0.5, sh: -2, sql: 0.5, swift: 0.25, ts: -0.5,
    yaml: -0.75,
  },
};

/** What guesslang gives a language it did not list in its answers, unless the weights say. */
const floor = 1e-3;

export function combine(
  scores: TokenScores,
  guesses: readonly ModelGuess[],
  weights: Combination = tunedCombination,
  extra?: ExtraScores,
): CombinedGuess {
  const modelOf = new Map<ClassificationSpecific, number>();
  for (const guess of guesses) {
    const specific = specificFromGuesslang(guess.languageId);
    if (specific !== undefined) modelOf.set(specific, (modelOf.get(specific) ?? 0) + guess.confidence);
  }
  const top = guesses[0];
  const topSpecific = top === undefined ? undefined : specificFromGuesslang(top.languageId);
  if (top !== undefined && topSpecific !== undefined && !scores.languages.includes(topSpecific) && top.confidence >= weights.foreignConfidence) {
    return { specific: topSpecific, confidence: top.confidence };
  }
  const hasModel = guesses.length > 0 && weights.modelWeight > 0;
  const extraOf = extraScoresOf(extra, weights.extraWeight);
  let best = 0;
  const combined = scores.languages.map((language, i) => {
    const model = hasModel ? weights.modelWeight * Math.log((modelOf.get(language) ?? 0) + (weights.floor ?? floor)) : 0;
    return scores.logLikelihoods[i]! / weights.temperature + model + (weights.bias?.[language] ?? 0) + extraOf(language);
  });
  for (let i = 1; i < combined.length; i++) if (combined[i]! > combined[best]!) best = i;
  let second = best === 0 ? 1 : 0;
  for (let i = 0; i < combined.length; i++) if (i !== best && combined[i]! > combined[second]!) second = i;
  // The winner's share of the combined posterior.
  const total = combined.reduce((sum, value) => sum + Math.exp(value - combined[best]!), 0);
  const runnerUp = scores.languages[second];
  return { specific: scores.languages[best]!, confidence: 1 / total, ...(runnerUp === undefined || second === best ? {} : { runnerUp, margin: combined[best]! - combined[second]! }) };
}

/** The further model's weighted log-probability of a language (its least for one it was not trained on). */
function extraScoresOf(extra: ExtraScores | undefined, weight = 0): (language: ClassificationSpecific) => number {
  if (extra === undefined || weight === 0) return () => 0;
  const least = Math.min(...extra.logProbabilities);
  const at = new Map<string, number>(extra.languages.map((language, i) => [language, extra.logProbabilities[i]!]));
  return (language) => weight * (at.get(language) ?? least);
}
