import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TitleTrigrams } from '../../../src/core/search/titleTrigrams.ts';
import { hasWordStarting } from '../../../src/core/search/titleMatches.ts';
import { trigrams } from '../../../src/core/search/tokens.ts';

function index(titles: Array<[number, string]>): { index: TitleTrigrams; reads: () => number } {
  let reads = 0;
  const index = new TitleTrigrams({
    titles: () => {
      reads++;
      return titles.map(([rowid, title]) => ({ rowid, title }));
    },
  });
  return { index, reads: () => reads };
}

test('titles containing every term: checked on the real text, shortest title first, then newest', () => {
  const { index: titles, reads } = index([
    [1, 'Fetch JSON with retries http'],
    [2, 'fetchJson'],
    [3, 'fetchJsonp jsonp'],
    [4, 'Parse JSON'],
    [5, 'fetch json'],
  ]);
  assert.equal(reads(), 0, 'nothing is read before the first query');
  assert.deepEqual(titles.containing(['fetchjson'], 10), [2, 3]);
  assert.deepEqual(titles.containing(['json', 'fetch'], 10), [2, 5, 3, 1]);
  assert.deepEqual(titles.containing(['json'], 2), [2, 5]);
  assert.deepEqual(titles.containing(['xml'], 10), []);
  // "ret" and "ies" are both in title 1, but not the substring "retries http" order-swapped.
  assert.deepEqual(titles.containing(['http retries'], 10), []);
  assert.equal(reads(), 1, 'read once');
});

test('typo candidates share enough trigrams; more shared first, then the shorter title', () => {
  const { index: titles } = index([
    [1, 'Debounce input handler ui events'],
    [2, 'Bounce animation keyframes'],
    [3, 'debounce'],
    [4, 'Binary search'],
  ]);
  const grams = trigrams('debonce');
  assert.deepEqual(titles.candidates(grams, 0.4, 10), [3, 1]);
  assert.deepEqual(titles.candidates(grams, 0.2, 10), [3, 1, 2]);
  assert.deepEqual(titles.candidates(grams, 0.4, 1), [3]);
});

test('set, replace and delete keep answers exact through stale entries and compaction', async () => {
  const { index: titles } = index([[1, 'alpha'], [2, 'beta']]);
  await titles.warmGradually();
  titles.set(3, 'gamma ray');
  assert.deepEqual(titles.containing(['gamma'], 10), [3]);
  titles.set(3, 'delta ray');
  assert.deepEqual(titles.containing(['gamma'], 10), [], 'the old title no longer matches');
  assert.deepEqual(titles.candidates(trigrams('gamma'), 0.5, 10), []);
  assert.deepEqual(titles.containing(['ray'], 10), [3], 'a replaced title counts once');
  titles.delete(1);
  assert.deepEqual(titles.containing(['alpha'], 10), []);
  for (let i = 0; i < 50; i++) titles.set(10 + i, `title number ${i}`);
  for (let i = 0; i < 50; i++) titles.delete(10 + i);
  assert.deepEqual(titles.containing(['title'], 100), [], 'compaction keeps deletions');
  assert.deepEqual(titles.containing(['beta'], 10), [2]);
  assert.deepEqual(titles.containing(['delta'], 10), [3]);
});

test('before the first query, writes are left to the first read of the store', () => {
  const { index: titles, reads } = index([[1, 'from the store']]);
  titles.set(2, 'not yet read');
  titles.delete(1);
  assert.equal(reads(), 0);
  assert.deepEqual(titles.containing(['store'], 10), [1], 'the store is the source of truth at build time');
});

test('a gradual reading yields between slices, and writes made meanwhile are applied after it', async () => {
  let pulled = 0;
  const titles = new TitleTrigrams({
    *titles() {
      for (let i = 1; i <= 50; i++) {
        pulled++;
        yield { rowid: i, title: `title ${i}` };
      }
    },
  });
  const reading = titles.warmGradually(10);
  assert.equal(pulled, 10, 'one slice before yielding');
  titles.set(7, 'renamed seven');
  titles.delete(8);
  titles.set(99, 'brand new');
  await new Promise((resolve) => setImmediate(resolve));
  assert.ok(pulled > 10 && pulled < 50, `${pulled} read after one turn`);
  await reading;
  assert.deepEqual(titles.containing(['renamed'], 10), [7]);
  assert.deepEqual(titles.containing(['title 8'], 10), [], 'deleted during the reading');
  assert.deepEqual(titles.containing(['title 7'], 10), [], 'replaced during the reading');
  assert.deepEqual(titles.containing(['brand'], 10), [99]);
  assert.deepEqual(titles.containing(['title 49'], 10), [49]);
});

test('a search during a gradual reading finishes it at once', async () => {
  const { index: titles } = index(Array.from({ length: 50 }, (_, i) => [i + 1, `item ${i + 1}`] as [number, string]));
  const reading = titles.warmGradually(5);
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(titles.containing(['item 50'], 10), [50]);
  await reading;
  assert.deepEqual(titles.containing(['item 1'], 100).length, 11, 'item 1, 10–19');
});

test('completions: a whole word first, then a word start, then (from three characters) inside a word; weight, then the shorter title, then the newer', () => {
  const { index: titles } = index([
    [1, 'Fetch JSON with retries http'],
    [2, 'retry'],
    [3, 'retry helper'],
    [4, 'fetch with retry backoff'],
    [5, 'Query retryable errors'],
    [6, 'no match here'],
    [7, 'preretry hook'],
  ]);
  const all = (): number => 1;
  assert.deepEqual(titles.completions('retry', all, 10), [2, 3, 4, 5, 7], 'whole word "retry" (2, 3, 4: shortest first), then a word start (5), then inside a word (7); "retries" is not "retry"');
  assert.deepEqual(titles.completions('re', all, 10), [2, 3, 5, 4, 1], 'two characters: word starts only (not 7), shortest title first');
  assert.deepEqual(titles.completions('r', all, 3), [], 'one character: left to the caller (most titles have such a word)');
  assert.ok(hasWordStarting('query retryable errors', 'r') && !hasWordStarting('preretry hook', 'r'));
  assert.equal(titles.titleOf(7), 'preretry hook');
  assert.deepEqual(titles.completions('RETRY', all, 1), [2], 'case does not matter');
  assert.deepEqual(titles.completions('retry', (rowid) => (rowid === 4 ? 3 : rowid === 3 ? 0 : 1), 10), [4, 2, 5, 7], 'a weight ranks within a match quality; 0 refuses');
  assert.deepEqual(titles.completions('zz', all, 10), []);
  assert.deepEqual(titles.completions('', all, 10), []);
});

test('completions follow set and delete (stale word-start postings are checked on the title)', async () => {
  const { index: titles } = index([[1, 'alpha beta'], [2, 'beta gamma']]);
  await titles.warmGradually();
  assert.deepEqual(titles.completions('be', () => 1, 10), [2, 1], 'equal matches: the newer first');
  titles.set(1, 'alpha delta');
  assert.deepEqual(titles.completions('be', () => 1, 10), [2], 'the old word no longer completes');
  assert.deepEqual(titles.completions('de', () => 1, 10), [1]);
  titles.delete(2);
  assert.deepEqual(titles.completions('be', () => 1, 10), []);
  assert.deepEqual(titles.containing(['beta'], 10), [], 'containing is unchanged by the word-start codes');
});

test('a source giving titles out of rowid order is indexed the same as one in order', async () => {
  const titles: Array<[number, string]> = [];
  for (let rowid = 1; rowid <= 300; rowid++) titles.push([rowid * 7, `${['Retry', 'Parse', 'Debounce'][rowid % 3]} handler ${rowid} ${rowid % 5 === 0 ? 'backoff' : 'json'}`]);
  const ordered = index(titles).index;
  const shuffled = index([...titles].reverse()).index;
  const gradual = index([...titles.slice(150), ...titles.slice(0, 150)]).index;
  await gradual.warmGradually(40);
  for (const titleIndex of [shuffled, gradual]) {
    assert.deepEqual(titleIndex.containing(['backoff'], 500), ordered.containing(['backoff'], 500));
    assert.deepEqual(titleIndex.candidates(trigrams('debunce hanlder'), 0.3, 50), ordered.candidates(trigrams('debunce hanlder'), 0.3, 50));
    assert.deepEqual(titleIndex.completions('ha', () => 1, 400), ordered.completions('ha', () => 1, 400));
  }
  assert.equal(ordered.containing(['backoff'], 500).length, 60);
});
