import { test } from 'node:test';
import assert from 'node:assert/strict';
import { subTokens, distinctIdentifiers, wordIndexText, trigrams } from '../../../src/core/search/tokens.ts';
import { parseQuery, containsPhrase } from '../../../src/core/search/query.ts';
import { TfIdf } from '../../../src/core/search/related.ts';

test('identifiers split into camelCase and snake_case sub-tokens', () => {
  assert.deepEqual(subTokens('getUserById'), ['get', 'user', 'by', 'id']);
  assert.deepEqual(subTokens('parse_config_stream'), ['parse', 'config', 'stream']);
  assert.deepEqual(subTokens('HTTPServerError'), ['http', 'server', 'error']);
  assert.deepEqual(distinctIdentifiers('a = getUser(a); getUser(b); x'), ['getUser']);
  assert.match(wordIndexText('getUserById()'), /\buser\b/);
  assert.deepEqual(trigrams('abcd'), ['abc', 'bcd']);
  assert.deepEqual(trigrams('ab'), []);
});

test('queries split into exact phrases and loose terms', () => {
  assert.deepEqual(parseQuery('Foo "a b" bar'), { phrases: ['a b'], terms: ['foo', 'bar'] });
  assert.deepEqual(parseQuery('"unbalanced quote'), { phrases: [], terms: ['unbalanced', 'quote'] });
  assert.deepEqual(parseQuery('""  x'), { phrases: [], terms: ['x'] });
  assert.ok(containsPhrase('Hello World', 'lo wo'));
  assert.ok(!containsPhrase('Hello World', 'lo wo', true));
});

test('TF-IDF ranks documents sharing identifier sub-tokens first and ignores keywords', () => {
  const tfidf = new TfIdf([
    { id: 'csv', text: 'function parseCsvRow(line) { return line.split(","); }' },
    { id: 'csv2', text: 'const rows = text.split("\\n").map(parseCsvRow);' },
    { id: 'draw', text: 'function drawCircle(ctx, r) { ctx.arc(0, 0, r, 0, 7); }' },
  ]);
  const similar = tfidf.similar('parseCsvRow(x)', { exclude: new Set(['csv']) });
  assert.equal(similar[0]?.id, 'csv2');
  assert.ok(!similar.some((s) => s.id === 'draw'));
  assert.ok(tfidf.between('csv', 'csv2') > tfidf.between('csv', 'draw'));
  assert.deepEqual(tfidf.similar('function return'), []);
});
