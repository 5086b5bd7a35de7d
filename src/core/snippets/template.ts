/**
 * A snippet template made from a selection: identifiers the selection repeats and its string
 * literals become placeholders (every occurrence of one name linked to one tab stop), the rest is
 * kept as it is with `$` and `\` escaped. Keywords, well-known globals, property names after `.`
 * and anything inside a comment or a string never become placeholders. The tokenizer is
 * language-agnostic (C-like strings and comments), with `#`/`--` comments and Rust lifetimes where
 * the language says so; the user sees the result before it is saved.
 */
import type { ClassificationSpecific } from '../piecesTypes.ts';

export interface TemplateStop {
  /** The tab stop's number (1, 2, …), in the order the placeholders first appear. */
  readonly index: number;
  /** The default text: the identifier, or the string literal's content. */
  readonly placeholder: string;
  readonly kind: 'identifier' | 'string';
  readonly occurrences: number;
}

export interface SnippetTemplate {
  /** VS Code snippet syntax. */
  readonly body: string;
  readonly stops: readonly TemplateStop[];
}

/** More tab stops than this make a template a chore to fill: the most repeated are kept. */
export const MAX_STOPS = 10;

type Token =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'identifier'; readonly sigil: string; readonly name: string; readonly member: boolean }
  | { readonly kind: 'string'; readonly open: string; readonly inner: string; readonly close: string; readonly literal: boolean };

export function templateFromSelection(text: string, language?: ClassificationSpecific | string): SnippetTemplate {
  const tokens = tokenize(text, language);
  // Candidates: identifiers seen at least twice (outside strings and comments, not after `.`) and every non-empty string literal.
  const counts = new Map<string, { kind: TemplateStop['kind']; placeholder: string; occurrences: number; first: number }>();
  tokens.forEach((token, position) => {
    const key = keyOf(token, language);
    if (key === undefined) return;
    const entry = counts.get(key);
    if (entry) entry.occurrences++;
    else counts.set(key, { kind: token.kind === 'string' ? 'string' : 'identifier', placeholder: token.kind === 'string' ? token.inner : token.kind === 'identifier' ? token.name : '', occurrences: 1, first: position });
  });
  const chosen = [...counts.entries()]
    .filter(([, entry]) => entry.kind === 'string' || entry.occurrences >= 2)
    .sort((a, b) => b[1].occurrences - a[1].occurrences || a[1].first - b[1].first)
    .slice(0, MAX_STOPS)
    .sort((a, b) => a[1].first - b[1].first);
  const indexOf = new Map(chosen.map(([key], i) => [key, i + 1]));
  const stops: TemplateStop[] = chosen.map(([, entry], i) => ({ index: i + 1, placeholder: entry.placeholder, kind: entry.kind, occurrences: entry.occurrences }));

  const seen = new Set<number>();
  let body = '';
  for (const token of tokens) {
    const key = keyOf(token, language);
    const index = key === undefined ? undefined : indexOf.get(key);
    if (token.kind === 'text') {
      body += escapeText(token.text);
    } else if (token.kind === 'identifier') {
      body += escapeText(token.sigil) + (index === undefined ? escapeText(token.name) : stop(index, token.name, seen));
    } else {
      body += escapeText(token.open) + (index === undefined ? escapeText(token.inner) : stop(index, token.inner, seen)) + escapeText(token.close);
    }
  }
  return { body, stops };
}

/** A prefix proposed for a template named `name`: an identifier as it is, words joined in camelCase; short enough to type. */
export function prefixFromName(name: string): string {
  const trimmed = name.trim();
  if (/^[\p{L}_$][\p{L}\p{N}_$]*$/u.test(trimmed)) return trimmed.slice(0, 24);
  const words = trimmed.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean).slice(0, 4);
  return words.map((word, i) => (i === 0 ? word : word[0]!.toUpperCase() + word.slice(1))).join('').slice(0, 24);
}

/** The first occurrence carries the default (`${1:name}`); the others mirror it (`$1`), as VS Code links them. */
function stop(index: number, placeholder: string, seen: Set<number>): string {
  if (seen.has(index)) return `$${index}`;
  seen.add(index);
  return `\${${index}:${escapePlaceholder(placeholder)}}`;
}

function keyOf(token: Token, language: string | undefined): string | undefined {
  if (token.kind === 'identifier') return token.member || isReserved(token.name, language) ? undefined : `i:${token.name}`;
  if (token.kind === 'string') return token.literal && token.inner !== '' && !token.inner.includes('\n') ? `s:${token.open}${token.inner}` : undefined;
  return undefined;
}

/** Outside placeholders only `$` and `\` mean something to the snippet parser. */
function escapeText(text: string): string {
  return text.replace(/[$\\]/g, '\\$&');
}

/** Inside a placeholder `}` ends it, so it is escaped too. */
function escapePlaceholder(text: string): string {
  return text.replace(/[$}\\]/g, '\\$&');
}

// ---------------------------------------------------------------- tokenizer

const HASH_COMMENTS = new Set(['py', 'sh', 'rb', 'pl', 'r', 'yaml', 'toml', 'ps1', 'ex', 'jl', 'coffee', 'dockerfile', 'hljs-makefile', 'hljs-cmake', 'ini', 'nim', 'tcl', 'graphql']);
const DASH_COMMENTS = new Set(['sql', 'lua', 'hs', 'elm', 'ada']);
/** Languages whose `'` also starts a lifetime or a type variable (`'a`), not only a character literal. */
const TICK_NAMES = new Set(['rs', 'ml', 'fs', 'scala']);
const IDENT = /[\p{L}\p{N}_]/u;
const IDENT_START = /[\p{L}_]/u;

function tokenize(text: string, language?: string): Token[] {
  const tokens: Token[] = [];
  let plain = '';
  const flush = (): void => {
    if (plain !== '') tokens.push({ kind: 'text', text: plain });
    plain = '';
  };
  const hash = language !== undefined && HASH_COMMENTS.has(language);
  const dash = language !== undefined && DASH_COMMENTS.has(language);
  const ticks = language !== undefined && TICK_NAMES.has(language);
  let previous = '';
  for (let i = 0; i < text.length; ) {
    const c = text[i]!;
    const next = text[i + 1];
    // Comments: kept as text, never placeholders.
    const lineComment = (c === '/' && next === '/') || (hash && c === '#') || (dash && c === '-' && next === '-');
    if (lineComment) {
      const end = text.indexOf('\n', i);
      const stopAt = end === -1 ? text.length : end;
      plain += text.slice(i, stopAt);
      i = stopAt;
      continue;
    }
    if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      const stopAt = end === -1 ? text.length : end + 2;
      plain += text.slice(i, stopAt);
      i = stopAt;
      continue;
    }
    if (c === '"' || c === "'" || c === '`') {
      const literal = readString(text, i, ticks);
      if (literal) {
        flush();
        tokens.push(literal.token);
        i = literal.end;
        previous = c;
        continue;
      }
    }
    if (IDENT_START.test(c) || (c === '$' && next !== undefined && IDENT_START.test(next))) {
      const sigil = c === '$' ? '$' : '';
      let end = i + sigil.length;
      while (end < text.length && IDENT.test(text[end]!)) end++;
      const name = text.slice(i + sigil.length, end);
      flush();
      tokens.push({ kind: 'identifier', sigil, name, member: isMemberAccess(previous, text, i) });
      previous = name.at(-1)!;
      i = end;
      continue;
    }
    if (/[\p{N}]/u.test(c)) {
      // A number with its suffix (`10px`, `0x1f`, `1e9`) is text, not an identifier.
      let end = i + 1;
      while (end < text.length && IDENT.test(text[end]!)) end++;
      plain += text.slice(i, end);
      previous = text[end - 1]!;
      i = end;
      continue;
    }
    plain += c;
    if (!/\s/.test(c)) previous = c;
    i++;
  }
  flush();
  return tokens;
}

/** After `.`, `->` or `::` a name is a member or a path segment: an API's name, not one the snippet chose. */
function isMemberAccess(previous: string, text: string, at: number): boolean {
  if (previous === '.') return text[at - 1] !== '.' || text[at - 2] !== '.';
  if (previous === '>' || previous === ':') {
    let before = at - 1;
    while (before > 0 && /\s/.test(text[before]!)) before--;
    const pair = text.slice(before - 1, before + 1);
    return pair === '->' || pair === '::';
  }
  return false;
}

/** A string literal starting at `at`, or undefined when the quote opens none (unclosed on its line, a lifetime). */
function readString(text: string, at: number, ticks: boolean): { token: Token; end: number } | undefined {
  const quote = text[at]!;
  const triple = text.slice(at, at + 3);
  if ((quote === '"' || quote === "'") && triple === quote.repeat(3)) {
    // Python's triple-quoted strings (docstrings): text, never a placeholder.
    const end = text.indexOf(triple, at + 3);
    const stopAt = end === -1 ? text.length : end + 3;
    return { token: { kind: 'string', open: text.slice(at, stopAt), inner: '', close: '', literal: false }, end: stopAt };
  }
  let i = at + 1;
  for (; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === quote) break;
    // Only template literals span lines; any other quote left open on its line is no string.
    if (c === '\n' && quote !== '`') return undefined;
  }
  if (i >= text.length) return undefined;
  const inner = text.slice(at + 1, i);
  // `'a` in Rust or OCaml: a lifetime or type variable; `'a'` is a character literal.
  if (ticks && quote === "'" && /^\p{L}/u.test(inner) && inner.length > 1 && !inner.startsWith('\\')) return undefined;
  // A template literal that interpolates is code as much as text.
  const literal = !(quote === '`' && inner.includes('${'));
  return { token: { kind: 'string', open: quote, inner, close: quote, literal }, end: i + 1 };
}

// ---------------------------------------------------------------- words that are never placeholders

/** Keywords of the common languages, literals, and the globals everyone uses. */
const RESERVED = new Set(
  `abstract and as assert async await auto base bool boolean break byte case catch char chan class const constexpr continue
  crate debugger declare def default defer del delete do double dyn elif else end enum except explicit export extends extern
  false final finally float fn for foreach fun func function go goto if impl implements import in inline instanceof int interface
  internal is keyof lambda let long loop match mod module move mut namespace native new nil none nonlocal not null object of
  open operator or out override package pass private protected pub public raise readonly ref register remove return sealed
  select self short signed sizeof static struct super switch synchronized template then this throw throws trait true try type
  typedef typeof uint union unless unsafe unsigned until use using val var virtual void volatile when where while with yield
  string number any unknown never undefined symbol bigint str usize isize u8 u16 u32 u64 i8 i16 i32 i64 f32 f64 rune error
  None True False NULL nullptr Self Some Ok Err Option Result Vec String Box echo local fi esac done elsif begin rescue ensure
  require include extern println printf print len range dict list set tuple map filter console window document process
  Math JSON Object Array Number Boolean Promise Error Date RegExp Map Set Symbol exports fetch setTimeout setInterval
  clearTimeout parseInt parseFloat isNaN os sys fmt log main args argv std io
  SELECT FROM WHERE AND OR NOT INSERT INTO VALUES UPDATE DELETE CREATE TABLE DROP ALTER JOIN LEFT RIGHT INNER OUTER ON GROUP BY
  ORDER HAVING LIMIT OFFSET AS DISTINCT NULL IS IN LIKE BETWEEN UNION ALL ASC DESC PRIMARY KEY INDEX SET CASE WHEN THEN ELSE END`
    .split(/\s+/)
    .filter(Boolean),
);

/** Reserved, or a one-letter name (`i`, `x`: every loop repeats one; a placeholder for it is noise). */
function isReserved(name: string, language: string | undefined): boolean {
  return name.length === 1 || RESERVED.has(name) || (language === 'sql' && RESERVED.has(name.toUpperCase()));
}
