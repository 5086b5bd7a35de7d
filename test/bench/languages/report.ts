/**
 * The per-language table of docs/languages.md, from the committed held-out set and guesslang's
 * stored answers for it (heldout.guesslang.json, written by modelOutputs.ts): deterministic and
 * quick. Columns: the rule before issue 31 (guesslang at ≥ 0.2 confidence, else highlight.js),
 * guesslang alone, the token model alone (guesslang unloaded), the two combined (what Satchel
 * does), and with the file name as the hint.
 *
 *   node --experimental-strip-types test/bench/languages/report.ts [SET.json GUESSLANG.json]
 *
 * Another set and its stored answers can be named (heldout.embedded.json, the held-out set re-cut
 * with the embedded-block label rule, and heldout.embedded.guesslang.json).
 */
import { readFileSync } from 'node:fs';
import { chooseLanguage, type ModelGuess } from '../../../src/core/classify/decision.ts';
import { classifyWithFallback } from '../../../src/core/classify/fallbackClassifier.ts';
import { languageFromHints, languageStatedInText } from '../../../src/core/classify/hints.ts';
import { languageOf, specificFromGuesslang } from '../../../src/core/classify/languages.ts';
import type { ClassificationSpecific } from '../../../src/core/piecesTypes.ts';
import { benchLanguages, gatedAnswer, readBenchSet, type BenchSnippet } from './benchSet.ts';

const [setFile, guesslangFile] = process.argv.slice(2);
if ((setFile === undefined) !== (guesslangFile === undefined)) throw new Error('usage: report.ts [SET.json GUESSLANG.json]');
const snippets = readBenchSet(setFile);
const guesslang = JSON.parse(readFileSync(guesslangFile ?? new URL('./heldout.guesslang.json', import.meta.url), 'utf8')) as ModelGuess[][];
if (guesslang.length !== snippets.length) throw new Error('the set and the stored answers differ in length');

/** decision.ts before issue 31. */
function oldRule(text: string, guesses: readonly ModelGuess[]): ClassificationSpecific {
  const top = guesses[0];
  const specific = top === undefined ? undefined : specificFromGuesslang(top.languageId);
  return top === undefined || specific === undefined || top.confidence < 0.2 ? classifyWithFallback(text).specific : specific;
}

let asked = 0;
const NOW = 'now (guesslang only where the token model is unsure)';

const methods: Record<string, (snippet: BenchSnippet, i: number) => string | undefined> = {
  'before (≥ 0.2 or highlight.js)': (snippet, i) => oldRule(snippet.text, guesslang[i]!),
  'guesslang alone': (_snippet, i) => specificFromGuesslang(guesslang[i]![0]?.languageId ?? ''),
  'token model alone': (snippet) => languageStatedInText(snippet.text) ?? chooseLanguage(snippet.text, []).specific,
  'combined': (snippet, i) => languageStatedInText(snippet.text) ?? chooseLanguage(snippet.text, guesslang[i]!).specific,
  [NOW]: (snippet, i) => languageStatedInText(snippet.text) ?? gatedAnswer(snippet.text, guesslang[i]!, () => asked++),
  'file name as hint': (snippet, i) =>
    languageFromHints({ fileName: snippet.source.replace(/:\d+$/, '') }, snippet.text) ?? languageStatedInText(snippet.text) ?? chooseLanguage(snippet.text, guesslang[i]!).specific,
};

const same = (specific: string | undefined, snippet: BenchSnippet): boolean =>
  specific !== undefined && (languageOf(specific as ClassificationSpecific)?.specific ?? specific) === snippet.language;
const percent = (right: number, all: number): string => `${((100 * right) / all).toFixed(1)}`;

const results = Object.entries(methods).map(([name, decide]) => ({ name, right: snippets.map((snippet, i) => same(decide(snippet, i), snippet)) }));
const row = (label: string, pick: (snippet: BenchSnippet) => boolean): string => {
  const chosen = snippets.flatMap((snippet, i) => (pick(snippet) ? [i] : []));
  return `| ${label} | ${results.map(({ right }) => percent(chosen.filter((i) => right[i]).length, chosen.length)).join(' | ')} |`;
};
console.log(`| snippets | ${results.map(({ name }) => name).join(' | ')} |`);
console.log(`|---|${results.map(() => '---:').join('|')}|`);
console.log(row(`all ${snippets.length.toLocaleString('en')}`, () => true));
console.log(row('short (4–12 lines)', (snippet) => snippet.size === 'short'));
console.log(row('medium (15–40 lines)', (snippet) => snippet.size === 'medium'));
for (const language of benchLanguages) console.log(row(language, (snippet) => snippet.language === language));
console.log(`\nguesslang asked for ${asked} of ${snippets.length} snippets`);
const now = results.find(({ name }) => name === NOW)!.right;
const shortOnes = snippets.flatMap((snippet, i) => (snippet.size === 'short' ? [i] : []));
console.log(`now, short windows: ${shortOnes.filter((i) => now[i]).length} of ${shortOnes.length} right`);
