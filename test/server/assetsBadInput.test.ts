/**
 * Bad input on every route of the assets area: malformed JSON, wrong types, unknown ids, bad query
 * values and oversized bodies each get a 4xx JSON error, and the store is unchanged afterwards.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { startTestServer, request, errorCode, type Reply, type TestServer } from '../support/helpers.ts';

const LIMIT = 64 * 1024;
let t: TestServer;
let assetId = '';
let formatId = '';
let tagId = '';

before(async () => {
  t = await startTestServer({ bodyLimit: LIMIT });
  const created = await request(t.url, 'POST', '/assets/create', {
    body: { asset: { format: { fragment: { string: { raw: 'const stable = 1;' } } }, metadata: { name: 'stable' } } },
  });
  assert.equal(created.status, 200);
  assetId = created.json.id;
  formatId = created.json.original.id;
  tagId = (await request(t.url, 'POST', '/tags/create', { body: { text: 'kept' } })).json.id;
});
after(() => t.close());

/** One request over node:http, which (unlike fetch) can send a body with a GET. */
function send(method: string, path: string, body?: unknown): Promise<Reply> {
  const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${t.url}${path}`,
      { method, headers: payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          let json: unknown;
          try {
            json = text ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), text, json });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Everything the assets area stores, in a comparable form. */
function storeState(): string {
  const db = t.core.context.database;
  const dump = (sql: string) => db.prepare(sql).all();
  return JSON.stringify([
    dump('SELECT * FROM assets ORDER BY rowid'),
    dump('SELECT * FROM asset_formats ORDER BY id'),
    dump('SELECT kind, id, data FROM records ORDER BY kind, id'),
    dump('SELECT * FROM links ORDER BY a_kind, a_id, b_kind, b_id'),
    dump("SELECT rowid FROM asset_nt WHERE asset_nt MATCH 'sta'"),
  ]);
}

type Case = readonly [method: string, path: () => string, body: unknown, status: number];

const malformed = '{"asset": {"format":';
const bodyRoutes = [
  '/assets/create',
  '/assets/draft',
  '/assets/search',
  '/assets/related',
  '/assets/recommended',
  '/asset/update',
  '/asset/reclassify',
  '/format/update/value',
  '/tags/create',
  '/websites/create',
];

const cases: Case[] = [
  ...bodyRoutes.map((path): Case => ['POST', () => path, malformed, 400]),
  ['POST', () => `/asset/${assetId}`, malformed, 400],
  ['POST', () => `/asset/${assetId}/scores/increment`, malformed, 400],
  ['GET', () => '/assets/related', malformed, 400],
  // wrong types and shapes
  ['POST', () => '/assets/create', undefined, 400],
  ['POST', () => '/assets/create', '"just a string"', 400],
  ['POST', () => '/assets/create', { asset: { format: { fragment: { string: { raw: 5 } } } } }, 400],
  ['POST', () => '/assets/create', { asset: { format: {} } }, 400],
  ['POST', () => '/assets/create', { asset: { format: { file: { bytes: { raw: [1, 300] } } } } }, 400],
  ['POST', () => '/assets/create', { asset: { format: { fragment: { string: { raw: 'x' } }, classification: { specific: 'klingon' } } } }, 400],
  ['POST', () => '/assets/create', { asset: { format: { fragment: { string: { raw: 'x' } } }, metadata: { tags: [{ text: 3 }] } } }, 400],
  ['POST', () => '/assets/create', { asset: { format: { fragment: { string: { raw: 'x' } } }, pseudo: 'yes' } }, 400],
  ['POST', () => '/assets/draft', { asset: { format: { fragment: { string: { base64: 7 } } } } }, 400],
  ['POST', () => '/assets/search', { query: 5 }, 400],
  ['POST', () => '/assets/search', { filters: { iterable: 'x' } }, 400],
  ['POST', () => '/assets/search', { filters: { iterable: [{ created: { from: { value: 'not a date' } } }] } }, 400],
  ['POST', () => '/assets/search', { filters: { iterable: [{ operations: { iterable: [{ tags: 'a' }] } }] } }, 400],
  ['POST', () => '/assets/related', { iterable: 'x' }, 400],
  ['POST', () => '/assets/recommended', { assets: { iterable: [] }, interactions: { iterable: [{}] } }, 400],
  ['GET', () => '/assets/recommended', { assets: 5 }, 400],
  ['POST', () => '/asset/update', {}, 400],
  ['POST', () => '/asset/update', { id: 'no-such-asset' }, 404],
  ['POST', () => '/asset/update', { id: assetId, name: 5 }, 400],
  ['POST', () => '/asset/update', { id: assetId, formats: { iterable: [{ id: formatId, classification: { specific: 'klingon' } }] } }, 400],
  ['POST', () => '/asset/reclassify', { ext: 'klingon', asset: { id: assetId } }, 400],
  ['POST', () => '/asset/reclassify', { ext: 'py', asset: { id: 'no-such-asset' } }, 404],
  ['POST', () => '/asset/reclassify', { ext: 5, asset: { id: assetId } }, 400],
  ['POST', () => `/asset/${assetId}/scores/increment`, { asset: { reuse: 'yes' } }, 400],
  ['POST', () => '/asset/no-such-asset/scores/increment', { asset: { reuse: true } }, 404],
  ['POST', () => `/asset/${assetId}`, '"accessor"', 400],
  ['POST', () => '/format/update/value', { id: 'no-such-format', fragment: { string: { raw: 'x' } } }, 404],
  ['POST', () => '/format/update/value', { id: formatId }, 400],
  ['POST', () => '/tags/create', { text: '' }, 400],
  ['POST', () => '/tags/create', { text: 5 }, 400],
  ['POST', () => '/tags/create', { text: 'orphan', asset: 'no-such-asset' }, 404],
  ['POST', () => '/websites/create', { url: 'https://x.example' }, 400],
  ['POST', () => '/websites/create', { url: 'https://x.example', name: 'x', asset: 'no-such-asset' }, 404],
  // unknown ids
  ['GET', () => '/assets/no-such-asset', undefined, 404],
  ['GET', () => '/assets/no-such-asset/formats', undefined, 404],
  ['POST', () => '/assets/no-such-asset/delete', undefined, 404],
  ['GET', () => '/asset/no-such-asset', undefined, 404],
  ['POST', () => '/asset/no-such-asset', undefined, 404],
  ['GET', () => '/asset/no-such-asset/formats', undefined, 404],
  ['GET', () => '/asset/no-such-asset/activities', undefined, 404],
  ['GET', () => '/asset/no-such-asset/conversations', undefined, 404],
  ['GET', () => '/asset/no-such-asset/export?export_type=MD', undefined, 404],
  ['POST', () => `/asset/no-such-asset/tags/associate/${tagId}`, undefined, 404],
  ['POST', () => `/asset/${assetId}/tags/associate/no-such-tag`, undefined, 404],
  ['POST', () => `/asset/${assetId}/tags/disassociate/no-such-tag`, undefined, 404],
  ['POST', () => `/asset/${assetId}/websites/associate/no-such-site`, undefined, 404],
  ['POST', () => `/asset/${assetId}/websites/disassociate/no-such-site`, undefined, 404],
  ['POST', () => `/asset/${assetId}/workstream_summaries/associate/no-such-summary`, undefined, 404],
  ['POST', () => `/asset/${assetId}/workstream_summaries/disassociate/no-such-summary`, undefined, 404],
  ['POST', () => `/tag/${tagId}/assets/associate/no-such-asset`, undefined, 404],
  ['POST', () => '/website/no-such-site/assets/associate/' + assetId, undefined, 404],
  ['GET', () => '/format/no-such-format', undefined, 404],
  ['GET', () => '/formats/no-such-format', undefined, 404],
  ['GET', () => '/tag/no-such-tag', undefined, 404],
  ['GET', () => '/website/no-such-site', undefined, 404],
  // bad query values
  ['GET', () => '/assets?transferables=maybe', undefined, 400],
  ['GET', () => '/assets?suggested=2', undefined, 400],
  ['GET', () => '/assets/identifiers?pseudo=yes', undefined, 400],
  ['GET', () => '/assets/search?query=x&pseudo=nah', undefined, 400],
  ['GET', () => `/asset/${assetId}/export?export_type=PDF`, undefined, 400],
  ['GET', () => `/asset/${assetId}/export?export_type=UNKNOWN`, undefined, 400],
  ['GET', () => `/asset/${assetId}/export`, undefined, 400],
  ['GET', () => `/format/${formatId}?transferable=perhaps`, undefined, 400],
];

test('every bad request gets its 4xx JSON error and leaves the store unchanged', async () => {
  for (const [method, path, body, expected] of cases) {
    const before = storeState();
    const reply = await send(method, path(), body);
    const label = `${method} ${path()} ${typeof body === 'string' ? body : JSON.stringify(body)}`;
    assert.equal(reply.status, expected, `${label} → ${reply.status} ${reply.text.slice(0, 200)}`);
    assert.match(reply.type, /application\/json/, label);
    assert.ok(errorCode(reply), label);
    assert.equal(storeState(), before, `${label} changed the store`);
  }
});

test('bodies over the limit get 413 on every body route and change nothing', async () => {
  const big = JSON.stringify({ asset: { format: { fragment: { string: { raw: 'x'.repeat(LIMIT + 10) } } } } });
  for (const path of [...bodyRoutes, `/asset/${assetId}/scores/increment`]) {
    const before = storeState();
    const reply = await request(t.url, 'POST', path, { body: big });
    assert.equal(reply.status, 413, path);
    assert.equal(errorCode(reply), 'too_large');
    assert.equal(storeState(), before, path);
  }
});

test('GET /assets/search with neither query nor tags is the interface’s 500, as a JSON error', async () => {
  const reply = await request(t.url, 'GET', '/assets/search?transferables=false');
  assert.equal(reply.status, 500);
  assert.equal(errorCode(reply), 'search_unspecified');
});

test('good requests still work after all of that', async () => {
  const reply = await request(t.url, 'GET', `/assets/${assetId}`);
  assert.equal(reply.status, 200);
  assert.equal(reply.json.formats.iterable[0].fragment.string.raw, 'const stable = 1;');
  const related = await send('GET', '/assets/related', { iterable: [{ id: assetId }] });
  assert.equal(related.status, 200);
  assert.deepEqual(related.json.iterable, []);
  const deleted = await request(t.url, 'POST', `/assets/${assetId}/delete`);
  assert.equal(deleted.status, 200);
  assert.match(deleted.type, /text\/plain/);
  assert.equal(deleted.text, assetId);
});
