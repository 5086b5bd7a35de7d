/**
 * `POST /qgpt/relevance`'s seeds carry the opening of each snippet's text (SEED_CHARS), read from a
 * large text's stored head: before, each hit's whole text was read for its seed, 60 MB for an older
 * store's snippet, ten such hits a call.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/helpers.ts';
import { TEST_WRITE } from '../support/authors.ts';
import { recordWholeReads } from '../support/wholeReads.ts';
import { seed } from '../core/sync/vaultSupport.ts';
import { SEED_CHARS } from '../../src/server/routes/qgptRelevance.ts';
import { HEAD_CHARS } from '../../src/core/assets/assetHeads.ts';

const line = 'export const frobnicateTable = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06]; // frobnicate\n';
const LARGE = line.repeat(Math.ceil((3 * HEAD_CHARS) / line.length));
const SMALL = 'function frobnicate(value) {\n  return value * 2;\n}\n';

let t: TestServer;
const ids: Record<string, string> = {};
/** Reads of a whole text made while the route ran. */
let wholeReads: string[] = [];

before(async () => {
  t = await startTestServer();
  ids.large = (await t.core.assets.writes.create(seed(LARGE, { name: 'frobnicate table', ext: 'ts' }), TEST_WRITE)).id;
  ids.small = (await t.core.assets.writes.create(seed(SMALL, { name: 'frobnicate', ext: 'js' }), TEST_WRITE)).id;
  wholeReads = recordWholeReads(t.core);
});
after(async () => {
  await t.close();
});

test('each seed carries the opening of its snippet\'s text, a small one whole, without reading a whole text', async () => {
  assert.ok(LARGE.length > SEED_CHARS && SMALL.length < SEED_CHARS);
  const response = await fetch(`${t.url}/qgpt/relevance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'frobnicate' }) });
  assert.equal(response.status, 200);
  const body = (await response.json()) as { relevant: { iterable: Array<{ id: string; seed?: { asset?: { format?: { fragment?: { string?: { raw?: string } } } } } }> } };
  const raws = new Map(body.relevant.iterable.map((hit) => [hit.id, hit.seed?.asset?.format?.fragment?.string?.raw]));
  assert.deepEqual([...raws.keys()].sort(), [ids.large, ids.small].sort());
  assert.equal(raws.get(ids.small!), SMALL);
  assert.equal(raws.get(ids.large!), LARGE.slice(0, SEED_CHARS));
  assert.deepEqual(wholeReads, []);
});
