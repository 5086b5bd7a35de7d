import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LabelTrigrams } from '../../../src/core/search/labelTrigrams.ts';
import { hasWordStarting } from '../../../src/core/search/labelMatches.ts';
import { trigrams } from '../../../src/core/search/tokens.ts';

function index(labels: Array<[number, string]>): { index: LabelTrigrams; reads: () => number } {
  let reads = 0;
  const index = new LabelTrigrams({
    labels: () => {
      reads++;
      return labels.map(([rowid, label]) => ({ rowid, label }));
    },
  });
  return { index, reads: () => reads };
}

test('labels containing every term: checked on the real text, shortest label first, then newest', () => {
  const { index: labels, reads } = index([
    [1, 'Fetch JSON with retries http'],
    [2, 'fetchJson'],
    [3, 'fetchJsonp jsonp'],
    [4, 'Parse JSON'],
    [5, 'fetch json'],
  ]);
  assert.equal(reads(), 0, 'nothing is read before the first query');
  assert.deepEqual(labels.containing(['fetchjson'], 10), [2, 3]);
  assert.deepEqual(labels.containing(['json', 'fetch'], 10), [2, 5, 3, 1]);
  assert.deepEqual(labels.containing(['json'], 2), [2, 5]);
  assert.deepEqual(labels.containing(['xml'], 10), []);
  // "ret" and "ies" are both in label 1, but not the substring "retries http" order-swapped.
  assert.deepEqual(labels.containing(['http retries'], 10), []);
  assert.equal(reads(), 1, 'read once');
});

test('typo candidates share enough trigrams; more shared first, then the shorter label', () => {
  const { index: labels } = index([
    [1, 'Debounce input handler ui events'],
    [2, 'Bounce animation keyframes'],
    [3, 'debounce'],
    [4, 'Binary search'],
  ]);
  const grams = trigrams('debonce');
  assert.deepEqual(labels.candidates(grams, 0.4, 10), [3, 1]);
  assert.deepEqual(labels.candidates(grams, 0.2, 10), [3, 1, 2]);
  assert.deepEqual(labels.candidates(grams, 0.4, 1), [3]);
});

test('set, replace and delete keep answers exact through stale entries and compaction', async () => {
  const { index: labels } = index([[1, 'alpha'], [2, 'beta']]);
  await labels.warmGradually();
  labels.set(3, 'gamma ray');
  assert.deepEqual(labels.containing(['gamma'], 10), [3]);
  labels.set(3, 'delta ray');
  assert.deepEqual(labels.containing(['gamma'], 10), [], 'the old label no longer matches');
  assert.deepEqual(labels.candidates(trigrams('gamma'), 0.5, 10), []);
  assert.deepEqual(labels.containing(['ray'], 10), [3], 'a replaced label counts once');
  labels.delete(1);
  assert.deepEqual(labels.containing(['alpha'], 10), []);
  for (let i = 0; i < 50; i++) labels.set(10 + i, `label number ${i}`);
  for (let i = 0; i < 50; i++) labels.delete(10 + i);
  assert.deepEqual(labels.containing(['label'], 100), [], 'compaction keeps deletions');
  assert.deepEqual(labels.containing(['beta'], 10), [2]);
  assert.deepEqual(labels.containing(['delta'], 10), [3]);
});

test('before the first query, writes are left to the first read of the store', () => {
  const { index: labels, reads } = index([[1, 'from the store']]);
  labels.set(2, 'not yet read');
  labels.delete(1);
  assert.equal(reads(), 0);
  assert.deepEqual(labels.containing(['store'], 10), [1], 'the store is the source of truth at build time');
});

test('a gradual reading yields between slices, and writes made meanwhile are applied after it', async () => {
  let pulled = 0;
  const labels = new LabelTrigrams({
    *labels() {
      for (let i = 1; i <= 50; i++) {
        pulled++;
        yield { rowid: i, label: `label ${i}` };
      }
    },
  });
  const reading = labels.warmGradually(10);
  assert.equal(pulled, 10, 'one slice before yielding');
  labels.set(7, 'renamed seven');
  labels.delete(8);
  labels.set(99, 'brand new');
  await new Promise((resolve) => setImmediate(resolve));
  assert.ok(pulled > 10 && pulled < 50, `${pulled} read after one turn`);
  await reading;
  assert.deepEqual(labels.containing(['renamed'], 10), [7]);
  assert.deepEqual(labels.containing(['label 8'], 10), [], 'deleted during the reading');
  assert.deepEqual(labels.containing(['label 7'], 10), [], 'replaced during the reading');
  assert.deepEqual(labels.containing(['brand'], 10), [99]);
  assert.deepEqual(labels.containing(['label 49'], 10), [49]);
});

test('a search during a gradual reading finishes it at once', async () => {
  const { index: labels } = index(Array.from({ length: 50 }, (_, i) => [i + 1, `item ${i + 1}`] as [number, string]));
  const reading = labels.warmGradually(5);
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(labels.containing(['item 50'], 10), [50]);
  await reading;
  assert.deepEqual(labels.containing(['item 1'], 100).length, 11, 'item 1, 10–19');
});

test('completions: a whole word first, then a word start, then (from three characters) inside a word; weight, then the shorter label, then the newer', () => {
  const { index: labels } = index([
    [1, 'Fetch JSON with retries http'],
    [2, 'retry'],
    [3, 'retry helper'],
    [4, 'fetch with retry backoff'],
    [5, 'Query retryable errors'],
    [6, 'no match here'],
    [7, 'preretry hook'],
  ]);
  const all = (): number => 1;
  assert.deepEqual(labels.completions('retry', all, 10), [2, 3, 4, 5, 7], 'whole word "retry" (2, 3, 4: shortest first), then a word start (5), then inside a word (7); "retries" is not "retry"');
  assert.deepEqual(labels.completions('re', all, 10), [2, 3, 5, 4, 1], 'two characters: word starts only (not 7), shortest label first');
  assert.deepEqual(labels.completions('r', all, 3), [], 'one character: left to the caller (most labels have such a word)');
  assert.ok(hasWordStarting('query retryable errors', 'r') && !hasWordStarting('preretry hook', 'r'));
  assert.equal(labels.labelOf(7), 'preretry hook');
  assert.deepEqual(labels.completions('RETRY', all, 1), [2], 'case does not matter');
  assert.deepEqual(labels.completions('retry', (rowid) => (rowid === 4 ? 3 : rowid === 3 ? 0 : 1), 10), [4, 2, 5, 7], 'a weight ranks within a match quality; 0 refuses');
  assert.deepEqual(labels.completions('zz', all, 10), []);
  assert.deepEqual(labels.completions('', all, 10), []);
});

test('completions follow set and delete (stale word-start postings are checked on the label)', async () => {
  const { index: labels } = index([[1, 'alpha beta'], [2, 'beta gamma']]);
  await labels.warmGradually();
  assert.deepEqual(labels.completions('be', () => 1, 10), [2, 1], 'equal matches: the newer first');
  labels.set(1, 'alpha delta');
  assert.deepEqual(labels.completions('be', () => 1, 10), [2], 'the old word no longer completes');
  assert.deepEqual(labels.completions('de', () => 1, 10), [1]);
  labels.delete(2);
  assert.deepEqual(labels.completions('be', () => 1, 10), []);
  assert.deepEqual(labels.containing(['beta'], 10), [], 'containing is unchanged by the word-start codes');
});
