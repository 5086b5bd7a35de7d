import { test } from 'node:test';
import assert from 'node:assert/strict';
import { subTokens, distinctIdentifiers, wordIndexText, trigrams } from '../../../src/core/search/tokens.ts';
import { parseQuery } from '../../../src/core/search/query.ts';
import { TfIdf, similarByIndex, termCounts, type TermIndex } from '../../../src/core/search/related.ts';
import { SearchIndex } from '../../../src/core/search/searchIndex.ts';
import { indexedDocument } from '../../../src/core/search/indexedDocument.ts';
import { Database } from '../../../src/core/store/database.ts';
import { baseMigrations } from '../../../src/core/store/baseSchema.ts';
import { assetMigrations } from '../../../src/core/assets/schema.ts';
import { tempDir } from '../../support/helpers.ts';

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

test('similarity through the word index agrees with the exact TF-IDF on who comes first', () => {
  const words = 'amber basil cedar delta ember fjord garnet harbor indigo juniper kelp lotus maple nectar onyx pepper quartz raven sage tulip umber violet willow yarrow'.split(' ');
  const cap = (w: string) => w[0]!.toUpperCase() + w.slice(1);
  // 24 topics of 10 documents each: every topic word is in about 4% of the corpus.
  const docs = Array.from({ length: 240 }, (_, i) => {
    const t = i % words.length;
    const [a, b, c] = [words[t]!, words[(t + 7) % words.length]!, words[(t + 13) % words.length]!];
    return { id: `d${i}`, text: `function ${a}${cap(b)}(x) { const y = ${b}${cap(c)}(x); return ${c}${cap(a)}(y) + step${i}(y); }` };
  });
  const exact = new TfIdf(docs);
  const counts = docs.map((doc) => termCounts(doc.text));
  const index: TermIndex = {
    size: docs.length,
    frequencies: (terms) => new Map(terms.map((t) => [t, counts.filter((c) => c.has(t)).length] as [string, number]).filter(([, df]) => df > 0)),
    holders: (term, limit) => counts.flatMap((c, i) => (c.has(term) ? [i] : [])).reverse().slice(0, limit),
    texts: (rows) => rows.map((i) => docs[i]!),
  };
  const topicOf = (id: string) => Number(id.slice(1)) % words.length;
  for (const t of [0, 5, 17]) {
    const [a, b] = [words[t]!, words[(t + 7) % words.length]!];
    const query = `const z = ${a}${cap(b)}(input); log(z);`;
    const fromIndex = similarByIndex(query, index, { limit: 5 });
    const fromAll = exact.similar(query, { limit: 5 });
    assert.equal(fromIndex.length, 5, query);
    assert.ok(fromIndex.every((s) => topicOf(s.id) === t), `all five on topic for ${query}`);
    assert.ok(fromAll.every((s) => topicOf(s.id) === t), 'the exact TF-IDF agrees');
  }
  assert.deepEqual(similarByIndex('function return', index), [], 'keywords alone relate to nothing');
  const excluded = similarByIndex(docs[0]!.text, index, { exclude: new Set(['d0']), limit: 3 });
  assert.equal(excluded.length, 3);
  assert.ok(excluded.every((s) => s.id !== 'd0' && topicOf(s.id) === 0));
});

test('the word index answers term frequencies and newest holders (what large-store similarity reads)', () => {
  const database = Database.open({ dataDir: tempDir(), migrations: [...baseMigrations, ...assetMigrations] });
  try {
    const index = new SearchIndex(database);
    database.transaction(() => {
      index.insert(1, indexedDocument('a', '', 'getUserById(id)'));
      index.insert(2, indexedDocument('b', '', 'const user = loadUser()'));
      index.insert(3, indexedDocument('c', '', 'drawCircle()'));
    });
    assert.deepEqual(index.termFrequencies(['user', 'drawcircle', 'absent']), new Map([['user', 2], ['drawcircle', 1]]));
    assert.deepEqual(index.termHolders('user', 10), [2, 1], 'newest first');
    assert.deepEqual(index.termHolders('user', 1), [2]);
    database.transaction(() => index.remove(2));
    assert.deepEqual(index.termHolders('user', 10), [1]);
  } finally {
    database.close();
  }
});
