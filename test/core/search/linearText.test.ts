/**
 * The hand-written scanners that replaced backtracking regexes give the regexes' answers on
 * ordinary input, and the caps and bounds of search hold.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { INDEXED_CHARS, MAX_IDENTIFIER_CHARS, distinctIdentifiers, indexedPrefix, subTokens, wordIndexText } from '../../../src/core/search/tokens.ts';
import { MAX_QUERY_PHRASES, MAX_QUERY_TERMS, MAX_TERM_CHARS, parseQuery } from '../../../src/core/search/query.ts';
import { termCounts } from '../../../src/core/search/related.ts';
import { assertLinear } from '../../support/linearTime.ts';

/** The regex version the scanner replaced (quadratic on long upper-case runs). */
function regexSubTokens(identifier: string): string[] {
  return identifier
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((part) => part.length > 0)
    .map((part) => part.toLowerCase());
}

test('subTokens splits exactly as the regexes did, on any short identifier', () => {
  const identifier = fc.string({ unit: fc.constantFrom('A', 'B', 'a', 'b', '0', '9', '_', '$', 'é'), maxLength: 24 });
  fc.assert(fc.property(identifier, (id) => assert.deepEqual(subTokens(id), regexSubTokens(id))), { numRuns: 5000 });
  assert.deepEqual(subTokens('HTTPServerURLParser'), ['http', 'server', 'url', 'parser']);
  assert.deepEqual(subTokens('v2Api_getX'), ['v2', 'api', 'get', 'x']);
});

test('subTokens of a long upper-case run costs linear time', () => {
  // The regex this replaced was ~256× (and took seconds).
  const fiveTimes = (text: string): void => {
    for (let i = 0; i < 5; i++) subTokens(text);
  };
  assertLinear('subTokens', (n) => 'A'.repeat(n), fiveTimes, { small: 1 << 14, large: 1 << 18, slackMs: 50, runs: 3 });
});

test('indexing reads a bounded prefix, cut at a break, and skips data-sized identifiers', () => {
  assert.equal(indexedPrefix('short'), 'short');
  const text = `${'word '.repeat(INDEXED_CHARS / 5 + 100)}`;
  const prefix = indexedPrefix(text);
  assert.ok(prefix.length <= INDEXED_CHARS && prefix.length > INDEXED_CHARS - 256);
  assert.ok(prefix.endsWith(' '), 'cut at a break, not inside a word');
  const emoji = indexedPrefix('😀'.repeat(10), 5);
  assert.equal(emoji, '😀😀', 'no half surrogate pair');
  const blob = 'K'.repeat(MAX_IDENTIFIER_CHARS + 1);
  assert.deepEqual(distinctIdentifiers(`getUser ${blob} setUser`), ['getUser', 'setUser']);
  const huge = `findMe ${'x '.repeat(INDEXED_CHARS)} lateWord`;
  assert.ok(wordIndexText(huge).length < INDEXED_CHARS + 100);
  assert.ok(!wordIndexText(huge).includes('lateWord'));
  assert.ok(termCounts(huge).has('find'));
  assert.ok(!termCounts(huge).has('late'), 'similarity counts terms of the opening only');
});

test('a query is de-duplicated and capped: terms, term length, phrases, characters', () => {
  const many = Array.from({ length: 1000 }, (_, i) => `t${i}`).join(' ');
  assert.equal(parseQuery(many).terms.length, MAX_QUERY_TERMS);
  assert.deepEqual(parseQuery('a a A b a').terms, ['a', 'b']);
  assert.equal(parseQuery('z'.repeat(10_000)).terms[0]!.length, MAX_TERM_CHARS);
  const phrases = Array.from({ length: 50 }, (_, i) => `"p ${i}"`).join(' ');
  assert.equal(parseQuery(phrases).phrases.length, MAX_QUERY_PHRASES);
  assert.deepEqual(parseQuery('"same" "same" x').phrases, ['same']);
  assert.ok(parseQuery(`${'w '.repeat(100_000)}late`).terms.every((term) => term !== 'late'), 'past the character cap nothing is read');
});
