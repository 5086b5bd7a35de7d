/**
 * How a search with a query runs (SemanticRecall.plan): hybrid with the model and its vector count,
 * or lexical with the reason a caller can show (neural_code's headers, MCP's last line); and how
 * an embedder is fed: the text it reads best, in batches when it can take them.
 */
import { test, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { openAssetStore, codeSeed, type AssetStore } from '../../support/assetFixtures.ts';
import { SemanticRecall } from '../../../src/core/search/semanticRecall.ts';
import type { Embedder } from '../../../src/core/models/embedder.ts';
import { TEST_AUTHOR } from '../../support/authors.ts';

/** A model with one dimension per letter; `queryDelayMs` slows single texts (queries), not batches. */
class LetterEmbedder implements Embedder {
  readonly modelId: string;
  readonly reads: Embedder['reads'];
  readonly singles: string[] = [];
  readonly batches: string[][] = [];
  queryDelayMs = 0;

  constructor(modelId: string, reads: Embedder['reads'], batched: boolean) {
    this.modelId = modelId;
    this.reads = reads;
    if (!batched) this.embedMany = undefined;
  }

  async embed(text: string): Promise<Float32Array> {
    this.singles.push(text);
    if (this.queryDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.queryDelayMs));
    return letters(text);
  }

  embedMany?: (texts: readonly string[]) => Promise<Float32Array[]> = async (texts) => {
    this.batches.push([...texts]);
    return texts.map(letters);
  };
}

function letters(text: string): Float32Array {
  const vector = new Float32Array(26);
  for (const c of text.toLowerCase()) if (c >= 'a' && c <= 'z') vector[c.charCodeAt(0) - 97]! += 1;
  return vector;
}

let s: AssetStore;
let embedder: Embedder | undefined;
let recall: SemanticRecall;

function loadModel(next: Embedder | undefined): void {
  embedder = next;
  s.context.publish({ kind: 'model', id: next?.modelId ?? 'none' });
}

beforeEach(async () => {
  s = openAssetStore();
  embedder = undefined;
  recall = new SemanticRecall(
    s.context,
    {
      embedder: () => embedder,
      textOf: (id) => s.assets.text(id),
      tagsOf: (id) => s.assets.labels.tagsOfAsset(id).map((tag) => tag.text),
      registerIndexer: (indexer) => s.assets.registerIndexer(indexer),
    },
    { queryTimeoutMs: 200 },
  );
  for (let i = 0; i < 20; i++) await s.assets.writes.create(codeSeed(`export const fetchWithRetry${i} = (url) => fetch(url);`, `fetchWithRetry${i}`, { tags: ['http'] }), { author: TEST_AUTHOR });
});
afterEach(() => {
  recall.dispose();
  s.close();
});

test('a search is lexical and says why: no model, an empty query, a query vector slower than the limit; else hybrid with its model and vectors', async () => {
  assert.deepEqual((await recall.plan('download a page')).mode, { mode: 'lexical', reason: 'no embedding model is loaded' });
  const model = new LetterEmbedder('letters', 'code', true);
  loadModel(model);
  await recall.idle();
  assert.deepEqual(await recall.plan('   '), { mode: { mode: 'lexical', reason: 'the query is empty' } });
  const hybrid = await recall.plan('download a page');
  assert.deepEqual(hybrid.mode, { mode: 'hybrid', model: 'letters', vectors: 20 });
  assert.ok(hybrid.semantic, 'a hybrid plan carries the query for the search');
  model.queryDelayMs = 1000;
  const slow = await recall.plan('a query never asked before');
  assert.equal(slow.semantic, undefined);
  assert.match(slow.mode.mode === 'lexical' ? slow.mode.reason : '', /^the query's vector failed: no answer within 200 ms$/);
  assert.equal(await recall.prepare('a query never asked before either'), undefined, 'prepare is the plan without the reason');
});

test('a model that takes batches gets the back-fill 16 at a time; a model reading words gets names, tags and identifier words', async () => {
  const words = new LetterEmbedder('letters', 'words', true);
  loadModel(words);
  await recall.idle();
  assert.deepEqual(words.batches.map((batch) => batch.length), [16, 4]);
  assert.ok(words.batches.flat().includes('fetch With Retry3. http. export const fetch with retry3 url'), words.batches[0]![0]);

  const code = new LetterEmbedder('letters-code', 'code', false);
  loadModel(code);
  await recall.idle();
  assert.equal(code.batches.length, 0);
  assert.ok(code.singles.includes('fetchWithRetry3\nhttp\n\nexport const fetchWithRetry3 = (url) => fetch(url);'), code.singles[1]);
});
