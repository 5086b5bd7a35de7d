/**
 * A small naive Bayes model over a snippet's tokens (words, punctuation, what lines start and end
 * with, pairs of neighbours and of words one apart, a line's first and last characters), trained
 * on Debian packages and repositories kept apart from the held-out benchmark
 * (test/bench/languages/train.ts; docs/languages.md). It reads what guesslang misses on a few lines
 * (`def f():` + indentation, `fn`, `:=`, `<-`) in well under a millisecond and runs on any thread,
 * so the model's worker and the caller's thread decide alike.
 */
import type { ClassificationSpecific } from '../piecesTypes.ts';

/**
 * The JSON train.ts writes. Tokens and counts are one string each (a line a token), which the
 * type checker and the bundler read as one value instead of 60,000 properties.
 */
export interface TokenModelData {
  readonly languages: readonly string[];
  /** Snippets of each language trained on. */
  readonly documents: readonly number[];
  /** One token a line. */
  readonly tokens: string;
  /** For the token on the same line, the snippets of each language it occurred in: `language:count` pairs, space separated. */
  readonly counts: string;
  /**
   * The logistic regression trained over the same tokens (test/bench/languages/trainWeights.ts): for
   * the token on the same line, `language:weight` pairs in tenths. Absent in a model trained
   * without it.
   */
  readonly weights?: string;
  /** The regression's intercept a language, in tenths. */
  readonly intercepts?: readonly number[];
}

/**
 * The regression's score is added to naive Bayes's log-likelihood times this, the temperature at
 * which combination.ts cools naive Bayes: the two then count alike (chosen on tuning packages).
 */
const regressionWeight = 4 / 10;

/**
 * Naive Bayes's additive smoothing, in snippets: a token a language has few snippets of counts for
 * less. Out of fold on the tuning packages 0.5 gave 89.5% (short 87.0%), 5 gave 90.7% (88.0%), and
 * 2 to 12 all within 0.4 points of that.
 */
const defaultSmoothing = 5;

/**
 * How a name is spelled (snake_case, camelCase, PascalCase, CONSTANT_CASE), a token of its own: a
 * few lines rarely repeat a keyword, but their names show a language's habits (Python and Rust
 * snake_case, Java and JavaScript camelCase). Measured out of fold on the tuning packages: +0.3
 * points overall, +0.5 on short snippets.
 */
function shapeOf(word: string): string | undefined {
  if (/^[a-z][a-z0-9]*(_[a-z0-9]+)+$/.test(word)) return 'Ksnake';
  if (/^[a-z][a-z0-9]*([A-Z][a-z0-9]+)+$/.test(word)) return 'Kcamel';
  if (/^([A-Z][a-z0-9]+){2,}$/.test(word)) return 'KPascal';
  if (/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$/.test(word)) return 'KCONST';
  return undefined;
}

/** What a snippet is read into: each token once (presence, not count, so one long line cannot outvote the rest). */
export function tokensOf(text: string, maxChars = 4_000): Set<string> {
  const found = new Set<string>();
  const lines = text.slice(0, maxChars).split('\n');
  for (const line of lines) {
    const words = line.match(/[A-Za-z_]\w*|[^\s\w]{1,2}/g);
    if (words === null) continue;
    const indent = /^(\t| {4}| {2})/.exec(line)?.[1];
    if (indent !== undefined) found.add(indent === '\t' ? 'I\t' : `I${indent.length}`);
    found.add(`^${words[0]!}`);
    // A line's first and last three characters: what a word token misses in `<td`, `#in`, `*/`,
    // `});`, `-> ` (out of fold on the tuning packages, with the skip pairs below: +0.5 points, +0.6
    // on short snippets).
    const trimmed = line.trim();
    found.add(`C^${trimmed.slice(0, 3)}`);
    found.add(`C${trimmed.slice(-3)}$`);
    if (words.length > 1) found.add(`^${words[0]!} ${words[1]!}`);
    found.add(`${words[words.length - 1]!}$`);
    if (words.length > 1) found.add(`${words[words.length - 2]!} ${words[words.length - 1]!}$`);
    for (let i = 0; i < words.length; i++) {
      found.add(words[i]!);
      const shape = shapeOf(words[i]!);
      if (shape !== undefined) found.add(shape);
      if (i > 0) found.add(`${words[i - 1]!} ${words[i]!}`);
      // A word and the word two on with any name between: `def _ (`, `fn _ (`, `const _ =`, `< _ >`.
      if (i > 1) found.add(`${words[i - 2]!} _ ${words[i]!}`);
    }
  }
  return found;
}

export interface TokenScores {
  readonly languages: readonly ClassificationSpecific[];
  /** Natural-log likelihood of each language, in `languages` order; unnormalised. */
  readonly logLikelihoods: Float64Array;
  /** How many of the snippet's tokens the model knows (0: it has no opinion). */
  readonly known: number;
}

/**
 * A trained model: scores a snippet's languages. Each token's `language:value` pairs are kept in
 * flat typed arrays (one range a token) rather than two arrays of numbers a token: 60,000 tokens
 * held that way took 22 MB of the host's heap, this way about a third of it.
 */
export class TokenModel {
  private readonly languages: readonly ClassificationSpecific[];
  /** Token → its number: the ranges of its pairs in `counts` and `weights`. */
  private readonly index: Map<string, number>;
  private readonly counts: Pairs;
  private readonly weights: Pairs;
  private readonly intercepts: Float64Array;
  /** log P(token absent-from-training | language) for an unseen pairing, per language. */
  private readonly unseen: Float64Array;
  private readonly logDocuments: Float64Array;
  private readonly smoothing: number;

  private readonly regressionWeight: number;

  /** `built`: the parts buildTokenModel made a step at a time (else they are made here). */
  constructor(data: TokenModelData, smoothing = defaultSmoothing, weight = regressionWeight, built?: BuiltParts) {
    if (data.languages.length > 256) throw new Error(`A token model holds at most 256 languages, not ${data.languages.length}`);
    this.smoothing = smoothing;
    this.regressionWeight = weight;
    this.languages = data.languages as readonly ClassificationSpecific[];
    const parts = built ?? finished(partsOf(data));
    this.index = parts.index;
    this.counts = parts.counts;
    this.weights = parts.weights;
    this.intercepts = Float64Array.from(data.intercepts ?? data.languages.map(() => 0), (value) => value * weight);
    this.logDocuments = Float64Array.from(data.documents, (count) => Math.log(count + 2 * smoothing));
    this.unseen = Float64Array.from(this.logDocuments, (logTotal) => Math.log(smoothing) - logTotal);
  }

  score(text: string): TokenScores {
    const scores = Float64Array.from(this.intercepts);
    let known = 0;
    const { counts, weights } = this;
    for (const token of tokensOf(text)) {
      const found = this.index.get(token);
      if (found === undefined) continue;
      known++;
      for (let i = weights.starts[found]!; i < weights.starts[found + 1]!; i++) scores[weights.languages[i]!]! += weights.values[i]! * this.regressionWeight;
      for (let language = 0; language < scores.length; language++) scores[language]! += this.unseen[language]!;
      for (let i = counts.starts[found]!; i < counts.starts[found + 1]!; i++) {
        const language = counts.languages[i]!;
        scores[language]! += Math.log(counts.values[i]! + this.smoothing) - this.logDocuments[language]! - this.unseen[language]!;
      }
    }
    return { languages: this.languages, logLikelihoods: scores, known };
  }
}

/** What building a model costs (tens of ms each on a 60,000-token model), made apart by buildTokenModel. */
interface BuiltParts {
  readonly index: Map<string, number>;
  readonly counts: Pairs;
  readonly weights: Pairs;
}

function tokenCount(data: TokenModelData): number {
  let lines = 1;
  for (let at = data.tokens.indexOf('\n'); at !== -1; at = data.tokens.indexOf('\n', at + 1)) lines++;
  return lines;
}

/**
 * Tokens read between two pauses of buildTokenModel: a slice of the index or of a pairs' text
 * takes a few milliseconds, where reading all 60,000 of either took 35-90 ms on a loaded machine.
 */
const tokensPerSlice = 10_000;

/** Token → its number, read a slice at a time (a `yield` between slices). */
function* indexOf(tokens: string, into: Map<string, number>): Generator<void> {
  let number = 0;
  for (let start = 0; start <= tokens.length; number++) {
    const end = tokens.indexOf('\n', start);
    const stop = end === -1 ? tokens.length : end;
    into.set(tokens.slice(start, stop), number);
    start = stop + 1;
    if (number % tokensPerSlice === tokensPerSlice - 1) yield;
  }
}

/** The parts, made a slice at a time: what is yielded is only a place to pause. */
function* partsOf(data: TokenModelData): Generator<void, BuiltParts> {
  const index = new Map<string, number>();
  yield* indexOf(data.tokens, index);
  const tokens = tokenCount(data);
  yield;
  const counts = yield* pairsOf(data.counts, tokens, data.languages.length);
  yield;
  const weights = yield* pairsOf(data.weights ?? '', tokens, data.languages.length);
  return { index, counts, weights };
}

/** A generator's value, run to its end without pausing (a worker, tests). */
function finished<T>(steps: Generator<void, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
  }
}

/**
 * The model built a slice at a time, `pause` awaited between the slices: on the host's thread
 * (languageClassifier.ts) no turn of its event loop then holds more than a slice of the index or
 * of the pairs.
 */
export async function buildTokenModel(data: TokenModelData, pause: () => Promise<void>): Promise<TokenModel> {
  const steps = partsOf(data);
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done === true) return new TokenModel(data, defaultSmoothing, regressionWeight, step.value);
    await pause();
  }
}

/** Each token's `language:value` pairs: token i's are at `starts[i]` up to `starts[i + 1]`. */
interface Pairs {
  readonly starts: Int32Array;
  readonly languages: Uint8Array;
  readonly values: Int32Array;
}

/**
 * Reads `lines` (a line a token, each `language:value` pairs space separated; a missing line has
 * none) in two passes over the text, counting then filling, without an array or a string a pair;
 * the filling pauses (`yield`) every `tokensPerSlice` tokens.
 * A language number past the model's `languageCount` languages is refused (it would score NaN).
 */
function* pairsOf(lines: string, tokens: number, languageCount: number): Generator<void, Pairs> {
  let total = 0;
  for (let i = 0; i < lines.length; i++) if (lines.charCodeAt(i) === COLON) total++;
  const starts = new Int32Array(tokens + 1);
  const languages = new Uint8Array(total);
  const values = new Int32Array(total);
  let token = 0;
  let pair = 0;
  let number = 0;
  let negative = false;
  let digits = false;
  const end = (): void => {
    if (!digits) return;
    values[pair++] = negative ? -number : number;
    number = 0;
    negative = false;
    digits = false;
  };
  for (let i = 0; i <= lines.length; i++) {
    const code = i < lines.length ? lines.charCodeAt(i) : NEWLINE;
    if (code >= ZERO && code <= NINE) {
      number = number * 10 + (code - ZERO);
      digits = true;
    } else if (code === MINUS) negative = true;
    else if (code === COLON) {
      if (number >= languageCount) throw new Error(`The token model names language ${number} of ${languageCount}`);
      languages[pair] = number;
      number = 0;
      digits = false;
    } else {
      end();
      if (code === NEWLINE && token < tokens) {
        starts[++token] = pair;
        if (token % tokensPerSlice === 0) yield;
      }
    }
  }
  // Lines missing at the end (a model trained without weights) have no pairs.
  starts.fill(pair, token + 1);
  return { starts, languages, values };
}

const COLON = 0x3a;
const NEWLINE = 0x0a;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;
