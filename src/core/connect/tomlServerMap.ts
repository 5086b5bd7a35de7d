/**
 * Servers kept as TOML tables `[<container>.<name>]` (Codex's `[mcp_servers.satchel]`). No well-kept
 * TOML library for JavaScript edits a document in place (smol-toml and @iarna/toml parse to values
 * and write fresh text, losing comments and layout), so the edit is made on the text: the lines of
 * one server's table (and its sub-tables such as `[mcp_servers.x.env]`) are replaced or removed,
 * and a new server's table is appended. smol-toml parses the result, and the caller checks that
 * nothing but the named entries changed; a server written another way (an inline table, dotted keys
 * under `[mcp_servers]`) is refused rather than guessed at.
 */
import { parse, stringify, TomlError } from 'smol-toml';
import { ConfigFileError, isRecord, without, type ServerMap, type ServerMapReader } from './serverMap.ts';

export function tomlServerMap(container: string): ServerMapReader {
  return (text, file) => new TomlServerMap(text, file, container);
}

interface Header {
  /** The line's index. */
  readonly line: number;
  /** The table's dotted key, unquoted. */
  readonly path: readonly string[];
}

class TomlServerMap implements ServerMap {
  private lines: string[];
  private readonly eol: string;
  private readonly file: string;
  private readonly container: string;

  constructor(text: string, file: string, container: string) {
    this.file = file;
    this.container = container;
    this.eol = text.includes('\r\n') ? '\r\n' : '\n';
    this.lines = text === '' ? [] : text.split(/\r?\n/);
    const servers = this.document()[container];
    if (servers !== undefined && !isRecord(servers)) throw new ConfigFileError(file, `"${container}" is not a table`);
  }

  entries(): ReadonlyMap<string, unknown> {
    const servers = this.document()[this.container];
    return new Map(isRecord(servers) ? Object.entries(servers) : []);
  }

  rest(): unknown {
    return without(this.document(), [this.container]);
  }

  set(key: string, value: unknown): void {
    const rendered = stringify({ [this.container]: { [key]: value } }).trimEnd().split('\n');
    const blocks = this.blocksOf(key);
    if (blocks.length === 0) {
      while (this.lines.length > 0 && this.lines.at(-1)?.trim() === '') this.lines.pop();
      this.lines.push(...(this.lines.length > 0 ? [''] : []), ...rendered, '');
      return;
    }
    // Blocks come last first: the later ones go, and the earliest (its place unmoved) is rewritten.
    const first = blocks.at(-1);
    if (first === undefined) return;
    this.removeBlocks(blocks.slice(0, -1));
    // The last table keeps the file's final line end; another keeps the blank lines before the next.
    this.lines.splice(first.start, first.end - first.start, ...rendered, ...(first.end >= this.lines.length ? [''] : []));
  }

  delete(key: string): void {
    this.removeBlocks(this.blocksOf(key));
  }

  text(): string {
    return this.lines.join(this.eol);
  }

  /** The text's blocks that make up server `key`'s tables, last first (so removing keeps indices valid). */
  private blocksOf(key: string): Block[] {
    const headers = this.headers();
    const blocks: Block[] = [];
    headers.forEach((header, index) => {
      const [container, name] = header.path;
      if (container !== this.container || name !== key) return;
      let end = headers[index + 1]?.line ?? this.lines.length;
      // Blank lines and comments just before the next table belong to it, not to this one.
      while (end > header.line + 1 && /^\s*(#.*)?$/.test(this.lines[end - 1] ?? '') && index + 1 < headers.length) end--;
      blocks.push({ start: header.line, end });
    });
    return blocks.reverse();
  }

  private removeBlocks(blocks: readonly Block[]): void {
    for (const { start, end } of blocks) {
      this.lines.splice(start, end - start);
      // No gap of two blank lines (nor a blank first line) is left where the block was.
      while (this.lines[start]?.trim() === '' && (start === 0 || this.lines[start - 1]?.trim() === '') && start < this.lines.length - 1) {
        this.lines.splice(start, 1);
      }
    }
  }

  private headers(): Header[] {
    const found: Header[] = [];
    let inMultiline: string | undefined;
    this.lines.forEach((text, line) => {
      // A line inside a multi-line string is never a header, whatever it looks like.
      for (const quote of text.match(/"""|'''/g) ?? []) inMultiline = inMultiline === undefined ? quote : inMultiline === quote ? undefined : inMultiline;
      if (inMultiline !== undefined) return;
      // Greedy and trimmed after: a lazy key before `\s*\]` rescanned the spaces at each step (quadratic on a long line).
      const match = /^\s*\[\[?([^\]]*)\]\]?\s*(#.*)?$/.exec(text);
      const key = match?.[1]?.trim();
      const path = key ? dottedKey(key) : undefined;
      if (path) found.push({ line, path });
    });
    return found;
  }

  private document(): Record<string, unknown> {
    try {
      return plainOf(parse(this.text()));
    } catch (error) {
      if (error instanceof TomlError) throw new ConfigFileError(this.file, `not valid TOML at line ${error.line}, column ${error.column}: ${error.message.split('\n')[0]}`);
      throw error;
    }
  }
}

interface Block {
  readonly start: number;
  readonly end: number;
}

/** `a."b.c".d` → ['a', 'b.c', 'd']; undefined when the text is not a dotted key. */
function dottedKey(text: string): string[] | undefined {
  const parts: string[] = [];
  const part = /\s*(?:([A-Za-z0-9_-]+)|"((?:[^"\\]|\\.)*)"|'([^']*)')\s*(\.|$)/y;
  let at = 0;
  while (at < text.length) {
    part.lastIndex = at;
    const match = part.exec(text);
    if (!match) return undefined;
    parts.push(match[1] ?? (match[2] !== undefined ? unescaped(match[2]) : (match[3] ?? '')));
    at = part.lastIndex;
    if (match[4] === '') break;
  }
  return parts;
}

/** A basic string's body with its escapes read (JSON's escapes are TOML's, bar \U and \e, rare in keys). */
function unescaped(body: string): string {
  try {
    const value: unknown = JSON.parse(`"${body}"`);
    return typeof value === 'string' ? value : body;
  } catch {
    return body;
  }
}

/** smol-toml's tables have no prototype; plain objects compare equal to what other parsers give. */
function plainOf(table: Record<string, unknown>): Record<string, unknown> {
  const copy = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(copy);
    if (typeof value === 'object' && value !== null && !(value instanceof Date)) {
      return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, copy(member)]));
    }
    return value;
  };
  return Object.fromEntries(Object.entries(table).map(([key, member]) => [key, copy(member)]));
}
