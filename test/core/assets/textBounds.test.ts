/**
 * Text processing of assets and conversations stays linear and bounded: names, titles,
 * summaries, filters and Markdown export on inputs that defeated their old regexes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { suggestName } from '../../../src/core/assets/content.ts';
import { escapeMarkdownText, exportAsset } from '../../../src/core/assets/exporter.ts';
import { fenced } from '../../../src/core/markdown.ts';
import { checkFilters, matchesFilters, MAX_FILTERS, MAX_PHRASE_CHARS, type FilterSubject } from '../../../src/core/assets/filters.ts';
import { MAX_TITLE_CHARS, ruleTitle } from '../../../src/core/conversations/titles.ts';
import { extractiveSummary } from '../../../src/core/conversations/summaries.ts';
import { InvalidInputError } from '../../../src/core/errors.ts';
import type { Asset } from '../../../src/core/piecesTypes.ts';
import { specificFromFileName } from '../../../src/core/classify/languages.ts';
import { CLASSIFICATION_SPECIFIC_VALUES } from '../../../src/core/assets/classificationValues.ts';
import { assertLinear as linear } from '../../support/linearTime.ts';

/** 16 and 256 KiB inputs made by `make`: `fn` grows about linearly. */
function assertLinear(name: string, make: (size: number) => string, fn: (text: string) => unknown): void {
  linear(name, make, fn, { small: 1 << 14, large: 1 << 18, slackMs: 100 });
}

test('names: comment markers are stripped as before, and runs of blanks cost linear time', () => {
  assert.equal(suggestName('/* Parse the config */\nx'), 'Parse the config');
  assert.equal(suggestName('<!-- page header -->'), 'page header');
  assert.equal(suggestName('   \n\n   // hello world   '), 'hello world');
  assert.equal(suggestName(`${' '.repeat(100_000)}x`), 'x');
  assertLinear('suggestName', (n) => `${' '.repeat(n)}¤`, suggestName);
  assertLinear('suggestName mid-line', (n) => `x${' '.repeat(n)}¤`, suggestName);
});

test('titles: trimming runs of punctuation costs linear time, and a title is at most 80 characters', () => {
  assertLinear('title of dots', (n) => `${'.'.repeat(n)}x`, (text) => ruleTitle([{ role: 'USER', text }]));
  assertLinear('title of commas', (n) => `how ${','.repeat(n)}x`, (text) => ruleTitle([{ role: 'USER', text }]));
  const title = ruleTitle([{ role: 'USER', text: `How do I fix ${'y'.repeat(200_000)}?` }]);
  assert.ok(title.length <= MAX_TITLE_CHARS, `${title.length} characters`);
  assert.equal(ruleTitle([{ role: 'USER', text: 'How do I parse a config file in Rust?' }]), 'Parse config file in Rust');
});

test('summaries rank a sample of sentences: a long answer costs linear time and keeps its key points', () => {
  const answer = (n: number): string => {
    const sentences: string[] = [];
    for (let i = 0, length = 0; length < n; i++) {
      sentences.push(`Add retry ${i} to loader module ${i % 97} and cache entry ${i % 13}.`);
      length += sentences[i]!.length + 1;
    }
    return sentences.join(' ');
  };
  assertLinear('summary', answer, (text) => extractiveSummary([{ role: 'USER', text: 'Why does it fail?' }, { role: 'ASSISTANT', text }]));
  const summary = extractiveSummary([{ role: 'USER', text: 'Why does it fail?' }, { role: 'ASSISTANT', text: answer(1 << 20) }]);
  assert.match(summary, /^Problem: Why does it fail\?\nKey points: Add retry/);
});

test('filters: more than MAX_FILTERS are refused (nested ones counted); phrases ignore case once per asset', () => {
  const phrase = (value: string) => ({ phrase: { value } });
  assert.throws(() => checkFilters({ iterable: Array.from({ length: MAX_FILTERS + 1 }, () => phrase('x')) }), InvalidInputError);
  const nested = { iterable: [{ operations: { iterable: Array.from({ length: MAX_FILTERS }, () => phrase('x')) } }] };
  assert.throws(() => checkFilters(nested), InvalidInputError);
  checkFilters({ iterable: Array.from({ length: MAX_FILTERS }, () => phrase('x')) });
  assert.throws(() => checkFilters({ iterable: [phrase('x'.repeat(MAX_PHRASE_CHARS + 1))] }), InvalidInputError);
  const subject: FilterSubject = { name: 'Loader', text: 'Retry The Request', languages: [], tags: [], websites: [], annotations: ['Note'], created: '', updated: '' };
  assert.ok(matchesFilters(subject, { iterable: [phrase('the request'), phrase('LOADER'), phrase('note')] }));
  assert.ok(!matchesFilters(subject, { iterable: [phrase('the request')] }, true), 'case-sensitive');
  assert.ok(!matchesFilters(subject, { iterable: [{ phrase: { value: 'loader', content: true } }] }), 'only where asked');
  assert.ok(matchesFilters(subject, { type: 'OR', iterable: [phrase('absent'), { operations: { iterable: [phrase('retry')] } }] }));
});

test('Markdown export: the fence outlasts any run of backticks inside, and the name is escaped text', () => {
  const fenceOf = (text: string): string => fenced(text).split('\n', 1)[0]!;
  assert.equal(fenceOf('no fences'), '```');
  assert.equal(fenceOf('a ``` b ~~~~ c'), '````');
  assert.equal(fenceOf('`'.repeat(9)), '`'.repeat(10));
  assert.equal(escapeMarkdownText('[x](javascript:y)\n<b>'), '\\[x\\]\\(javascript:y\\) &lt;b&gt;');
  const asset = {
    id: 'a',
    name: '<script>alert(1)</script>',
    created: { value: '2024-01-01T00:00:00.000Z' },
    original: { id: 'f' },
    formats: { iterable: [{ id: 'f', classification: { generic: 'CODE', specific: 'md' }, fragment: { string: { raw: '```\n~~~~\n<img onerror=x>' } } }] },
  } as unknown as Asset;
  const markdown = exportAsset(asset, 'MD').raw.string!.raw!;
  assert.equal(markdown, '# &lt;script&gt;alert\\(1\\)&lt;/script&gt;\n\n````md\n```\n~~~~\n<img onerror=x>\n````\n');
  assertLinear('fence', (n) => '`'.repeat(n), fenceOf);
});

test('a file name of many dots is classified in linear time, and every known extension still is', () => {
  assertLinear('file name', (n) => `${'a.'.repeat(n / 2)}ts`, specificFromFileName);
  assert.equal(specificFromFileName(`${'a.'.repeat(100_000)}tar.ts`), 'ts');
  for (const value of CLASSIFICATION_SPECIFIC_VALUES) {
    if (value === 'UNKNOWN' || value.startsWith('hljs-') || /^[a-z]+(_[a-z]+)+$/.test(value)) continue;
    assert.equal(specificFromFileName(`${'x.'.repeat(40)}${value}`), value, value);
  }
});
