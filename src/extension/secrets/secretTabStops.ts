/**
 * Replace Secret with Placeholder, apart from VS Code: each value in a snippet becomes a tab stop named for
 * what it was (`${1:AWS_SECRET_ACCESS_KEY}`), so the snippet stays a useful template: inserting it puts the
 * cursor where the user's own key goes. Plain code becomes snippet syntax on the way (its `$`, `}` and `\`
 * escaped, so it still inserts as written); a snippet that already is a template keeps its tab stops, and
 * the new ones are numbered after them.
 */
import { escapeSnippetText } from '../../core/snippets/snippetSyntax.ts';
import { categoryName } from './snippetSecrets.ts';

/** A value to replace: its span in the text, and what it is (for the tab stop's name). */
export interface ValueSpan {
  readonly start: number;
  readonly end: number;
  readonly label: string;
  readonly category: string;
}

/** "AWS secret access key" → "AWS_SECRET_ACCESS_KEY": a name a template's reader recognises, safe inside `${1:…}`. */
export function tabStopName(label: string, category: string): string {
  const name = (text: string) =>
    text
      .toUpperCase()
      .replace(/[^A-Z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '');
  return name(label) || name(categoryName(category)) || 'SECRET';
}

/** The highest tab stop number a snippet body uses (`$3`, `${3:x}`, `${3|a,b|}`), 0 when none. */
export function highestTabStop(body: string): number {
  let highest = 0;
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '\\') {
      i++;
      continue;
    }
    if (body[i] !== '$') continue;
    let at = body[i + 1] === '{' ? i + 2 : i + 1;
    let digits = '';
    while (at < body.length && body[at]! >= '0' && body[at]! <= '9') digits += body[at++];
    if (digits) highest = Math.max(highest, Number(digits));
  }
  return highest;
}

export interface TabStopResult {
  /** The new snippet body (snippet syntax). */
  readonly text: string;
  /** How many values were replaced. */
  readonly replaced: number;
}

/**
 * `text` with each span replaced by a tab stop. `syntax`: whether `text` already is snippet syntax (then it
 * is kept as written); plain code is escaped around the tab stops. The same value twice is one tab stop
 * (`${1:TOKEN}` … `$1`: typing the key once fills both); two different values of one kind get two names
 * (`TOKEN`, `TOKEN_2`). Spans may come in any order; overlapping ones count once. Linear in the text.
 */
export function replaceWithTabStops(text: string, syntax: boolean, spans: readonly ValueSpan[]): TabStopResult {
  const ordered = spans
    .filter((span) => span.start >= 0 && span.end > span.start && span.end <= text.length)
    .sort((a, b) => a.start - b.start || b.end - a.end);
  let next = (syntax ? highestTabStop(text) : 0) + 1;
  const byValue = new Map<string, number>();
  const names = new Map<string, number>();
  const plain = (segment: string) => (syntax ? segment : escapeSnippetText(segment));
  let out = '';
  let at = 0;
  let replaced = 0;
  for (const span of ordered) {
    if (span.start < at) continue;
    out += plain(text.slice(at, span.start));
    const value = text.slice(span.start, span.end);
    const known = byValue.get(value);
    if (known !== undefined) {
      out += `$${known}`;
    } else {
      const number = next++;
      byValue.set(value, number);
      const base = tabStopName(span.label, span.category);
      const seen = (names.get(base) ?? 0) + 1;
      names.set(base, seen);
      out += `\${${number}:${seen === 1 ? base : `${base}_${seen}`}}`;
    }
    at = span.end;
    replaced++;
  }
  return { text: out + plain(text.slice(at)), replaced };
}
