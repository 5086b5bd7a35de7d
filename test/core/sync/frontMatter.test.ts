/**
 * Front matter read through the `yaml` package (yamlReader.ts): what the hand-written reader lost
 * of YAML other tools and people write, the bounds it keeps (aliases, `__proto__`, errors that
 * name the line) and the fences written from outside.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFrontMatter, writeFrontMatter } from '../../../src/core/sync/frontMatter.ts';
import { parseYaml, YamlError } from '../../../src/core/sync/yamlReader.ts';

const field = (yaml: string): unknown => {
  const data = parseYaml(yaml);
  assert.ok(data !== null && typeof data === 'object' && !Array.isArray(data));
  return data.d;
};

test('block scalars keep what they hold: a line starting with #, trailing spaces, folding over blank lines, |+ and |2-', () => {
  assert.equal(field('d: |-\n  # Title\n  Some text\n'), '# Title\nSome text', 'a line starting with # is text, not a comment');
  assert.equal(field('d: |-\n  a  \n  b\n'), 'a  \nb', 'trailing spaces are kept');
  assert.equal(field('d: >-\n  a\n  b\n\n  c\n'), 'a b\nc', 'one blank line folds to one line break');
  assert.equal(field('d: |+\n  a\n'), 'a\n', '|+ keeps the breaks there are, and adds none');
  assert.equal(field('d: |+\n  a\n\ne: 1\n'), 'a\n\n');
  assert.equal(field('d: |2-\n    indented\n  x\n'), '  indented\nx', 'an indentation indicator: text may start with spaces');
});

test('__proto__ is a key like any other: plain data, and the result keeps its prototype', () => {
  const data = parseYaml('__proto__:\n  polluted: true\nname: x\n');
  assert.ok(data !== null && typeof data === 'object' && !Array.isArray(data));
  assert.equal(Object.getPrototypeOf(data), Object.prototype);
  assert.ok(Object.hasOwn(data, '__proto__'));
  assert.deepEqual(Object.getOwnPropertyDescriptor(data, '__proto__')?.value, { polluted: true });
  assert.equal((data as { polluted?: unknown }).polluted, undefined);
  assert.equal(({} as { polluted?: unknown }).polluted, undefined);
  const front = readFrontMatter('---\n__proto__: {polluted: true}\n---\n');
  assert.equal(Object.getPrototypeOf(front!.data), Object.prototype);
});

test('a billion-laughs document is refused; a few aliases still read', () => {
  const levels = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]'];
  for (let i = 1; i < 10; i++) {
    const name = String.fromCharCode(97 + i);
    levels.push(`${name}: &${name} [${Array(9).fill(`*${String.fromCharCode(96 + i)}`).join(', ')}]`);
  }
  assert.throws(() => parseYaml(levels.join('\n')), (error) => error instanceof YamlError && /alias/i.test(error.message));
  assert.deepEqual(parseYaml('a: &x [1, 2]\nb: *x\n'), { a: [1, 2], b: [1, 2] });
});

test('errors are YamlErrors naming the line, for every kind of bad input', () => {
  const bad = ['a: 1\na: 2\n', 'name: [unclosed\n', 'a:\n\t- tab\n', 'x: "unterminated\n', `a: ${'['.repeat(100_000)}`, 'a: !!binary eA==\n', 'b: *nowhere\n', 'a: 1\n---\nb: 2\n'];
  for (const text of bad) assert.throws(() => parseYaml(text), YamlError, JSON.stringify(text.slice(0, 30)));
  assert.throws(() => parseYaml('a: 1\na: 2\n'), /line 2/);
});

test('values as YAML 1.2 core reads them: times stay text, yes is a string', () => {
  assert.deepEqual(parseYaml('t: 2025-01-02T03:04:05Z\nm: 42\nyes: yes\nf: 1.5\nz: ~\n'), {
    t: '2025-01-02T03:04:05Z',
    m: 42,
    yes: 'yes',
    f: 1.5,
    z: null,
  });
  assert.equal(parseYaml(''), null);
  assert.equal(parseYaml('# only a comment\n'), null);
});

test('front matter from outside: fences with trailing blanks, CRLF, a BOM; the body exactly as written', () => {
  assert.deepEqual(readFrontMatter('--- \nname: x\n---  \nbody\n'), { data: { name: 'x' }, texts: { name: 'x' }, body: 'body\n' });
  assert.deepEqual(readFrontMatter('\ufeff---\t\r\nname: "y"\r\ntags:\r\n  - a\r\n---\r\nline\r\n'), { data: { name: 'y', tags: ['a'] }, texts: { name: 'y', tags: ['a'] }, body: 'line\r\n' });
  assert.equal(readFrontMatter('no front matter\n'), undefined);
  assert.throws(() => readFrontMatter('---\nname: x\n'), /no closing ---/);
  assert.throws(() => readFrontMatter('---\n- a list\n---\n'), /not a mapping/);
});

test("the vault's own writer and the parser agree on every character a string can hold", () => {
  const texts = ['# Title\nSome text', '  lead', 'trail  ', '\u2028\u2029', 'tab\there', 'nul\u0000', 'é😀', '---', "it's \"quoted\"", ''];
  for (const text of texts) {
    const written = writeFrontMatter([['name', text], ['tags', [text, 'x']]], 'body');
    const fields = { name: text, tags: [text, 'x'] };
    assert.deepEqual(readFrontMatter(written), { data: fields, texts: fields, body: 'body' }, JSON.stringify(text));
  }
});
