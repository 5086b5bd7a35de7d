/**
 * What the save rule reads of a copy: how many of its lines are code worth keeping, how many
 * tokens they hold, and whether the code defines something or opens a block. Lines that are only
 * punctuation (closing braces), imports, log or print calls, or a name set to a constant carry
 * no code of their own: a copy made of them is trivia however long it is, while a function of
 * two lines is what people save most. The fingerprint count used before depends on where the
 * winnowing windows fall (functions of two to five lines got 1 to 12) and saw no difference
 * between three imports and a function.
 */

export interface CodeShape {
  /** Lines holding code of their own (see the module comment). */
  readonly lines: number;
  /** Tokens on those lines. */
  readonly tokens: number;
  /** Whether the code defines something (a function, a class…) or opens a block. */
  readonly block: boolean;
}

/** First words of a line that brings in other code. */
const IMPORT_WORDS = new Set(['import', 'use', 'using', 'package', 'include', 'require', 'require_once', 'include_once', 'extern', 'library', 'from', 'mod']);
/** Objects whose method calls are logging, and functions that print. */
const LOG_OBJECTS = new Set(['console', 'logger', 'log', 'logging', 'Log', 'LOG', 'Logger', 'System', 'Console', 'Debug', 'Trace', 'fmt']);
const PRINT_CALLS = new Set(['print', 'println', 'printf', 'puts', 'echo', 'eprint', 'eprintln', 'dbg', 'p', 'pp', 'alert', 'NSLog', 'say']);
/** A line holding only one of these words closes a block. */
const CLOSERS = new Set(['end', 'fi', 'done', 'esac', 'endif', 'endwhile', 'endfor', 'endfunction']);
/** Words that start a definition, in the languages people copy from. */
const DEFINITIONS = new Set(['def', 'fn', 'func', 'function', 'fun', 'sub', 'class', 'struct', 'impl', 'trait', 'interface', 'enum', 'proc', 'macro', 'procedure']);
/** Last words of a line that opens a block (Ruby, shell, SQL). */
const BLOCK_ENDINGS = new Set(['do', 'then', 'begin']);
const CONSTANTS = new Set(['NUM', 'STR', 'true', 'false', 'null', 'nil', 'None', 'True', 'False', 'undefined']);

/** The shape of `text`, of which `tokens` are the code tokens and `starts` their offsets (see `tokenize`). */
export function codeShape(text: string, tokens: readonly string[], starts: readonly number[]): CodeShape {
  let lines = 0;
  let count = 0;
  let block = false;
  for (const line of tokenLines(text, tokens, starts)) {
    if (!isCode(line)) continue;
    lines++;
    count += line.length;
    block ||= opensBlock(line);
  }
  return { lines, tokens: count, block };
}

/** `tokens` grouped by the line each starts on (lines without tokens left out). */
function tokenLines(text: string, tokens: readonly string[], starts: readonly number[]): string[][] {
  const lines: string[][] = [];
  let line: string[] = [];
  let lineEnd = text.indexOf('\n');
  for (let i = 0; i < tokens.length; i++) {
    if (lineEnd !== -1 && starts[i]! > lineEnd) {
      if (line.length > 0) lines.push(line);
      line = [];
      while (lineEnd !== -1 && starts[i]! > lineEnd) lineEnd = text.indexOf('\n', lineEnd + 1);
    }
    line.push(tokens[i]!);
  }
  if (line.length > 0) lines.push(line);
  return lines;
}

function isIdentifier(token: string): boolean {
  return /^[\p{L}_$]/u.test(token) && token !== 'NUM' && token !== 'STR';
}

function isCode(line: readonly string[]): boolean {
  const words = line.filter(isIdentifier);
  if (words.length === 0) return false; // punctuation, numbers, string literals: closers and data
  if (words.length === 1 && CLOSERS.has(words[0]!)) return false;
  return !isImport(line, words) && !isLogCall(line) && !isConstant(line);
}

function isImport(line: readonly string[], words: readonly string[]): boolean {
  const first = words[0]!;
  if (line[0] !== first && line[0] !== '#' && line[0] !== '@') return false;
  if (first === 'from') return words.includes('import');
  if (first === 'using') return line[1] !== '('; // not C#'s `using (var x = …)` statement
  if (first === 'extern') return words[1] === 'crate';
  if (first === 'mod') return line.length <= 4;
  if (IMPORT_WORDS.has(first)) return true;
  // `const fs = require('fs')`, `import fs = require('fs')`
  const at = line.indexOf('require');
  return at > 0 && line[at + 1] === '(' && line.length <= at + 6;
}

/** A line that is one call to a logger or a print function (`console.log(…)`, `println!(…)`, `echo …`). */
function isLogCall(line: readonly string[]): boolean {
  let at = line[0] === 'await' ? 1 : 0;
  const chain: string[] = [];
  while (at < line.length && isIdentifier(line[at]!)) {
    chain.push(line[at]!);
    at++;
    // Members: `.`, `::`, `->`.
    if (line[at] === '.' && isIdentifier(line[at + 1] ?? '')) at++;
    else if ((line[at] === ':' && line[at + 1] === ':') || (line[at] === '-' && line[at + 1] === '>')) at += 2;
    else break;
  }
  if (chain.length === 0) return false;
  if (chain.length > 1) return LOG_OBJECTS.has(chain[0]!) && (line[at] === '(' || line[at] === '!');
  return PRINT_CALLS.has(chain[0]!);
}

/** `x = 1`, `const MAX = 5;`, `i += 1`, `name := "x"`: a name set to a constant. */
function isConstant(line: readonly string[]): boolean {
  let end = line.length;
  while (end > 0 && (line[end - 1] === ';' || line[end - 1] === ',')) end--;
  const assign = line.lastIndexOf('=', end - 1);
  if (assign <= 0 || line[assign + 1] === '=' || line[assign + 1] === '>' || line[assign - 1] === '=') return false;
  const value = line.slice(assign + 1, end);
  const constant = (value.length === 1 && (CONSTANTS.has(value[0]!) || value[0]!.startsWith('"'))) || (value.length === 2 && value[0] === '-' && value[1] === 'NUM');
  return constant && !line.slice(0, assign).includes('(');
}

function opensBlock(line: readonly string[]): boolean {
  const last = line[line.length - 1]!;
  if (last === '{' || last === ':') return true;
  if (line.length >= 2 && line[line.length - 1] === '>' && (line[line.length - 2] === '=' || line[line.length - 2] === '-')) return true;
  if (BLOCK_ENDINGS.has(last.toLowerCase())) return true;
  // Among the first words only (after `pub`, `export async`…): `fn` is also a common parameter name.
  return line.slice(0, 4).some((token) => DEFINITIONS.has(token));
}
