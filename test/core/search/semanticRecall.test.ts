/**
 * Semantic recall over a fake embedder at the core boundary (the Embedder interface), so quality
 * can be asserted: vectors follow writes, back-fill after a load, cancellation, hybrid ordering,
 * a match by meaning alone, unloading back to lexical search and a model change re-embedding.
 * The real model runtime is driven in test/server/semanticRecall.test.ts.
 */
import { test, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { openAssetStore, codeSeed, type AssetStore } from '../../support/assetFixtures.ts';
import { SemanticRecall, type RecallStatus } from '../../../src/core/search/semanticRecall.ts';
import type { Embedder } from '../../../src/core/models/embedder.ts';
import type { SearchOptions } from '../../../src/core/assets/assetService.ts';
import { TEST_AUTHOR, TEST_WRITE } from '../../support/authors.ts';

/** Words of one meaning share a dimension: a crude but predictable "sentence embedding". */
const CONCEPTS: readonly (readonly string[])[] = [
  ['fetch', 'http', 'request', 'download', 'url', 'web', 'page', 'axios', 'get'],
  ['retry', 'again', 'attempt', 'backoff', 'fails', 'failure', 'retries', 'until'],
  ['sort', 'order', 'arrange', 'ascending', 'compare', 'ranking'],
  ['file', 'disk', 'read', 'fs', 'contents', 'load'],
  ['date', 'time', 'calendar', 'day', 'timestamp', 'clock'],
  ['user', 'account', 'person', 'profile', 'customer'],
];

class FakeEmbedder implements Embedder {
  readonly modelId: string;
  readonly reads = 'code';
  readonly texts: string[] = [];
  private readonly extra: number;
  private readonly delayMs: number;

  constructor(modelId: string, options: { extra?: number; delayMs?: number } = {}) {
    this.modelId = modelId;
    this.extra = options.extra ?? 8;
    this.delayMs = options.delayMs ?? 0;
  }

  async embed(text: string): Promise<Float32Array> {
    this.texts.push(text);
    if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    const vector = new Float32Array(CONCEPTS.length + this.extra);
    const words = text.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z]+/).filter(Boolean);
    for (const word of words) {
      const concept = CONCEPTS.findIndex((group) => group.includes(word));
      if (concept >= 0) vector[concept]! += 1;
      else vector[CONCEPTS.length + (hash(word) % this.extra)]! += 0.05;
    }
    return vector;
  }
}

function hash(word: string): number {
  let h = 2166136261;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 16777619);
  return h >>> 0;
}

let s: AssetStore;
let recall: SemanticRecall;
let embedder: Embedder | undefined;
const statuses: RecallStatus[] = [];

function loadModel(next: Embedder | undefined): void {
  embedder = next;
  s.context.publish({ kind: 'model', id: next?.modelId ?? 'none' });
}

beforeEach(() => {
  s = openAssetStore();
  embedder = undefined;
  statuses.length = 0;
  recall = new SemanticRecall(s.context, {
    embedder: () => embedder,
    textOf: (id) => s.assets.text(id),
    tagsOf: (id) => s.assets.labels.tagsOfAsset(id).map((tag) => tag.text),
    registerIndexer: (indexer) => s.assets.registerIndexer(indexer),
  });
  recall.onDidChangeStatus((status) => statuses.push(status));
});
afterEach(() => {
  recall.dispose();
  s.close();
});

const OPTIONS: SearchOptions = { transferables: false, pseudo: false };

async function names(query: string): Promise<string[]> {
  const semantic = await recall.prepare(query);
  return s.assets.searches.search({ query }, { ...OPTIONS, semantic }).iterable.map((hit) => hit.asset?.name ?? '?');
}

function vectorRows(): Array<{ asset_id: string; model: string; dimension: number; stale: number; vector: Uint8Array }> {
  return s.context.database.prepare('SELECT asset_id, model, dimension, stale, vector FROM asset_vectors ORDER BY asset_id').all() as never;
}

async function seedCorpus(): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  const add = async (name: string, code: string) => (ids[name] = (await s.assets.writes.create(codeSeed(code, name), { author: TEST_AUTHOR })).id);
  await add('fetchWithRetry', 'async function fetchWithRetry(url, attempts) {\n  for (let i = 0; i < attempts; i++) {\n    try { return await fetch(url); } catch { await sleep(2 ** i * 100); }\n  }\n}');
  await add('sortByName', 'const sortByName = (rows) => rows.sort((a, b) => a.name.localeCompare(b.name));');
  await add('readConfig', "import { readFileSync } from 'node:fs';\nexport const readConfig = (p) => JSON.parse(readFileSync(p, 'utf8'));");
  await add('formatTimestamp', 'export const formatTimestamp = (ms) => new Date(ms).toISOString();');
  await add('createUserProfile', 'export function createUserProfile(account) { return { id: account.id, display: account.name }; }');
  await add('lookupAccount', 'export function lookupAccount(id) { return accounts.find((a) => a.id === id); }');
  return ids;
}

/** 40 assets, and a slow model's back-fill that has made a few of their vectors. */
async function backfillUnderWay(): Promise<FakeEmbedder> {
  for (let i = 0; i < 40; i++) await s.assets.writes.create(codeSeed(`export const value${i} = ${i};`, `value${i}`), { author: TEST_AUTHOR });
  const slow = new FakeEmbedder('embed-slow', { delayMs: 5 });
  loadModel(slow);
  const deadline = Date.now() + 5000;
  while (slow.texts.length < 5 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  return slow;
}

test('without an embedding model search is lexical, and writes store no vectors', async () => {
  await seedCorpus();
  assert.equal(await recall.prepare('sortByName'), undefined);
  assert.deepEqual(await names('sortByName'), ['sortByName']);
  assert.equal(vectorRows().length, 0);
  assert.equal(recall.status().state, 'off');
});

test('loading a model back-fills a vector per asset, with its model id and dimension, and reports progress', async () => {
  const ids = await seedCorpus();
  const model = new FakeEmbedder('embed-a');
  loadModel(model);
  await recall.idle();
  const rows = vectorRows();
  assert.deepEqual(rows.map((row) => row.asset_id).sort(), Object.values(ids).sort());
  for (const row of rows) {
    assert.equal(row.model, 'embed-a');
    assert.equal(row.dimension, CONCEPTS.length + 8);
    assert.equal(row.stale, 0);
    assert.equal(row.vector.byteLength, 4 * row.dimension, 'Float32 blob');
  }
  const last = statuses.at(-1)!;
  assert.equal(last.state, 'ready');
  assert.equal(last.vectors, 6);
  assert.equal(last.done, last.total);
  assert.ok(statuses.some((status) => status.state === 'indexing'), 'progress was reported while indexing');
  // The probe plus one text per asset; a second load of the same model makes nothing again.
  assert.equal(model.texts.length, 1 + 6);
  loadModel(undefined);
  const again = new FakeEmbedder('embed-a');
  loadModel(again);
  await recall.idle();
  assert.equal(again.texts.length, 1, 'only the dimension probe: every stored vector was reused');
  assert.equal(recall.status().vectors, 6);
});

test('vectors follow creates, updates and deletes', async () => {
  const ids = await seedCorpus();
  const model = new FakeEmbedder('embed-a');
  loadModel(model);
  await recall.idle();
  const created = await s.assets.writes.create(codeSeed('export const parseCsvLine = (line) => line.split(",");', 'parseCsvLine'), { author: TEST_AUTHOR });
  await recall.idle();
  assert.ok(vectorRows().some((row) => row.asset_id === created.id && row.stale === 0), 'a created asset gets a vector');

  const before = vectorRows().find((row) => row.asset_id === ids['sortByName'])!;
  s.assets.writes.update({ ...s.assets.get(ids['sortByName']!), name: 'arrange customers in order' }, TEST_WRITE);
  assert.equal(vectorRows().find((row) => row.asset_id === ids['sortByName'])!.stale, 1, 'the write marked it stale in its transaction');
  await recall.idle();
  const after = vectorRows().find((row) => row.asset_id === ids['sortByName'])!;
  assert.equal(after.stale, 0);
  assert.notDeepEqual(Buffer.from(after.vector), Buffer.from(before.vector), 'the vector was made again from the new name');
  assert.ok(model.texts.at(-1)!.startsWith('arrange customers in order'));

  // A write that changes nothing embedded (the score) costs no model call.
  const calls = model.texts.length;
  s.assets.writes.update({ ...s.assets.get(ids['readConfig']!), favorited: true }, TEST_WRITE);
  await recall.idle();
  assert.equal(model.texts.length, calls);
  assert.equal(vectorRows().find((row) => row.asset_id === ids['readConfig'])!.stale, 0);

  s.assets.writes.delete(ids['fetchWithRetry']!, TEST_WRITE);
  assert.ok(!vectorRows().some((row) => row.asset_id === ids['fetchWithRetry']), 'deleted with the asset, in its transaction');
  assert.ok(!(await names('download the web page again')).includes('fetchWithRetry'));
  assert.equal(recall.status().vectors, 6);
});

test('an asset found by meaning alone, where lexical search finds nothing', async () => {
  await seedCorpus();
  const query = 'download the web page again';
  assert.deepEqual(await names(query), [], 'no lexical match');
  loadModel(new FakeEmbedder('embed-a'));
  await recall.idle();
  const semantic = await recall.prepare(query);
  const hits = s.assets.searches.search({ query }, { ...OPTIONS, semantic }).iterable;
  assert.equal(hits[0]?.asset?.name, 'fetchWithRetry');
  assert.equal(hits[0]?.exact, false, 'a match by meaning is a suggestion, not an exact match');
  assert.equal(hits[0]?.match, 'CONTENT');
  assert.ok(!hits.some((hit) => hit.asset?.name === 'formatTimestamp'), 'dissimilar assets stay out (minimum similarity)');
  // Phrases are exact constraints: a quoted query is lexical only.
  assert.deepEqual(
    s.assets.searches.search({ query: `"${query}"` }, { ...OPTIONS, semantic: await recall.prepare(`"${query}"`) }).iterable,
    [],
  );
});

/** FakeEmbedder's vectors crowded in one narrow cone (a large part every text shares), as the built-in encoder's are. */
class ConeEmbedder extends FakeEmbedder {
  readonly centre: Embedder['centre'];

  constructor(modelId: string, centred: boolean) {
    super(modelId);
    // The prior: the shared direction (a mean of unit vectors is shorter than 1), counted as 4 snippets.
    this.centre = centred ? { prior: Array.from(ConeEmbedder.shared(), (x) => 0.9 * x), weight: 4 } : undefined;
  }

  static shared(): Float32Array {
    const dimension = CONCEPTS.length + 8;
    return new Float32Array(dimension).fill(1 / Math.sqrt(dimension));
  }

  override async embed(text: string): Promise<Float32Array> {
    const vector = await super.embed(text);
    const shared = ConeEmbedder.shared();
    return vector.map((x, i) => x + 6 * shared[i]!);
  }
}

test('a model whose vectors crowd in a cone is compared from the library\'s centre: unrelated snippets stop matching', async () => {
  await seedCorpus();
  const query = 'download the web page again';
  const found = async () => s.assets.searches.search({ query }, { ...OPTIONS, semantic: await recall.prepare(query) }).iterable.map((hit) => hit.asset?.name);
  loadModel(new ConeEmbedder('cone-plain', false));
  await recall.idle();
  const plain = await found();
  assert.ok(plain.includes('formatTimestamp'), `uncentred, every snippet is near every query: ${plain.join(', ')}`);
  loadModel(new ConeEmbedder('cone-centred', true));
  await recall.idle();
  const centred = await found();
  assert.equal(centred[0], 'fetchWithRetry');
  assert.ok(!centred.includes('formatTimestamp'), `centred, the dissimilar snippet stays out: ${centred.join(', ')}`);
});

test('hybrid ordering: lexical and vector hits fused, the same order every time', async () => {
  await seedCorpus();
  assert.deepEqual(await names('user'), ['createUserProfile'], 'lexical alone');
  loadModel(new FakeEmbedder('embed-a'));
  await recall.idle();
  const first = await names('user');
  // Both rankings place createUserProfile first; meaning adds lookupAccount ("account" ~ user).
  assert.deepEqual(first.slice(0, 2), ['createUserProfile', 'lookupAccount']);
  for (let i = 0; i < 5; i++) assert.deepEqual(await names('user'), first);
  const hits = s.assets.searches.search({ query: 'user' }, { ...OPTIONS, semantic: await recall.prepare('user') }).iterable;
  const scores = hits.map((hit) => hit.score);
  assert.deepEqual([...scores].sort((a, b) => b - a), scores, 'scores follow the fused order');
  assert.deepEqual(hits.slice(0, 2).map((hit) => hit.exact), [true, false]);
});

test('unloading the model returns search to lexical', async () => {
  await seedCorpus();
  const lexical = await names('user');
  loadModel(new FakeEmbedder('embed-a'));
  await recall.idle();
  assert.notDeepEqual(await names('user'), lexical);
  loadModel(undefined);
  assert.equal(recall.status().state, 'off');
  assert.equal(await recall.prepare('user'), undefined);
  assert.deepEqual(await names('user'), lexical);
});

test('a model change ignores the old vectors and makes new ones; writes while unloaded are caught up', async () => {
  const ids = await seedCorpus();
  loadModel(new FakeEmbedder('embed-a'));
  await recall.idle();
  const b = new FakeEmbedder('embed-b', { extra: 16 });
  loadModel(b);
  await recall.idle();
  assert.equal(b.texts.length, 1 + 6, 'every asset embedded again by the new model');
  assert.ok(vectorRows().every((row) => row.model === 'embed-b' && row.dimension === CONCEPTS.length + 16));
  assert.equal((await names('download the web page again'))[0], 'fetchWithRetry');

  loadModel(undefined);
  s.assets.writes.update({ ...s.assets.get(ids['readConfig']!), name: 'load settings from disk' }, TEST_WRITE);
  await s.assets.writes.create(codeSeed('export const clamp = (x, lo, hi) => Math.min(hi, Math.max(lo, x));', 'clamp'), { author: TEST_AUTHOR });
  const again = new FakeEmbedder('embed-b', { extra: 16 });
  loadModel(again);
  await recall.idle();
  assert.equal(again.texts.length, 1 + 2, 'only the changed and the new asset');
  assert.ok(vectorRows().every((row) => row.stale === 0));
});

test('unloading during a back-fill cancels it', async () => {
  const slow = await backfillUnderWay();
  loadModel(undefined);
  await recall.idle();
  const made = slow.texts.length;
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(slow.texts.length, made, 'no vector is made after the unload');
  assert.ok(made < 41, `the back-fill stopped early (${made} calls)`);
  assert.equal(recall.status().state, 'off');
  assert.ok(vectorRows().length < 40);
});

test('cancelling the back-fill keeps the model: search uses what was made, new writes still get vectors', async () => {
  await backfillUnderWay();
  assert.equal(recall.cancelBackfill(), true);
  await recall.idle();
  const status = recall.status();
  assert.equal(status.state, 'cancelled');
  assert.ok(status.done < status.total, `${status.done} of ${status.total}`);
  assert.ok(vectorRows().length < 40);
  assert.equal(recall.cancelBackfill(), false, 'nothing left to cancel');
  const created = await s.assets.writes.create(codeSeed('export const fetchPage = (url) => fetch(url);', 'fetchPage'), { author: TEST_AUTHOR });
  await recall.idle();
  assert.ok(vectorRows().some((row) => row.asset_id === created.id));
  assert.equal((await names('download the web page'))[0], 'fetchPage');
});

test('code search (GET /search/neural_code) is fused with vector similarity while a model is loaded', async () => {
  await seedCorpus();
  const query = 'download the web page again';
  const codeNames = async () =>
    s.assets.searches.codeSearch(query, { ...OPTIONS, semantic: await recall.prepare(query) }).iterable.map((hit) => hit.asset?.name);
  assert.notEqual((await codeNames())[0], 'fetchWithRetry', 'TF-IDF over identifiers alone does not find it first');
  loadModel(new FakeEmbedder('embed-a'));
  await recall.idle();
  assert.equal((await codeNames())[0], 'fetchWithRetry');
});
