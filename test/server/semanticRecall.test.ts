/**
 * Semantic recall through the real model runtime (node-llama-cpp in its own process, a generated
 * tiny GGUF served from 127.0.0.1) and over HTTP: loading an embedding model back-fills vectors of
 * its dimension, writes keep them in step, GET and POST /assets/search and the MCP search_snippets tool become hybrid, the host
 * answers health meanwhile, unloading returns to lexical and another model re-embeds. The random
 * weights say nothing about quality; semanticRecall.test.ts in test/core asserts that.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, request, type TestServer } from '../support/helpers.ts';
import { FileServer } from '../support/fileServer.ts';
import { tinyGguf } from '../support/gguf.ts';
import { servedEntry } from '../support/catalogEntry.ts';
import type { CatalogEntry } from '../../src/core/models/catalog.ts';
import { SatchelClient } from '../../src/client/satchelClient.ts';
import { callTool, connectMcp } from '../support/mcpClient.ts';

let files: FileServer;
let t: TestServer;

const entry = (id: string, file: string): CatalogEntry => servedEntry(files, id, file, 'TEXT_EMBEDDING');

before(async () => {
  files = await FileServer.start();
  files.set('e64.gguf', tinyGguf({ seed: 21, embd: 64 }));
  files.set('e32.gguf', tinyGguf({ seed: 22, embd: 32, heads: 4, kvHeads: 4 }));
  t = await startTestServer({
    models: { catalog: [entry('embed-64', 'e64.gguf'), entry('embed-32', 'e32.gguf')], retryBackoffMs: 20, idleUnloadMs: 0 },
  });
  for (const id of ['embed-64', 'embed-32']) await downloaded(id);
});
after(async () => {
  await t.close();
  await files.close();
});

async function downloaded(id: string): Promise<void> {
  await t.core.models.download(id);
  const end = Date.now() + 20_000;
  while (!t.core.models.get(id).downloaded) {
    if (Date.now() > end) assert.fail(`${id} did not download`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function vectors(): Array<{ asset_id: string; model: string; dimension: number; stale: number }> {
  return t.core.context.database.prepare('SELECT asset_id, model, dimension, stale FROM asset_vectors').all() as never;
}

async function create(raw: string, name: string): Promise<string> {
  const reply = await request(t.url, 'POST', '/assets/create', {
    body: { type: 'SEEDED_ASSET', asset: { application: { id: 'test-app', name: 'OPEN_SOURCE', version: '1.0.0', platform: 'LINUX', onboarded: false, privacy: 'OPEN' }, format: { fragment: { string: { raw } } }, metadata: { name } } },
  });
  assert.equal(reply.status, 200, reply.text);
  return reply.json.id as string;
}

test('the real embedding runtime: back-fill, writes, hybrid search over HTTP, unload and model change', async () => {
  const ids: string[] = [];
  for (let i = 0; i < 12; i++) ids.push(await create(`export function step${i}(value) {\n  return value + ${i};\n}\n`, `step ${i}`));
  await create('export const shout = (s) => s.toUpperCase();', 'shout');
  assert.equal(vectors().length, 0, 'no model, no vectors');
  const lexical = (await request(t.url, 'GET', '/assets/search?query=shout')).json;
  assert.equal(lexical.iterable.length, 1);

  const health: number[] = [];
  const loading = request(t.url, 'POST', '/model/embed-64/load');
  const polling = (async () => {
    while (t.core.recall.status().state !== 'ready') {
      const started = Date.now();
      assert.equal((await request(t.url, 'GET', '/.well-known/health')).status, 200);
      health.push(Date.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  assert.equal((await loading).status, 200);
  await polling;
  await t.core.recall.idle();
  assert.ok(health.length > 0);
  let rows = vectors();
  assert.equal(rows.length, 13);
  assert.ok(rows.every((row) => row.model === 'embed-64' && row.dimension === 64 && row.stale === 0), JSON.stringify(rows[0]));
  assert.equal(t.core.recall.status().vectors, 13);
  const status = (await request(t.url, 'GET', '/search/semantic')).json;
  assert.deepEqual({ model: status.model, state: status.state, vectors: status.vectors }, { model: 'embed-64', state: 'ready', vectors: 13 });
  assert.equal(status.done, status.total);
  const client = new SatchelClient(t.url);
  try {
    assert.deepEqual(await client.models.semanticStatus(), status, 'the typed client reads the same status');
    assert.equal((await client.models.cancelSemanticBackfill()).cancelled, false, 'nothing to cancel once ready');
  } finally {
    client.dispose();
  }

  // Writes: a new asset gets a vector, a deleted one loses it.
  const fresh = await create('export const whisper = (s) => s.toLowerCase();', 'whisper');
  assert.equal((await request(t.url, 'POST', `/assets/${ids[0]}/delete`)).status, 200);
  await t.core.recall.idle();
  rows = vectors();
  assert.ok(rows.some((row) => row.asset_id === fresh));
  assert.ok(!rows.some((row) => row.asset_id === ids[0]));

  // Search is hybrid: the lexical hit leads (a tie goes to the lexical ranking), vector neighbours follow as suggestions.
  const hybrid = (await request(t.url, 'GET', '/assets/search?query=shout')).json;
  assert.equal(hybrid.iterable[0].asset.name, lexical.iterable[0].asset.name);
  assert.ok(hybrid.iterable.length > lexical.iterable.length, 'vector neighbours were added');
  assert.ok(hybrid.iterable.slice(lexical.iterable.length).every((hit: { exact: boolean }) => hit.exact === false));
  const posted = await request(t.url, 'POST', '/assets/search', { body: { query: 'shout' } });
  assert.equal(posted.status, 200);
  assert.deepEqual(
    posted.json.results.iterable.map((hit: { identifier: string }) => hit.identifier),
    hybrid.iterable.map((hit: { identifier: string }) => hit.identifier),
  );

  // The MCP server's search_snippets goes through the same hybrid search.
  const mcp = await connectMcp(t.url, 'satchel-semantic-test');
  try {
    const result = await callTool(mcp, 'search_snippets', { query: 'shout', limit: 50 });
    const snippets = (result.structuredContent as { snippets: Array<{ id: string }> }).snippets;
    assert.deepEqual(
      snippets.map((snippet) => snippet.id),
      hybrid.iterable.map((hit: { identifier: string }) => hit.identifier),
    );
  } finally {
    await mcp.close();
  }

  // Another model: its vectors replace the first model's (another dimension, too).
  assert.equal((await request(t.url, 'POST', '/model/embed-32/load')).status, 200);
  await t.core.recall.idle();
  assert.equal(t.core.recall.status().model, 'embed-32');
  rows = vectors();
  assert.equal(rows.length, 13);
  assert.ok(rows.every((row) => row.model === 'embed-32' && row.dimension === 32));

  // Unloaded: exactly the lexical search again.
  assert.equal((await request(t.url, 'POST', '/model/embed-32/unload')).status, 200);
  assert.equal(t.core.recall.status().state, 'off');
  assert.equal((await request(t.url, 'GET', '/search/semantic')).json.state, 'off');
  const after = (await request(t.url, 'GET', '/assets/search?query=shout')).json;
  assert.deepEqual(
    after.iterable.map((hit: { identifier: string }) => hit.identifier),
    lexical.iterable.map((hit: { identifier: string }) => hit.identifier),
  );
});
