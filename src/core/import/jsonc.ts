/**
 * JSON with comments and trailing commas (VS Code's snippet and settings files), read with
 * jsonc-parser, the scanner VS Code itself reads them with. Strict JSON goes through JSON.parse
 * first (native, and most files are strict); only a file it refuses is scanned again. The value
 * is built here from jsonc-parser's events rather than by its `parse`, which assigns keys and so
 * makes a `"__proto__"` key the object's prototype: here every key is an own property.
 */
import { printParseErrorCode, visit, type ParseErrorCode } from 'jsonc-parser';

/** The text is not JSONC; the message says what is wrong and where (line and column, from 1). */
export class JsoncError extends SyntaxError {}

type Container = { readonly array: unknown[] } | { readonly entries: Array<[string, unknown]>; key: string };

/** Parses `text` (a leading BOM ignored) as JSON, or as JSONC when it is not strict JSON; throws JsoncError. */
export function parseJsonc(source: string): unknown {
  const text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
  try {
    return JSON.parse(text);
  } catch {
    return parseLenient(text);
  }
}

function parseLenient(text: string): unknown {
  const stack: Container[] = [];
  let root: unknown;
  let rooted = false;
  let problem: string | undefined;
  const add = (value: unknown): void => {
    const parent = stack[stack.length - 1];
    if (parent === undefined) {
      root = value;
      rooted = true;
    } else if ('array' in parent) parent.array.push(value);
    else parent.entries.push([parent.key, value]);
  };
  const close = (): unknown => {
    const done = stack.pop();
    return done === undefined ? undefined : 'array' in done ? done.array : Object.fromEntries(done.entries);
  };
  try {
    visit(
      text,
      {
        onObjectBegin: () => void stack.push({ entries: [], key: '' }),
        onObjectProperty: (name) => {
          const parent = stack[stack.length - 1];
          if (parent !== undefined && 'entries' in parent) parent.key = name;
        },
        onObjectEnd: () => add(close()),
        onArrayBegin: () => void stack.push({ array: [] }),
        onArrayEnd: () => add(close()),
        onLiteralValue: (value: unknown) => add(value),
        onError: (error: ParseErrorCode, _offset, _length, line, column) => {
          problem ??= `${describe(error)} at line ${line + 1}, column ${column + 1}`;
        },
      },
      { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false },
    );
  } catch (error) {
    // jsonc-parser descends one call per level: a file nested deeper than the stack is refused, not a crash.
    if (error instanceof RangeError) throw new JsoncError('nested too deeply');
    throw error;
  }
  if (problem !== undefined) throw new JsoncError(problem);
  if (!rooted) throw new JsoncError('empty');
  return root;
}

/** jsonc-parser's code names ("CommaExpected") as words ("comma expected"). */
function describe(error: ParseErrorCode): string {
  return printParseErrorCode(error)
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
}
