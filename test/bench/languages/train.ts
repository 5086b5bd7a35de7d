/**
 * Trains the token model (src/core/classify/tokenModel.ts) on snippets cut from the tuning
 * packages only, never the held-out ones:
 *
 *   node --experimental-strip-types test/bench/languages/extract.ts CORPUS tune /tmp/train.json 2400 json,xml
 *   node --experimental-strip-types test/bench/languages/train.ts /tmp/train.json src/core/classify/tokenModel.json
 *
 * `--fold 0|1` trains on half the packages (by a hash of their id), for tune.ts to score the other half.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { TokenModel, tokensOf, type TokenModelData } from '../../../src/core/classify/tokenModel.ts';
import { readBenchSet, type BenchSnippet } from './benchSet.ts';
import { trainWeights } from './trainWeights.ts';

/** Tokens seen in fewer snippets than this are noise (a variable name of one file). */
const minDocuments = 3;
/** The most frequent tokens kept, which bounds the JSON the extension ships. */
const maxTokens = 60_000;

export function packageOf(snippet: BenchSnippet): string {
  return snippet.source.split('/')[0]!;
}

export function foldOf(pkg: string): number {
  let hash = 0;
  for (const char of pkg) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) >>> 0;
  return hash % 2;
}

/**
 * Packages a token must be seen in to be learnt (PACKAGE_DF, 1 as shipped): a name only one package
 * uses (its types, its helpers) tells nothing of code from another package (issue 31's eighth pass).
 */
const minPackages = Number(process.env['PACKAGE_DF'] ?? 1);

export function train(snippets: readonly BenchSnippet[]): TokenModelData {
  const languages = [...new Set(snippets.map((snippet) => snippet.language))].sort();
  const index = new Map(languages.map((language, i) => [language, i]));
  const documents = languages.map(() => 0);
  const counts = new Map<string, number[]>();
  const packagesOf = new Map<string, Set<string>>();
  for (const snippet of snippets) {
    const language = index.get(snippet.language)!;
    documents[language]!++;
    const pkg = packageOf(snippet);
    for (const token of tokensOf(snippet.text)) {
      let row = counts.get(token);
      if (row === undefined) counts.set(token, (row = languages.map(() => 0)));
      row[language]!++;
      if (minPackages > 1) {
        let seenIn = packagesOf.get(token);
        if (seenIn === undefined) packagesOf.set(token, (seenIn = new Set()));
        if (seenIn.size < minPackages) seenIn.add(pkg);
      }
    }
  }
  const kept = [...counts]
    .map(([token, row]) => ({ token, row, total: row.reduce((a, b) => a + b, 0) }))
    .filter((entry) => entry.total >= minDocuments && (minPackages <= 1 || (packagesOf.get(entry.token)?.size ?? 0) >= minPackages))
    .sort((a, b) => b.total - a.total || (a.token < b.token ? -1 : 1))
    .slice(0, maxTokens);
  const vocabulary = kept.map((entry) => entry.token);
  const tokens = vocabulary.join('\n');
  const regression = trainWeights(snippets, languages, vocabulary);
  const pairs = kept.map(({ row }) => row.flatMap((count, language) => (count > 0 ? [`${language}:${count}`] : [])).join(' ')).join('\n');
  return { languages, documents, tokens, counts: pairs, weights: regression.weights.join('\n'), intercepts: regression.intercepts };
}

/**
 * The two fold models: each trained on one half of the tuning packages, to score the other half.
 * With a prefix they are read from PREFIX0.json and PREFIX1.json when there and written there when
 * not, so changes to the decision alone are measured in seconds.
 */
export function foldModels(trainFile: string, prefix?: string, smoothing?: number, weight?: number): TokenModel[] {
  return [0, 1].map((fold) => {
    const file = prefix === undefined ? undefined : `${prefix}${fold}.json`;
    if (file !== undefined && existsSync(file)) return new TokenModel(JSON.parse(readFileSync(file, 'utf8')) as TokenModelData, smoothing, weight);
    const data = train(readBenchSet(trainFile).filter((snippet) => foldOf(packageOf(snippet)) === fold));
    if (file !== undefined) writeFileSync(file, JSON.stringify(data));
    return new TokenModel(data, smoothing, weight);
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [input, output] = process.argv.slice(2);
  if (!input || !output) throw new Error('usage: train.ts TRAIN.json MODEL.json [--fold 0|1]');
  const foldAt = process.argv.indexOf('--fold');
  const fold = foldAt === -1 ? undefined : Number(process.argv[foldAt + 1]);
  const snippets = readBenchSet(input).filter((snippet) => fold === undefined || foldOf(packageOf(snippet)) === fold);
  const model = train(snippets);
  writeFileSync(output, JSON.stringify(model));
  console.log(`${model.tokens.split('\n').length} tokens, ${model.languages.length} languages, ${(readFileSync(output).length / 1e6).toFixed(2)} MB`);
}
