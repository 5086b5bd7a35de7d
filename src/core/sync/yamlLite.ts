/**
 * The part of YAML that front matter uses: block mappings and sequences (of scalars or of
 * mappings), flow sequences, plain, single- and double-quoted scalars and block scalars (`|`,
 * `>`). Enough for the vault's own files (written by frontMatter.ts), for hand edits of them (a
 * name typed unquoted on a Git host's web page) and for massCode's Markdown vault (js-yaml's dump).
 * Anchors, tags, multi-document streams and multi-line flow collections are not read: a file using
 * them fails with a YamlError naming the line.
 */

export type YamlValue = string | number | boolean | null | YamlValue[] | { [key: string]: YamlValue };

export class YamlError extends Error {}

interface Line {
  readonly indent: number;
  readonly text: string;
  readonly number: number;
}

/** Parses a YAML document made of the constructs above; an empty document is null. */
export function parseYaml(source: string): YamlValue {
  const lines: Line[] = [];
  source.split(/\r?\n/).forEach((raw, index) => {
    const text = raw.replace(/\s+$/, '');
    const trimmed = text.trimStart();
    if (trimmed === '' || trimmed.startsWith('#')) {
      // Kept: a block scalar's blank lines belong to it.
      lines.push({ indent: -1, text: '', number: index + 1 });
      return;
    }
    if (/^\t/.test(text)) throw new YamlError(`line ${index + 1}: tabs cannot indent YAML`);
    lines.push({ indent: text.length - trimmed.length, text: trimmed, number: index + 1 });
  });
  const reader = new Reader(lines);
  reader.skipBlank();
  if (reader.done()) return null;
  const value = reader.block(reader.peek().indent);
  reader.skipBlank();
  if (!reader.done()) throw new YamlError(`line ${reader.peek().number}: unexpected indentation`);
  return value;
}

class Reader {
  private at = 0;
  private readonly lines: readonly Line[];

  constructor(lines: readonly Line[]) {
    this.lines = lines;
  }

  done(): boolean {
    return this.at >= this.lines.length;
  }

  peek(): Line {
    return this.lines[this.at]!;
  }

  skipBlank(): void {
    while (!this.done() && this.peek().indent < 0) this.at++;
  }

  /** The block (mapping or sequence) whose lines start at `indent`. */
  block(indent: number): YamlValue {
    this.skipBlank();
    const first = this.peek();
    return isItem(first.text) ? this.sequence(indent) : this.mapping(indent);
  }

  private sequence(indent: number): YamlValue[] {
    const items: YamlValue[] = [];
    for (this.skipBlank(); !this.done() && this.peek().indent === indent && isItem(this.peek().text); this.skipBlank()) {
      const line = this.peek();
      this.at++;
      const rest = line.text.slice(1).trimStart();
      if (rest === '') {
        items.push(this.nested(indent));
        continue;
      }
      const itemIndent = indent + (line.text.length - rest.length);
      if (isItem(rest)) throw new YamlError(`line ${line.number}: nested sequences on one line are not read`);
      const entry = keyOf(rest);
      if (entry !== undefined) {
        // A mapping whose first entry shares the dash's line; the others are indented under it.
        items.push(this.mapping(itemIndent, { key: entry.key, rest: entry.rest, line }));
        continue;
      }
      items.push(this.scalarOrBlock(rest, line, indent));
    }
    return items;
  }

  private mapping(indent: number, first?: { key: string; rest: string; line: Line }): { [key: string]: YamlValue } {
    const out: { [key: string]: YamlValue } = {};
    const take = (key: string, rest: string, line: Line): void => {
      if (Object.hasOwn(out, key)) throw new YamlError(`line ${line.number}: the key ${JSON.stringify(key)} appears twice`);
      if (rest === '') {
        // `key:` then a nested block, or a sequence at the key's own indentation (js-yaml's noArrayIndent).
        this.skipBlank();
        const next = this.done() ? undefined : this.peek();
        out[key] = next && (next.indent > indent || (next.indent === indent && isItem(next.text))) ? this.block(next.indent) : null;
        return;
      }
      out[key] = this.scalarOrBlock(rest, line, indent);
    };
    if (first) take(first.key, first.rest, first.line);
    for (this.skipBlank(); !this.done() && this.peek().indent === indent && !isItem(this.peek().text); this.skipBlank()) {
      const line = this.peek();
      this.at++;
      const entry = keyOf(line.text);
      if (entry === undefined) throw new YamlError(`line ${line.number}: expected "key: value"`);
      take(entry.key, entry.rest, line);
    }
    return out;
  }

  /** An item written as `-` alone on its line: what is indented under it. */
  private nested(indent: number): YamlValue {
    this.skipBlank();
    if (this.done() || this.peek().indent <= indent) return null;
    return this.block(this.peek().indent);
  }

  private scalarOrBlock(text: string, line: Line, parentIndent: number): YamlValue {
    const header = /^([|>])([+-]?)(\d?)\s*(#.*)?$/.exec(text);
    if (header) return this.blockScalar(header[1] === '>', header[2] ?? '', parentIndent);
    return scalar(text, line.number);
  }

  /** `|` keeps line breaks, `>` folds them; `-` strips the final break, `+` keeps every trailing one. */
  private blockScalar(folded: boolean, chomp: string, parentIndent: number): string {
    const body: Array<string | undefined> = [];
    let indent: number | undefined;
    while (!this.done()) {
      const line = this.peek();
      if (line.indent < 0) {
        body.push(undefined);
        this.at++;
        continue;
      }
      if (line.indent <= parentIndent) break;
      indent ??= line.indent;
      if (line.indent < indent) break;
      body.push(' '.repeat(line.indent - indent) + line.text);
      this.at++;
    }
    let trailing = 0;
    while (body.length > 0 && body[body.length - 1] === undefined) {
      body.pop();
      trailing++;
    }
    const texts = body.map((text) => text ?? '');
    let value = folded ? fold(texts) : texts.join('\n');
    if (texts.length === 0) return '';
    if (chomp === '+') value += '\n'.repeat(trailing + 1);
    else if (chomp !== '-') value += '\n';
    return value;
  }
}

function fold(lines: readonly string[]): string {
  let out = '';
  lines.forEach((line, index) => {
    if (index === 0) out = line;
    else if (line === '' || line.startsWith(' ') || lines[index - 1] === '' || lines[index - 1]!.startsWith(' ')) out += '\n' + line;
    else out += ' ' + line;
  });
  return out;
}

function isItem(text: string): boolean {
  return text === '-' || text.startsWith('- ');
}

/** `key: rest` (a quoted key too); undefined when the text is not a mapping entry. */
function keyOf(text: string): { key: string; rest: string } | undefined {
  if (text.startsWith('"') || text.startsWith("'")) {
    const end = quotedEnd(text);
    if (end < 0 || text[end + 1] !== ':' || (text.length > end + 2 && text[end + 2] !== ' ')) return undefined;
    return { key: String(scalar(text.slice(0, end + 1), 0)), rest: text.slice(end + 2).trim() };
  }
  const match = /^([^\s#"'[\]{},][^:#]*?|[^\s#"'[\]{},]):(?:\s+(.*))?$/.exec(text);
  if (!match) return undefined;
  return { key: match[1]!.trim(), rest: stripComment(match[2] ?? '').trim() };
}

/** Index of the closing quote of the quoted scalar `text` opens with, or -1. */
function quotedEnd(text: string): number {
  const quote = text[0];
  for (let i = 1; i < text.length; i++) {
    if (quote === '"' && text[i] === '\\') {
      i++;
      continue;
    }
    if (text[i] === quote) {
      if (quote === "'" && text[i + 1] === "'") {
        i++;
        continue;
      }
      return i;
    }
  }
  return -1;
}

function stripComment(text: string): string {
  if (text.startsWith('"') || text.startsWith("'")) {
    const end = quotedEnd(text);
    return end < 0 ? text : text.slice(0, end + 1);
  }
  const at = text.search(/\s#/);
  return at < 0 ? text : text.slice(0, at);
}

const ESCAPES: Record<string, string> = {
  '0': '\0', a: '\x07', b: '\b', t: '\t', '\t': '\t', n: '\n', v: '\v', f: '\f', r: '\r', e: '\x1b',
  ' ': ' ', '"': '"', '/': '/', '\\': '\\', N: '\x85', _: '\xa0', L: '\u2028', P: '\u2029',
};

function doubleQuoted(body: string, number: number): string {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = body[++i];
    if (e === undefined) throw new YamlError(`line ${number}: a string ends in a backslash`);
    const width = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
    if (width > 0) {
      const hex = body.slice(i + 1, i + 1 + width);
      if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== width) throw new YamlError(`line ${number}: bad escape \\${e}${hex}`);
      out += String.fromCodePoint(parseInt(hex, 16));
      i += width;
      continue;
    }
    const escaped = ESCAPES[e];
    if (escaped === undefined) throw new YamlError(`line ${number}: unknown escape \\${e}`);
    out += escaped;
  }
  return out;
}

function scalar(raw: string, number: number): YamlValue {
  const text = stripComment(raw).trim();
  if (text.startsWith('"') || text.startsWith("'")) {
    const end = quotedEnd(text);
    if (end !== text.length - 1) throw new YamlError(`line ${number}: a quoted string does not end where its line does`);
    const body = text.slice(1, -1);
    return text[0] === '"' ? doubleQuoted(body, number) : body.replace(/''/g, "'");
  }
  if (text.startsWith('[')) {
    if (!text.endsWith(']')) throw new YamlError(`line ${number}: flow sequences must end on their line`);
    return splitFlow(text.slice(1, -1)).map((item) => scalar(item, number));
  }
  if (text === '{}') return {};
  if (text.startsWith('{')) throw new YamlError(`line ${number}: flow mappings are not read`);
  if (text === '' || text === '~' || text === 'null' || text === 'Null' || text === 'NULL') return null;
  if (/^(true|True|TRUE)$/.test(text)) return true;
  if (/^(false|False|FALSE)$/.test(text)) return false;
  if (/^[-+]?(0|[1-9][0-9]*)$/.test(text)) {
    const n = Number(text);
    return Number.isSafeInteger(n) ? n : text;
  }
  if (/^[-+]?([0-9]+\.[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/.test(text)) return Number(text);
  return text;
}

function splitFlow(body: string): string[] {
  const items: string[] = [];
  let current = '';
  let quote: string | undefined;
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (quote) {
      current += c;
      if (quote === '"' && c === '\\') current += body[++i] ?? '';
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") {
      quote = c;
      current += c;
    } else if (c === ',') {
      items.push(current);
      current = '';
    } else current += c;
  }
  if (current.trim() !== '' || items.length > 0) items.push(current);
  return items.map((item) => item.trim()).filter((item, index, all) => item !== '' || index < all.length - 1);
}
