/**
 * Language detection accuracy on the benchmark's snippets, through the classifier Satchel uses
 * (the guesslang worker, its decision and the fallback), without hints and with the file name as
 * the only hint. Prints overall, short, medium and per-language figures and the time a snippet.
 *
 *   npm run bench:languages                      # the committed held-out set
 *   npm run bench:languages -- /tmp/tune.json    # a tuning set made by extract.ts
 */
import { LanguageClassifier } from '../../../src/core/classify/languageClassifier.ts';
import { languageOf } from '../../../src/core/classify/languages.ts';
import { benchLanguages, readBenchSet, type BenchSnippet } from './benchSet.ts';

interface Tally {
  right: number;
  all: number;
}

const percent = (tally: Tally): string => `${((100 * tally.right) / Math.max(1, tally.all)).toFixed(1)}%`;

/** Mean, median, 95th and 99th percentiles: guesslang is asked for few snippets, so the mean alone hides them. */
function timeFigures(times: readonly number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (share: number): string => sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]!.toFixed(2);
  const mean = times.reduce((sum, time) => sum + time, 0) / Math.max(1, times.length);
  return `${mean.toFixed(2)} ms a snippet (p50 ${at(0.5)}, p95 ${at(0.95)}, p99 ${at(0.99)}, max ${at(1)})`;
}

async function measure(classifier: LanguageClassifier, snippets: readonly BenchSnippet[], withHints: boolean): Promise<void> {
  const overall: Tally = { right: 0, all: 0 };
  const bySize = new Map<string, Tally>();
  const byLanguage = new Map<string, Tally>(benchLanguages.map((language) => [language, { right: 0, all: 0 }]));
  const confusions = new Map<string, number>();
  const sources = new Map<string, number>();
  const times: number[] = [];
  for (const snippet of snippets) {
    const fileName = snippet.source.replace(/:\d+$/, '');
    const started = performance.now();
    const guess = await classifier.classify(snippet.text, withHints ? { hints: { fileName } } : {});
    times.push(performance.now() - started);
    // `pm`, `yml`, `h` are the file-name spellings of Perl, YAML and C.
    const right = (languageOf(guess.specific)?.specific ?? guess.specific) === snippet.language ? 1 : 0;
    const sized = bySize.get(snippet.size) ?? { right: 0, all: 0 };
    bySize.set(snippet.size, sized);
    for (const tally of [overall, sized, byLanguage.get(snippet.language)!]) {
      tally.right += right;
      tally.all++;
    }
    sources.set(guess.source, (sources.get(guess.source) ?? 0) + 1);
    if (!right) confusions.set(`${snippet.language}→${guess.specific}`, (confusions.get(`${snippet.language}→${guess.specific}`) ?? 0) + 1);
  }
  console.log(`\n${withHints ? 'with the file name as hint' : 'no hints'}: overall ${percent(overall)} (${overall.right}/${overall.all}), ${[...bySize].map(([size, tally]) => `${size} ${percent(tally)}`).join(', ')}; ${timeFigures(times)}`);
  console.log(`decided by ${[...sources].map(([source, count]) => `${source} ${count}`).join(', ')}`);
  console.log(`| language | accuracy |\n|---|---|\n${[...byLanguage].map(([language, tally]) => `| ${language} | ${percent(tally)} |`).join('\n')}`);
  const worst = [...confusions].sort((a, b) => b[1] - a[1]).slice(0, 15);
  console.log(`most frequent mistakes: ${worst.map(([pair, count]) => `${pair} ${count}`).join(', ')}`);
}

async function main(): Promise<void> {
  const file = process.argv[2];
  const snippets = readBenchSet(file);
  const classifier = new LanguageClassifier({ timeoutMs: 60_000 });
  try {
    await classifier.load();
    await measure(classifier, snippets, false);
    if (!process.argv.includes('--no-hints-only')) await measure(classifier, snippets, true);
    // Unloaded, the caller's thread decides with the token model alone.
    await classifier.unload();
    console.log('\nguesslang unloaded:');
    await measure(classifier, snippets, false);
  } finally {
    await classifier.unload();
  }
}

await main();
