/**
 * The vault's own files through the YAML parser: 20,000 random records written and read back are
 * the same records, field by field; hand-edited front matter of hostile shapes is read or refused
 * in time linear in its size.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { assetFiles, parseAsset, VaultFormatError, type VaultAsset } from '../../../src/core/sync/vaultFormat.ts';
import { parseYaml, YamlError } from '../../../src/core/sync/yamlReader.ts';
import { assertLinear as linear } from '../../support/linearTime.ts';

const text = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.constantFrom('# Title\nSome text', '  lead', 'trail  ', '---', '- item', 'key: value', 'null', 'true', '12', '\u2028', '\r\n', '"\'\\'),
);
const time = fc.date({ min: new Date(0), max: new Date(4_102_444_800_000), noInvalidDate: true }).map((date) => date.toISOString());
const record: fc.Arbitrary<VaultAsset> = fc
  .record({
    id: fc.stringMatching(/^[A-Za-z0-9_-]{1,24}$/),
    // Every name a snippet can have: the create door names a blank one, the edit door refuses it.
    name: text.filter((name) => name.trim() !== ''),
    language: fc.constantFrom('ts', 'py', 'sh', 'sql', 'md'),
    tags: fc.array(text.filter((tag) => tag !== ''), { maxLength: 4 }),
    websites: fc.array(fc.tuple(text.filter((url) => url !== ''), text.filter((name) => name !== '')).map(([url, name]) => ({ url, name })), { maxLength: 2 }),
    description: fc.option(text.filter((description) => description !== ''), { nil: undefined }),
    created: time,
    updated: time,
    favorited: fc.boolean(),
    syntax: fc.boolean(),
    prefixes: fc.array(text.filter((prefix) => prefix !== ''), { maxLength: 2 }),
    conflictOf: fc.option(fc.stringMatching(/^[a-z0-9-]{1,12}$/), { nil: undefined }),
    content: text,
  })
  // A plain object (fc.record's have no prototype), as parseAsset makes.
  .map(({ description, conflictOf, ...rest }) => ({ ...rest, ...(description !== undefined ? { description } : {}), ...(conflictOf !== undefined ? { conflictOf } : {}) }));

test('20,000 random records: the files one makes read back as the same record, field by field', () => {
  fc.assert(
    fc.property(record, (value) => {
      assert.deepEqual(parseAsset(value.id, assetFiles(value)), value);
    }),
    { numRuns: 20_000 },
  );
});

/** 16 and 256 KiB inputs made by `make`: `fn` grows about linearly (refused is fine, as a YamlError: what is measured is how long it took to say so). */
function assertLinear(name: string, make: (size: number) => string, fn: (text: string) => unknown): void {
  const refusedOrRead = (input: string): void => {
    try {
      fn(input);
    } catch (error) {
      assert.ok(error instanceof YamlError, `${name}: ${String(error)}`);
    }
  };
  linear(name, make, refusedOrRead, { small: 1 << 14, large: 1 << 18, slackMs: 200 });
}

test('hostile front matter costs linear time: runs, deep nesting, long block scalars, many aliases', () => {
  const shapes: Record<string, (n: number) => string> = {
    'hash run': (n) => `name: ${'#'.repeat(n)}`,
    'space run': (n) => `name: a${' '.repeat(n)}¤`,
    'quote run': (n) => `name: "${'\\"'.repeat(n / 2)}`,
    'open brackets': (n) => `tags: ${'['.repeat(n)}`,
    'nested dashes': (n) => Array.from({ length: n / 8 }, (_, i) => `${' '.repeat(i % 50)}- x`).join('\n'),
    'block scalar': (n) => `description: |\n${'  line\n'.repeat(n / 7)}`,
    'blank lines in a folded block': (n) => `description: >-\n  a\n${'\n'.repeat(n)}  b\n`,
    'many keys': (n) => Array.from({ length: n / 10 }, (_, i) => `k${i}: v${i}`).join('\n'),
    aliases: (n) => `a: &a [x, y]\nb: [${Array(n / 4).fill('*a').join(', ')}]`,
    'colons': (n) => `name: ${'a: '.repeat(n / 3)}`,
  };
  for (const [name, make] of Object.entries(shapes)) assertLinear(name, make, parseYaml);
});

test('a record whose snippet.md aliases its way past its own size is refused, naming the file', () => {
  const many = `---\nid: "x"\nbig: &b [${Array(50).fill('"x"').join(', ')}]\ntags: [${Array(100).fill('*b').join(', ')}]\n---\n`;
  const files = [
    { name: 'code.ts', data: Buffer.from('x') },
    { name: 'snippet.md', data: Buffer.from(many) },
  ];
  assert.throws(() => parseAsset('x', files), (error) => error instanceof VaultFormatError && /x\/snippet\.md: aliases expand/.test(error.message));
});
