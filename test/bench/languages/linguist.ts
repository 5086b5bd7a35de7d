/**
 * An independent check of language detection on GitHub linguist's samples, which nothing in
 * Satchel is trained or tuned on (issue 31 keeps them for this): windows are cut from each sample
 * file of the 25 benchmark languages the way extract.ts cuts the benchmark's (one of 4–12 lines and
 * one of 15–40 where the file is long enough, seeded), read at run time from a clone of linguist,
 * and classified by the live LanguageClassifier without hints. Nothing of linguist is written.
 *
 *   node --experimental-strip-types test/bench/languages/linguist.ts LINGUIST-GIT-DIR [COMMIT]
 */
import { execFileSync } from 'node:child_process';
import { LanguageClassifier } from '../../../src/core/classify/languageClassifier.ts';
import { languageOf } from '../../../src/core/classify/languages.ts';
import type { ClassificationSpecific } from '../../../src/core/piecesTypes.ts';
import { generator, usable } from './windows.ts';

/** linguist's sample folders of the benchmark's 25 languages. */
const folders: Readonly<Record<string, string>> = {
  Python: 'py', JavaScript: 'js', TypeScript: 'ts', Java: 'java', C: 'c', 'C++': 'cpp', 'C#': 'cs', Go: 'go', Rust: 'rs',
  Ruby: 'rb', PHP: 'php', Swift: 'swift', Kotlin: 'kt', Shell: 'sh', SQL: 'sql', HTML: 'html', CSS: 'css', Lua: 'lua',
  Haskell: 'hs', Scala: 'scala', R: 'r', Perl: 'pl', PowerShell: 'ps1', YAML: 'yaml', Markdown: 'md',
};

const [gitDir, commit = 'HEAD'] = process.argv.slice(2);
if (!gitDir) throw new Error('usage: linguist.ts LINGUIST-GIT-DIR [COMMIT]');
const git = (...args: string[]): string => execFileSync('git', [`--git-dir=${gitDir}`, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });

interface Window {
  readonly language: string;
  readonly size: 'short' | 'medium';
  readonly text: string;
}

const random = generator(2031);
const windows: Window[] = [];
for (const [folder, language] of Object.entries(folders)) {
  // Files named only by their name (samples/Shell/filenames/.bashrc) are skipped: their name is the hint.
  const paths = git('ls-tree', '-r', '--name-only', commit, `samples/${folder}/`).split('\n').filter((path) => path !== '' && !path.includes('/filenames/'));
  for (const path of paths.sort()) {
    const lines = git('show', `${commit}:${path}`).replace(/\r\n?/g, '\n').split('\n');
    for (const [size, min, max] of [['short', 4, 12], ['medium', 15, 40]] as const) {
      for (let tries = 0; tries < 20; tries++) {
        const length = min + Math.floor(random() * (max - min + 1));
        if (lines.length < length) break;
        const start = Math.floor(random() * (lines.length - length + 1));
        const window = lines.slice(start, start + length);
        if (!usable(window) || window.join('\n').includes('\u0000')) continue;
        windows.push({ language, size, text: `${window.join('\n')}\n` });
        break;
      }
    }
  }
}

const classifier = new LanguageClassifier({ timeoutMs: 60_000 });
await classifier.load();
const tally = new Map<string, { right: number; all: number }>();
const count = (key: string, right: boolean): void => {
  const entry = tally.get(key) ?? { right: 0, all: 0 };
  entry.right += right ? 1 : 0;
  entry.all++;
  tally.set(key, entry);
};
for (const window of windows) {
  const guess = await classifier.classify(window.text);
  const right = (languageOf(guess.specific as ClassificationSpecific)?.specific ?? guess.specific) === window.language;
  for (const key of ['all', window.size, window.language]) count(key, right);
}
await classifier.unload();
const figure = (key: string): string => {
  const entry = tally.get(key) ?? { right: 0, all: 0 };
  return `${((100 * entry.right) / Math.max(1, entry.all)).toFixed(1)}% (${entry.right}/${entry.all})`;
};
console.log(`linguist samples at ${git('rev-parse', commit).trim()}: all ${figure('all')}, short ${figure('short')}, medium ${figure('medium')}`);
console.log(Object.values(folders).map((language) => `${language} ${figure(language)}`).join(', '));
