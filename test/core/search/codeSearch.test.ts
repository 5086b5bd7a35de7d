/**
 * Code search (GET /search/neural_code) weighs every word a person searches for (issue 26 item 4):
 * words held by more than 5% of a large store are boilerplate when a whole text is the query
 * (related assets), but when every word of "retry backoff" was that common the search found
 * nothing, `retryWithBackoffProbe` included. Both ways of weighing are checked: the exact TF-IDF
 * of small stores and the index-backed one of large stores (10k snippets here).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TfIdf } from '../../../src/core/search/related.ts';
import { EXACT_SIMILARITY_MAX } from '../../../src/core/assets/similarity.ts';
import { withCore } from '../../support/helpers.ts';
import type { ImportSource } from '../../../src/core/import/importSource.ts';
import { codeSeed } from '../../support/assetFixtures.ts';
import { TEST_WRITE } from '../../support/authors.ts';

/** The i-th filler snippet: a tenth mention retries, another tenth backoff, never both. */
function filler(i: number): string {
  if (i % 10 === 1) return `export function retryCount${i}(attempt: number) { return attempt + ${i}; }`;
  if (i % 10 === 2) return `export function backoffDelay${i}(ms: number) { return ms * ${i}; }`;
  return `export function fillerValue${i}(input: number) { return input * ${i}; }`;
}

const PROBE = 'export async function retryWithBackoffProbe(task: () => Promise<void>) { await task(); }';

test('the exact TF-IDF finds a document by words common to the corpus when every term is wanted', () => {
  const corpus = Array.from({ length: 300 }, (_, i) => ({ id: `d${i}`, text: filler(i) }));
  corpus.push({ id: 'probe', text: PROBE });
  const tfidf = new TfIdf(corpus);
  assert.equal(tfidf.similar('retry backoff', { terms: 'all' })[0]?.id, 'probe');
  // A whole text as the query (related assets) still ignores what a tenth of the corpus holds.
  assert.deepEqual(tfidf.similar('retry backoff'), []);
});

test('GET /search/neural_code finds retryWithBackoffProbe by "retry backoff" among 10k snippets where both words are common', async () => {
  await withCore(async (core) => {
    const entries: Array<[string, { scope: string; prefix: string; body: string }]> = Array.from({ length: 10_000 }, (_, i) => [
      `Snippet ${i}`,
      { scope: 'typescript', prefix: `s${i}`, body: filler(i) },
    ]);
    entries.splice(5000, 0, ['Retry with backoff probe', { scope: 'typescript', prefix: 'probe', body: PROBE }]);
    const source: ImportSource = { name: 'many.code-snippets', text: () => JSON.stringify(Object.fromEntries(entries)) };
    const summary = await core.imports.import([source]);
    assert.equal(summary.imported, 10_001);
    assert.ok(core.assets.identifiers().length > EXACT_SIMILARITY_MAX, 'the index-backed similarity is the one searched');
    const found = core.assets.searches.codeSearch('retry backoff', { transferables: false, pseudo: false }).iterable;
    assert.equal(found[0]?.asset?.name, 'Retry with backoff probe', `first of ${found.length}: ${found[0]?.asset?.name}`);
  });
});

test('without a model, GET /search/neural_code is the lexical search: identifier parts, short keywords, typos, in its order', async () => {
  await withCore(async (core) => {
    await core.assets.writes.create(codeSeed(PROBE, 'probe helper'), TEST_WRITE);
    await core.assets.writes.create(codeSeed('const answer = 42;\n', 'the answer'), TEST_WRITE);
    await core.assets.writes.create(codeSeed('def parse_json_file(path):\n    return json.load(open(path))\n', 'reader'), TEST_WRITE);
    for (let i = 0; i < 30; i++) await core.assets.writes.create(codeSeed(filler(i), `filler ${i}`), TEST_WRITE);
    const options = { transferables: false, pseudo: false };
    const names = (found: { iterable: Array<{ asset?: { name?: string } }> }) => found.iterable.map((hit) => hit.asset?.name);
    for (const [query, first] of [['retry backoff', 'probe helper'], ['const', 'the answer'], ['json file', 'reader'], ['retryWithBackoff', 'probe helper']] as const) {
      const code = names(core.assets.searches.codeSearch(query, options));
      assert.equal(code[0], first, `${query}: ${code.join(', ')}`);
      assert.deepEqual(code, names(core.assets.searches.search({ query }, options)), `${query}: the lexical search's results in its order`);
    }
  });
});
