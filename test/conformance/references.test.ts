/**
 * Every asset reply fills `original.reference` and `preview.base.reference` with the referenced
 * format (a FlattenedFormat, `asset` = the asset's id): the Pieces CLI and the Python SDK read a
 * snippet's text and language from `asset.original.reference` with no fallback. Checked on
 * snapshots, lists, create, update, search results and stream frames, strictly on the wire.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { AssetApi, AssetsApi, type Asset, type Seed } from '@pieces.app/pieces-os-client';
import { startTestServer, request, type TestServer } from '../support/helpers.ts';
import { codeSeed } from '../support/assetFixtures.ts';
import { openFrames } from '../support/frames.ts';
import { assertWire } from './assetsWireCheck.ts';

let t: TestServer;
before(async () => {
  t = await startTestServer();
});
after(() => t.close());

type Json = Record<string, any>;

/** What a real client reads: the text and language of the original, and of the preview's base. */
function checkReferences(json: Json, text: string, language: string, where: string): void {
  assertWire('Asset', json);
  for (const [name, ref] of [
    ['original', json['original']],
    ['preview.base', json['preview']['base']],
  ] as const) {
    assert.equal(ref.reference?.id, ref.id, `${where}: ${name}.reference is the referenced format`);
    assert.equal(ref.reference.asset, json['id'], `${where}: ${name}.reference.asset is the asset id`);
    assert.equal(ref.reference.fragment?.string?.raw, text, `${where}: ${name}.reference.fragment.string.raw`);
    assert.equal(ref.reference.classification?.specific, language, `${where}: ${name}.reference.classification`);
  }
}

test('snapshot, list, create, update and search replies carry the original and preview references', async () => {
  const text = 'def greet(name: str) -> str:\n    return f"Hello, {name}!"\n';
  const created = await new AssetsApi(t.sdk).assetsCreateNewAssetRaw({ seed: codeSeed(text, 'Greeter', { ext: 'py' }) as unknown as Seed });
  const createdJson = (await created.raw.clone().json()) as Json;
  checkReferences(createdJson, text, 'py', 'create');
  const id = createdJson['id'] as string;
  // The client parses it into the fields real clients read.
  const parsed: Asset = await created.value();
  assert.equal(parsed.original.reference?.fragment?.string?.raw, text);

  const snapshot = await request(t.url, 'GET', `/asset/${id}`);
  checkReferences(snapshot.json, text, 'py', 'GET /asset');
  const list = await request(t.url, 'GET', '/assets');
  checkReferences(list.json.iterable.find((a: Json) => a.id === id), text, 'py', 'GET /assets');
  const search = await request(t.url, 'GET', '/assets/search?query=greet');
  const hit = search.json.iterable.find((h: Json) => h.identifier === id);
  checkReferences(hit.asset, text, 'py', 'GET /assets/search');

  const edited = 'def greet(name: str) -> str:\n    return "Hi " + name\n';
  const update = { ...snapshot.json, formats: { iterable: [{ ...snapshot.json.formats.iterable[0], fragment: { string: { raw: edited } } }] } };
  const updatedJson = (await request(t.url, 'POST', '/asset/update', { body: update })).json;
  checkReferences(updatedJson, edited, 'py', 'POST /asset/update');
  assert.equal((await new AssetApi(t.sdk).assetSnapshot({ asset: id })).original.reference?.fragment?.string?.raw, edited);

  // transferables=false leaves the content out of the references too, but keeps them.
  const bare = (await request(t.url, 'GET', `/asset/${id}?transferables=false`)).json;
  assert.equal(bare.original.reference.id, bare.original.id);
  assert.equal(bare.original.reference.fragment?.string, undefined);
});

test('stream frames carry the references', async () => {
  const frames = await openFrames<Json>(`${t.url}/assets/stream/transferables`);
  try {
    const text = 'SELECT name FROM users WHERE id = $1;';
    const created = await new AssetsApi(t.sdk).assetsCreateNewAsset({ seed: codeSeed(text, 'User by id', { ext: 'sql' }) as unknown as Seed });
    const frame = await frames.until((f) => (f['iterable'] ?? []).some((a: Json) => a.id === created.id));
    checkReferences(frame['iterable'].find((a: Json) => a.id === created.id), text, 'sql', 'stream frame');
  } finally {
    frames.close();
  }
});
