/**
 * Cuts snippets of real code for the language benchmark out of a corpus directory holding one
 * folder per package of packages.tsv (Debian packages unpacked with `dpkg-deb -x`, GitHub
 * repositories at the listed commit; test/bench/languages/fetchCorpus.sh makes it). A file's
 * language comes from its extension (or the package's rules); each snippet is a random window of
 * 4–12 or 15–40 lines. A package is in the tuning set or the held-out report set, never both.
 *
 *   node --experimental-strip-types test/bench/languages/extract.ts CORPUS report test/bench/languages/heldout.json
 *   node --experimental-strip-types test/bench/languages/extract.ts CORPUS tune /tmp/tune.json
 *   node --experimental-strip-types test/bench/languages/extract.ts CORPUS check test/bench/languages/heldout2.json
 *
 * Deterministic: the same corpus gives the same snippets (seeded generator, sorted listings).
 * Label rules, decided from the file alone: a file whose shebang or modeline names another language
 * is left out (statesOtherLanguage), and so is a window wholly inside an embedded block of another
 * language, an HTML page's style or script or a Markdown fence (embedded.ts), and so is a window
 * mostly of lines that hold no code in the file's language, inside a block comment, a docstring or
 * a data section (comments.ts; COMMENT_RULE=off cuts as before it).
 * SIZES=lines: windows of one to three whole lines instead (windows.ts's usableLines), what people
 * save as one-liners; scored apart from the 4–40-line sets (docs/languages.md, "One to three lines").
 * EMBEDDED_RULE=relabel (training cuts only, never a set that is scored): the same cut as with the
 * rule, plus each window it left out labelled with its block's language (style → css, script → js,
 * a fence → the language its info string names) when that is one of the cut's languages.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { benchLanguages, type BenchSnippet } from './benchSet.ts';
import { commentLines } from './comments.ts';
import { embeddedBlockAround, type EmbeddedBlock } from './embedded.ts';
import { dedented, generator, usable, usableLines } from './windows.ts';
import { languageStatedInText } from '../../../src/core/classify/hints.ts';
import { languageOf } from '../../../src/core/classify/languages.ts';

const extensions: Readonly<Record<string, string>> = {
  py: 'py', js: 'js', mjs: 'js', cjs: 'js', ts: 'ts', java: 'java', c: 'c', cpp: 'cpp', cc: 'cpp', cxx: 'cpp', hpp: 'cpp',
  hh: 'cpp', cs: 'cs', go: 'go', rs: 'rs', rb: 'rb', php: 'php', swift: 'swift', kt: 'kt', kts: 'kt', sh: 'sh', bash: 'sh',
  sql: 'sql', html: 'html', htm: 'html', css: 'css', lua: 'lua', hs: 'hs', scala: 'scala', r: 'r', pm: 'pl', pl: 'pl',
  ps1: 'ps1', psm1: 'ps1', yml: 'yaml', yaml: 'yaml', md: 'md', markdown: 'md', json: 'json', xml: 'xml',
};

/**
 * tune: the packages every model, weight and rule is chosen on; report: the held-out set; check: a
 * second held-out set of other packages (three a language), cut after the classifier was last changed
 * so that its figure is read once, never tuned on.
 */
const setNames = ['tune', 'report', 'check'] as const;
type SetName = (typeof setNames)[number];
const isSetName = (name: string | undefined): name is SetName => setNames.some((known) => known === name);
const firstSeed: Readonly<Record<SetName, number>> = { tune: 131, report: 31, check: 231 };

interface Package {
  readonly id: string;
  readonly set: SetName;
  readonly header: string | undefined;
  readonly bare: { readonly pattern: RegExp; readonly language: string } | undefined;
}

function readPackages(file: string): Package[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line) => {
      const [id, set, , rules = ''] = line.split('\t');
      const rule = rules.trim();
      const header = rule.startsWith('h=') ? rule.slice(2) : undefined;
      const eq = rule.lastIndexOf('=');
      const bare = rule !== '' && header === undefined ? { pattern: new RegExp(rule.slice(0, eq)), language: rule.slice(eq + 1) } : undefined;
      if (!isSetName(set)) throw new Error(`bad set in ${line}`);
      return { id: id!, set, header, bare };
    });
}

function languageOfFile(relative: string, pkg: Package): string | undefined {
  const base = path.basename(relative).toLowerCase();
  if (/\.min\.(js|css)$|\.d\.ts$/.test(base)) return undefined;
  const dot = base.lastIndexOf('.');
  if (dot <= 0) return pkg.bare?.pattern.test(relative) ? pkg.bare.language : undefined;
  const ext = base.slice(dot + 1);
  if (ext === 'h') return pkg.header;
  return Object.hasOwn(extensions, ext) ? extensions[ext] : undefined;
}

/**
 * Whether a file's own first line (a shebang) or an editor modeline in its first or last five lines
 * names a language other than the one its extension gives: such a file is not a sample of its
 * extension's language (bash completions named `btdownloadheadless.py` with `-*- shell-script -*-`).
 * Decided from the file alone, the same rule for the tuning and the held-out packages.
 */
export function statesOtherLanguage(lines: readonly string[], language: string): boolean {
  const stated = languageStatedInText([...lines.slice(0, 5), ...lines.slice(-5)].join('\n'));
  if (stated === undefined) return false;
  const specific = languageOf(stated)?.specific ?? stated;
  // `#!/usr/bin/env node` runs compiled TypeScript too: it names the runtime, not the language.
  return specific !== language && !(specific === 'js' && language === 'ts');
}

interface Drawn {
  readonly snippet: BenchSnippet;
  /** The embedded block of another language it lies wholly inside (embedded.ts), if the rule is on. */
  readonly embedded: EmbeddedBlock | undefined;
  /** Mostly lines holding no code in its file's language (comments.ts), if that rule is on. */
  readonly mostlyComment: boolean;
}

function walk(root: string, relative = ''): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(path.join(root, relative), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
    if (entry.isDirectory()) found.push(...walk(root, child));
    else if (entry.isFile()) found.push(child);
  }
  return found;
}

function main(): void {
  const [corpus, wanted, output, perClassArg, extra = ''] = process.argv.slice(2);
  if (!corpus || !isSetName(wanted) || !output) {
    throw new Error('usage: extract.ts CORPUS tune|report|check OUTPUT.json [per language and size] [more languages: json,xml]');
  }
  const perClass = Number(perClassArg ?? { tune: 80, report: 20, check: 40 }[wanted]);
  const packages = readPackages(new URL('./packages.tsv', import.meta.url).pathname).filter((pkg) => pkg.set === wanted);
  // language → package → files
  const files = new Map<string, Map<string, string[]>>();
  for (const pkg of packages) {
    const root = path.join(corpus, pkg.id);
    for (const relative of walk(root)) {
      const language = languageOfFile(relative, pkg);
      if (language === undefined || statSync(path.join(root, relative)).size > 1_000_000) continue;
      const byPackage = files.get(language) ?? new Map<string, string[]>();
      files.set(language, byPackage);
      byPackage.set(pkg.id, [...(byPackage.get(pkg.id) ?? []), relative]);
    }
  }
  // SIZES=lines cuts windows of one to three lines instead, from a generator of their own.
  const lineCut = process.env['SIZES'] === 'lines';
  const sizes = lineCut ? ([['line', 1, 3]] as const) : ([['short', 4, 12], ['medium', 15, 40]] as const);
  const seed = firstSeed[wanted] + (perClassArg === undefined ? 0 : perClass) + (lineCut ? 5_000 : 0);
  const random = generator(seed);
  // A window the embedded-block or the comment rule leaves out is replaced from a generator of its own, so the main
  // generator draws what it drew without the rule and no other window changes (EMBEDDED_RULE=off
  // cuts as before the rule). For that, `seen` holds every window the main generator drew, left out
  // or not, and the replacements are kept apart: a later main window equal to one is replaced too.
  const spare = generator(seed + 7919);
  // The comment rule's replacements come from a generator of their own, so the embedded-block
  // rule's replacements stay what they were before it.
  const commentSpare = generator(seed + 104_729);
  const rule = process.env['EMBEDDED_RULE'] ?? 'on';
  if (rule !== 'on' && rule !== 'off' && rule !== 'relabel') throw new Error('EMBEDDED_RULE is on, off or relabel');
  // A relabelled window is drawn from another language's files: fine to learn from, not to score.
  if (rule === 'relabel' && (wanted !== 'tune' || perClassArg === undefined)) throw new Error('EMBEDDED_RULE=relabel is for training cuts (tune with a count)');
  const embeddedRule = rule !== 'off';
  const commentRule = (process.env['COMMENT_RULE'] ?? 'on') !== 'off';
  const languages = [...benchLanguages, ...extra.split(',').filter((name) => name !== '')];
  const relabelled: BenchSnippet[] = [];
  const snippets: BenchSnippet[] = [];
  const seen = new Set<string>();
  const replacements = new Set<string>();
  for (const language of languages) {
    const byPackage = files.get(language);
    if (byPackage === undefined) throw new Error(`no ${wanted} package has ${language}`);
    const ids = [...byPackage.keys()];
    for (const [size, min, max] of sizes) {
      const usableWindow = size === 'line' ? usableLines : usable;
      const draw = (next: () => number, replacing: boolean): Drawn | undefined => {
        const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
        // A package first, so one big package does not make up a language.
        const id = pick(ids);
        const file = pick(byPackage.get(id)!);
        const lines = readFileSync(path.join(corpus, id, file), 'utf8').replace(/\r\n?/g, '\n').split('\n');
        const length = min + Math.floor(next() * (max - min + 1));
        if (lines.length < length) return undefined;
        const start = Math.floor(next() * (lines.length - length + 1));
        const window = lines.slice(start, start + length);
        // A line or three is saved from its first character: the indentation common to the window goes.
        const text = `${(size === 'line' ? dedented(window) : window).join('\n')}\n`;
        // Checked after every draw of the generator, so a file left out changes only its own windows.
        if (!usableWindow(window) || text.includes('\u0000') || seen.has(text) || (replacing && replacements.has(text)) || statesOtherLanguage(lines, language)) {
          return undefined;
        }
        const snippet = { language, size, source: `${id}/${file}:${start + 1}`, text };
        const mostlyComment = commentRule && !usableWindow(window, commentLines(lines, language).slice(start, start + length));
        return { snippet, embedded: embeddedRule ? embeddedBlockAround(lines, language, start, length) : undefined, mostlyComment };
      };
      const kept = (candidate: Drawn): boolean => candidate.embedded === undefined && !candidate.mostlyComment;
      let made = 0;
      for (let tries = 0; made < perClass && tries < perClass * 200; tries++) {
        const drawn = draw(random, false);
        if (drawn === undefined) continue;
        seen.add(drawn.snippet.text);
        // Only the main generator's windows are relabelled: those a cut without the rule teaches as this language.
        const block = drawn.embedded?.language;
        if (rule === 'relabel' && block !== undefined && languages.includes(block)) relabelled.push({ ...drawn.snippet, language: block });
        let taken = kept(drawn) && !replacements.has(drawn.snippet.text) ? drawn : undefined;
        const from = drawn.embedded === undefined && drawn.mostlyComment ? commentSpare : spare;
        for (let spareTries = 0; taken === undefined && spareTries < perClass * 200; spareTries++) {
          const replacement = draw(from, true);
          if (replacement !== undefined && kept(replacement)) taken = replacement;
        }
        if (taken === undefined) continue;
        if (taken !== drawn) replacements.add(taken.snippet.text);
        snippets.push(taken.snippet);
        made++;
      }
      if (made < perClass) console.error(`${wanted} ${language} ${size}: only ${made}`);
    }
  }
  const counts = new Map<string, number>();
  for (const snippet of relabelled) counts.set(snippet.language, (counts.get(snippet.language) ?? 0) + 1);
  if (rule === 'relabel') console.log(`relabelled ${relabelled.length}: ${[...counts].map(([name, count]) => `${name} ${count}`).join(', ')}`);
  const all = [...snippets, ...relabelled];
  writeFileSync(output, `[${all.map((snippet) => JSON.stringify(snippet)).join(',\n')}]\n`);
  console.log(`${all.length} snippets → ${output}`);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
