/**
 * VS Code snippet syntax (https://code.visualstudio.com/docs/editing/userdefinedsnippets#_snippet-syntax),
 * read the way VS Code's own SnippetParser reads it: `$1`, `${1:default}`, `${1|a,b|}`, `$NAME`,
 * `${NAME:default}`, with `\` escaping `$`, `}` and `\`. A snippet that is snippet syntax is
 * inserted as it is (its tab stops become tab stops); plain code is escaped first, so a `$` in a
 * shell or PHP snippet stays a `$`.
 */

/** Today's date and the time as VS Code's snippet variables write them (what other tools' date placeholders become). */
export const SNIPPET_DATE = '$CURRENT_YEAR-$CURRENT_MONTH-$CURRENT_DATE';
export const SNIPPET_TIME = '$CURRENT_HOUR:$CURRENT_MINUTE';

/** What an insertion needs to know of a snippet: its text, and whether that text is snippet syntax. */
export interface InsertableText {
  readonly text: string;
  readonly syntax: boolean;
}

/**
 * `text` as snippet syntax that inserts exactly `text`: `$`, `}` and `\` escaped, the characters
 * VS Code's `SnippetString.appendText` escapes.
 */
export function escapeSnippetText(text: string): string {
  return text.replace(/[$}\\]/g, '\\$&');
}

/** The snippet-syntax body an insertion hands to VS Code: the text itself, or the escaped plain text. */
export function snippetBody(snippet: InsertableText): string {
  return snippet.syntax ? snippet.text : escapeSnippetText(snippet.text);
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
const isNameStart = (c: string | undefined): boolean => c !== undefined && (c === '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'));
const isNameChar = (c: string | undefined): boolean => isNameStart(c) || isDigit(c);

/**
 * Whether `body` uses any snippet feature (a tab stop, placeholder, choice or variable). A body
 * without one inserts as its unescaped text (`literalText`), so it is plain code in disguise.
 */
export function hasSnippetFeatures(body: string): boolean {
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '\\') {
      if (body[i + 1] === '$' || body[i + 1] === '}' || body[i + 1] === '\\') i++;
    } else if (c === '$') {
      const next = body[i + 1];
      if (isDigit(next) || isNameStart(next) || (next === '{' && (isDigit(body[i + 2]) || isNameStart(body[i + 2])))) return true;
    }
  }
  return false;
}

/**
 * Where the tab stops and placeholders of `body` are, as [start, end) offsets of each outermost one
 * (`$1`, `${1:name}`, `${1|a,b|}`): what a preview highlights.
 */
export function tabStopSpans(body: string): Array<readonly [number, number]> {
  const spans: Array<readonly [number, number]> = [];
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '\\') {
      i++;
      continue;
    }
    if (body[i] !== '$') continue;
    if (isDigit(body[i + 1])) {
      let end = i + 1;
      while (isDigit(body[end])) end++;
      spans.push([i, end]);
      i = end - 1;
    } else if (body[i + 1] === '{' && isDigit(body[i + 2])) {
      // To the `}` that closes it, past nested placeholders and escapes.
      let depth = 0;
      let end = i + 1;
      for (; end < body.length; end++) {
        if (body[end] === '\\') end++;
        else if (body[end] === '{') depth++;
        else if (body[end] === '}' && --depth === 0) break;
      }
      if (end >= body.length) continue;
      spans.push([i, end + 1]);
      i = end;
    }
  }
  return spans;
}

/** What a body without snippet features inserts: its text with the escapes of `$`, `}` and `\` undone. */
export function literalText(body: string): string {
  return body.replace(/\\([$}\\])/g, '$1');
}

/**
 * What a snippet body inserts before the user types anything: placeholders show their default
 * (and so do the tab stops linked to them), a choice its first option, a variable its default or
 * its name, other tab stops nothing. For previews.
 */
export function renderSnippet(body: string): string {
  // A mirror may come before the placeholder that gives it its text: the first reading finds the defaults.
  const defaults = new Map<string, string>();
  new Renderer(body, defaults).any(new Set());
  return new Renderer(body, defaults).any(new Set());
}

/**
 * A recursive-descent reading of the grammar. Where VS Code's parser gives up on a construct it
 * keeps the characters as text; this does the same (`${1:unclosed` renders as written).
 */
class Renderer {
  private readonly body: string;
  /** Tab stop → the text its placeholder or choice shows. */
  private readonly defaults: Map<string, string>;
  private at = 0;

  constructor(body: string, defaults: Map<string, string>) {
    this.body = body;
    this.defaults = defaults;
  }

  /** Text and constructs up to the end, or up to a character of `stops` (unescaped) that ends the enclosing construct. */
  any(stops: ReadonlySet<string>): string {
    let out = '';
    while (this.at < this.body.length) {
      const c = this.body[this.at]!;
      if (stops.has(c)) break;
      if (c === '\\' && this.at + 1 < this.body.length && (this.body[this.at + 1] === '$' || this.body[this.at + 1] === '}' || this.body[this.at + 1] === '\\' || stops.has(this.body[this.at + 1]!))) {
        out += this.body[this.at + 1];
        this.at += 2;
      } else if (c === '$') {
        out += this.dollar();
      } else {
        out += c;
        this.at++;
      }
    }
    return out;
  }

  private dollar(): string {
    const start = this.at;
    this.at++;
    const next = this.body[this.at];
    if (isDigit(next)) return this.defaults.get(this.number()) ?? '';
    if (isNameStart(next)) return this.name();
    if (next === '{') {
      this.at++;
      const rendered = this.braced();
      if (rendered !== undefined) return rendered;
    }
    // Not a construct: the `$` is text.
    this.at = start + 1;
    return '$';
  }

  private number(): string {
    const start = this.at;
    while (isDigit(this.body[this.at])) this.at++;
    return this.body.slice(start, this.at);
  }

  private name(): string {
    const start = this.at;
    while (isNameChar(this.body[this.at])) this.at++;
    return this.body.slice(start, this.at);
  }

  /** After `${`: a tab stop, placeholder, choice or variable; undefined when it is none (the caller backs off). */
  private braced(): string | undefined {
    const c = this.body[this.at];
    const isTabStop = isDigit(c);
    if (!isTabStop && !isNameStart(c)) return undefined;
    const label = isTabStop ? this.number() : this.name();
    const after = this.body[this.at];
    if (after === '}') {
      this.at++;
      return isTabStop ? (this.defaults.get(label) ?? '') : label;
    }
    if (after === ':') {
      this.at++;
      const inner = this.any(new Set(['}']));
      if (this.body[this.at] !== '}') return undefined;
      this.at++;
      if (isTabStop && !this.defaults.has(label)) this.defaults.set(label, inner);
      return inner;
    }
    if (after === '|' && isTabStop) {
      this.at++;
      const first = this.any(new Set([',', '|']));
      while (this.body[this.at] === ',') {
        this.at++;
        this.any(new Set([',', '|']));
      }
      if (this.body.slice(this.at, this.at + 2) !== '|}') return undefined;
      this.at += 2;
      if (!this.defaults.has(label)) this.defaults.set(label, first);
      return first;
    }
    if (after === '/') {
      // A transform (`${1/regex/format/flags}`, `${NAME/…}`): what it makes is known only at insertion.
      if (!this.transform()) return undefined;
      return isTabStop ? (this.defaults.get(label) ?? '') : label;
    }
    return undefined;
  }

  /** Skips `/regex/format/options}` (the format may hold `${1:/upcase}`); false when it does not close. */
  private transform(): boolean {
    this.at++;
    for (let part = 0; part < 2; part++) {
      for (;;) {
        const c = this.body[this.at];
        if (c === undefined) return false;
        if (c === '\\') this.at += 2;
        else if (c === '/') break;
        else if (part === 1 && c === '$' && this.body[this.at + 1] === '{') {
          const close = this.body.indexOf('}', this.at);
          if (close === -1) return false;
          this.at = close + 1;
        } else this.at++;
      }
      this.at++;
    }
    const close = this.body.indexOf('}', this.at);
    if (close === -1 || !/^[a-z]*$/i.test(this.body.slice(this.at, close))) return false;
    this.at = close + 1;
    return true;
  }
}
