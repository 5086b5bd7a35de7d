/**
 * Servers kept in a JSON object at a path (`mcpServers`, `servers`, `context_servers`), edited with
 * jsonc-parser's modify/applyEdits so comments, trailing commas and the file's own indentation stay.
 */
import { applyEdits, format, modify, parse, printParseErrorCode, type FormattingOptions, type ParseError } from 'jsonc-parser';
import { ConfigFileError, isRecord, memberAt, without, type ServerMap, type ServerMapReader } from './serverMap.ts';

/** A reader for files whose servers live at `path`; `jsonc` files may hold comments and trailing commas. */
export function jsonServerMap(path: readonly string[], jsonc: boolean): ServerMapReader {
  return (text, file) => new JsonServerMap(text, file, path, jsonc);
}

class JsonServerMap implements ServerMap {
  private current: string;
  private readonly formatting: FormattingOptions;
  private readonly file: string;
  private readonly path: readonly string[];
  private readonly jsonc: boolean;

  constructor(text: string, file: string, path: readonly string[], jsonc: boolean) {
    this.current = text;
    this.file = file;
    this.path = path;
    this.jsonc = jsonc;
    this.formatting = formattingOf(text);
    const container = memberAt(this.document(), path);
    if (container !== undefined && !isRecord(container)) {
      throw new ConfigFileError(file, `"${path.join('.')}" is not an object`);
    }
  }

  entries(): ReadonlyMap<string, unknown> {
    const container = memberAt(this.document(), this.path);
    return new Map(isRecord(container) ? Object.entries(container) : []);
  }

  rest(): unknown {
    return without(this.document(), this.path);
  }

  set(key: string, value: unknown): void {
    this.edit([...this.path, key], value);
  }

  delete(key: string): void {
    if (this.entries().has(key)) this.edit([...this.path, key], undefined);
  }

  text(): string {
    return this.current;
  }

  /**
   * Makes the smallest edit, then lays out only the text it inserted: modify's own formatting
   * would also re-indent the neighbouring entry (a server the user wrote on one line).
   */
  private edit(path: string[], value: unknown): void {
    const before = this.current;
    const edits = modify(before, path, value, {});
    let after = applyEdits(before, edits);
    const [only] = edits;
    if (value !== undefined) {
      const whole = edits.length !== 1 || only === undefined || !before.includes('\n');
      const range = whole || only === undefined ? undefined : { offset: only.offset, length: only.content.length };
      after = applyEdits(after, format(after, range, this.formatting));
      if (before.trim() === '') after = `${after.trimEnd()}${this.formatting.eol ?? '\n'}`;
    }
    this.current = after;
  }

  /** The whole file as a plain value ({} for an empty file); a malformed file is refused. */
  private document(): Record<string, unknown> {
    if (this.current.trim() === '') return {};
    const errors: ParseError[] = [];
    const value: unknown = parse(this.current, errors, { allowTrailingComma: this.jsonc, disallowComments: false });
    const first = errors[0];
    if (first) {
      const { line, column } = position(this.current, first.offset);
      throw new ConfigFileError(this.file, `not valid JSON${this.jsonc ? ' (with comments)' : ''} at line ${line}, column ${column}: ${printParseErrorCode(first.error)}`);
    }
    if (!isRecord(value)) throw new ConfigFileError(this.file, 'does not hold a JSON object');
    return value;
  }
}

/** The file's own indentation and line ends, so added lines look like the rest. */
function formattingOf(text: string): FormattingOptions {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indented = /^([ \t]+)\S/m.exec(text)?.[1];
  if (indented?.startsWith('\t')) return { insertSpaces: false, tabSize: 1, eol };
  return { insertSpaces: true, tabSize: indented ? Math.min(indented.length, 8) : 2, eol };
}

function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}
