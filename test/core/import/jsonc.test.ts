/**
 * JSONC read by jsonc-parser (jsonc.ts): files in the form VS Code ships and writes them, errors
 * that say where in the file they are, and hostile runs refused in time linear in their length.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseImportFile } from '../../../src/core/import/detect.ts';
import { ImportFormatError } from '../../../src/core/import/types.ts';
import { JsoncError, parseJsonc } from '../../../src/core/import/jsonc.ts';
import { assertLinear as linear } from '../../support/linearTime.ts';

const fixture = (name: string): string => readFileSync(new URL(`../../fixtures/vscode/${name}`, import.meta.url), 'utf8');

test("VS Code's global snippets template (BOM, CRLF, its comment block, trailing commas, a commented-out entry) imports", () => {
  const parsed = parseImportFile('global.code-snippets', fixture('global.code-snippets'));
  assert.equal(parsed.format, 'vscode');
  assert.deepEqual(parsed.failures, []);
  assert.deepEqual(parsed.snippets.map((s) => [s.name, s.language, s.text, s.tags]), [
    ['Print to console', 'js', "console.log('$1');\n$2", ['log']],
    ['Comment slashes in a string', 'py', 'print("https://example.com/*not-a-comment*/ // nor this")', ['url', 'link']],
  ]);
  assert.equal(parsed.snippets[0]!.description, 'Log output to console');
});

test('a per-language file in VS Code\'s template: a snippet named "__proto__" is a snippet like any other', () => {
  const parsed = parseImportFile('typescript.json', fixture('typescript.json'));
  assert.deepEqual(parsed.snippets.map((s) => [s.name, s.language, s.syntax ?? false]), [
    ['Interface', 'ts', true],
    ['__proto__', 'ts', false],
  ]);
  const value = parseJsonc('{"__proto__": {"polluted": true}, // c\n}');
  assert.ok(value !== null && typeof value === 'object');
  assert.equal(Object.getPrototypeOf(value), Object.prototype);
  assert.deepEqual(Object.getOwnPropertyDescriptor(value, '__proto__')?.value, { polluted: true });
});

test('comments and trailing commas outside strings only; strict JSON reads as JSON.parse reads it', () => {
  assert.deepEqual(parseJsonc('{"a": "// not a comment, }", /* c */ "b": [1, 2,],}'), { a: '// not a comment, }', b: [1, 2] });
  assert.deepEqual(parseJsonc('\ufeff[1, {"x": null}]'), [1, { x: null }]);
  assert.deepEqual(parseJsonc('{"a": 1, "a": 2}'), { a: 2 }, 'the last of a repeated key, as JSON.parse and VS Code');
});

test('an error names the file, the line and the column in the file as written (after a multi-line comment)', () => {
  const text = '{\n  /* two\n     lines */\n  "a": {"body": "x"}\n  "b": {"body": "y"}\n}\n';
  assert.throws(() => parseJsonc(text), (error) => error instanceof JsoncError && error.message === 'comma expected at line 5, column 3');
  assert.throws(
    () => parseImportFile('broken.code-snippets', text),
    (error) => error instanceof ImportFormatError && error.message === 'broken.code-snippets: not JSON (comma expected at line 5, column 3)',
  );
  for (const bad of ['', '{"a": 1 /* unterminated', '{"a": "unterminated', '{"a": 1}}', '{"a": [1, 2}']) assert.throws(() => parseJsonc(bad), JsoncError, JSON.stringify(bad));
});

/** 64 KiB and 1 MiB inputs made by `make`: `fn` grows about linearly (refused is fine: what is measured is how long it took to say so). */
function assertLinear(name: string, make: (size: number) => string, fn: (text: string) => unknown): void {
  const refusedOrRead = (input: string): void => {
    try {
      fn(input);
    } catch {
      // refused
    }
  };
  linear(name, make, refusedOrRead, { small: 1 << 16, large: 1 << 20, slackMs: 200 });
}

test('hostile runs cost linear time and are refused with a JsoncError, never a crash', () => {
  const shapes: Record<string, (n: number) => string> = {
    commas: (n) => `{"x": [${','.repeat(n)}]}`,
    backslashes: (n) => `{"x": "${'\\\\'.repeat(n / 2)}"`,
    brackets: (n) => `// c\n${'['.repeat(n)}`,
    braces: (n) => `{"a":${'{"a":'.repeat(n / 5)}`,
    comments: (n) => `{${'/*'.repeat(n / 2)}`,
    slashes: (n) => `{"a": 1 ${'/'.repeat(n)}`,
  };
  for (const [name, make] of Object.entries(shapes)) {
    assert.throws(() => parseJsonc(make(1 << 20)), JsoncError, name);
    assertLinear(name, make, parseJsonc);
  }
});
