/**
 * The benchmark's third label rule (windows.ts, extract.ts): which lines of a file hold no code in
 * its language — lines inside a block comment, a docstring, Perl's POD, a data section after
 * `__END__` — so that a window mostly of them is not taken as a sample of the language, as one
 * mostly of lines starting with a comment mark never was. Read from the file alone by a small
 * scanner, never by a classifier, alike for every set.
 *
 * The scanner errs towards code: a string not closed on its line ends there, a block comment or a
 * docstring never closed is read as code (an unclosed `/*` is more likely a glob or a regular
 * expression than a comment running to the file's end), and whatever it does not know is code.
 */

type Pair = readonly [open: string, close: string];

interface Syntax {
  /** Marks that comment out the rest of the line. */
  readonly lineComments: readonly string[];
  /** Block comments; `nested` when an opener inside one opens another (Haskell's `{-`). */
  readonly blocks: readonly Pair[];
  readonly nested?: boolean;
  /** Marks that look like a block's opener but open code (Haskell's pragma `{-#`). */
  readonly notBlocks?: readonly string[];
  /** Quotes of strings that end on their line. */
  readonly quotes: string;
  /** Strings that span lines (template literals, raw and triple-quoted strings): code. */
  readonly spanning: readonly Pair[];
  /** A triple-quoted string opening its line is a docstring (or text held for another language), not code. */
  readonly docstrings?: boolean;
  /** Blocks from a line matching the first pattern to one matching the second (both included), or the end. */
  readonly lineBlocks: readonly (readonly [RegExp, RegExp])[];
  /** A line after which the rest of the file is data. */
  readonly dataSection?: RegExp;
}

const plain: Syntax = { lineComments: [], blocks: [], quotes: '', spanning: [], lineBlocks: [] };
const cFamily: Syntax = { ...plain, lineComments: ['//'], blocks: [['/*', '*/']], quotes: '"\'' };
const hashed: Syntax = { ...plain, lineComments: ['#'], quotes: '"\'' };
const tripleQuoted: readonly Pair[] = [['"""', '"""']];
const markup: Syntax = { ...plain, blocks: [['<!--', '-->']] };

const syntaxes: Readonly<Record<string, Syntax>> = {
  c: cFamily,
  cpp: cFamily,
  cs: cFamily,
  java: { ...cFamily, spanning: tripleQuoted },
  js: { ...cFamily, spanning: [['`', '`']] },
  ts: { ...cFamily, spanning: [['`', '`']] },
  go: { ...cFamily, spanning: [['`', '`']] },
  // `'` opens a lifetime as often as a character in Rust.
  rs: { ...cFamily, quotes: '"' },
  swift: { ...cFamily, quotes: '"', spanning: tripleQuoted },
  kt: { ...cFamily, spanning: tripleQuoted },
  scala: { ...cFamily, spanning: tripleQuoted },
  php: { ...cFamily, lineComments: ['//', '#'] },
  css: { ...cFamily, lineComments: [] },
  sql: { ...cFamily, lineComments: ['--'] },
  py: { ...hashed, spanning: [['"""', '"""'], ["'''", "'''"]], docstrings: true },
  rb: { ...hashed, lineBlocks: [[/^=begin\b/, /^=end\b/]], dataSection: /^__END__\s*$/ },
  pl: { ...hashed, lineBlocks: [[/^=[a-zA-Z]/, /^=cut\b/]], dataSection: /^__(END|DATA)__\s*$/ },
  sh: hashed,
  r: hashed,
  yaml: hashed,
  ps1: { ...hashed, blocks: [['<#', '#>']] },
  lua: { ...plain, lineComments: ['--'], blocks: [['--[[', ']]'], ['--[=[', ']=]'], ['--[==[', ']==]']], quotes: '"\'', spanning: [['[[', ']]']] },
  // `'` is a character or a name's prime (`x'`) in Haskell.
  hs: { ...plain, lineComments: ['--'], blocks: [['{-', '-}']], nested: true, notBlocks: ['{-#'], quotes: '"' },
  html: markup,
  xml: markup,
  md: markup,
};

/** Where `pair`'s block opened at `at` closes (the index after its closer), -1 when it never does. */
function closingOf(text: string, at: number, [open, close]: Pair, nested: boolean): number {
  let depth = 1;
  let i = at + open.length;
  while (depth > 0) {
    const next = text.indexOf(close, i);
    if (next === -1) return -1;
    if (nested) {
      const inner = text.indexOf(open, i);
      if (inner !== -1 && inner < next) {
        depth++;
        i = inner + open.length;
        continue;
      }
    }
    depth--;
    i = next + close.length;
  }
  return i;
}

const startsAt = (text: string, at: number, marks: readonly string[]): string | undefined => marks.find((mark) => text.startsWith(mark, at));
const pairAt = (text: string, at: number, pairs: readonly Pair[]): Pair | undefined => pairs.find(([open]) => text.startsWith(open, at));

/**
 * For each line of a file of `language`, whether it holds code: a character outside comments,
 * docstrings, POD and data sections that is not a space. A language it has no syntax for is all code.
 */
export function codeLines(lines: readonly string[], language: string): boolean[] {
  const code = lines.map(() => false);
  const syntax = syntaxes[language];
  if (syntax === undefined) return lines.map((line) => line.trim() !== '');
  const text = lines.join('\n');
  const lineStarts: number[] = [];
  for (let at = 0, line = 0; line < lines.length; at += lines[line]!.length + 1, line++) lineStarts.push(at);
  let line = 0;
  let lineHasCode = false;
  /** Moves `line` on to the line holding `at`. */
  const reach = (at: number): void => {
    while (line + 1 < lines.length && lineStarts[line + 1]! <= at) {
      line++;
      lineHasCode = false;
    }
  };
  const markCode = (from: number, to: number): void => {
    for (let i = from; i < to; i++) {
      if (text[i] === '\n' || text[i] === ' ' || text[i] === '\t' || text[i] === '\r') continue;
      reach(i);
      code[line] = true;
      lineHasCode = true;
    }
  };
  let i = 0;
  while (i < text.length) {
    reach(i);
    const ch = text[i]!;
    if (ch === '\n' || ch === ' ' || ch === '\t' || ch === '\r') {
      i++;
      continue;
    }
    const atLineStart = i === lineStarts[line];
    if (atLineStart && syntax.dataSection?.test(lines[line]!)) break;
    const lineBlock = atLineStart ? syntax.lineBlocks.find(([open]) => open.test(lines[line]!)) : undefined;
    if (lineBlock !== undefined) {
      let end = line + 1;
      while (end < lines.length && !lineBlock[1].test(lines[end]!)) end++;
      i = end + 1 < lines.length ? lineStarts[end + 1]! : text.length;
      continue;
    }
    const pragma = startsAt(text, i, syntax.notBlocks ?? []);
    if (pragma !== undefined) {
      markCode(i, i + pragma.length);
      i += pragma.length;
      continue;
    }
    const block = pairAt(text, i, syntax.blocks);
    if (block !== undefined) {
      const end = closingOf(text, i, block, syntax.nested === true);
      if (end !== -1) {
        i = end;
        continue;
      }
    }
    const spanning = pairAt(text, i, syntax.spanning);
    if (spanning !== undefined) {
      const end = text.indexOf(spanning[1], i + spanning[0].length);
      if (end !== -1) {
        const after = end + spanning[1].length;
        // A triple-quoted string opening its line, nothing before it: a docstring, not code.
        if (!(syntax.docstrings === true && !lineHasCode)) markCode(i, after);
        i = after;
        continue;
      }
    }
    if (syntax.quotes.includes(ch)) {
      let end = i + 1;
      while (end < text.length && text[end] !== ch && text[end] !== '\n') end += text[end] === '\\' ? 2 : 1;
      const after = Math.min(text.length, text[end] === ch ? end + 1 : end);
      markCode(i, after);
      i = after;
      continue;
    }
    if (startsAt(text, i, syntax.lineComments) !== undefined) {
      const end = text.indexOf('\n', i);
      i = end === -1 ? text.length : end;
      continue;
    }
    markCode(i, i + 1);
    i++;
  }
  return code;
}

/** For each line, whether it is a comment line by the rule: it is not blank and holds no code. */
export function commentLines(lines: readonly string[], language: string): boolean[] {
  const code = codeLines(lines, language);
  return lines.map((text, i) => text.trim() !== '' && !code[i]);
}
