/**
 * Replies produced a page at a time (GET /assets, an empty POST /assets/search, the asset streams'
 * snapshots) are byte for byte the document the whole result would encode to, across page ends.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, request, type TestServer } from '../support/helpers.ts';

/** More than one page of 64 assets. */
const ASSETS = 70;
let t: TestServer;

before(async () => {
  t = await startTestServer();
  for (let i = 0; i < ASSETS; i++) {
    const created = await request(t.url, 'POST', '/assets/create', {
      body: { asset: { format: { fragment: { string: { raw: `const paged${i} = ${i};\n` } } }, metadata: { name: `paged ${i}` } } },
    });
    assert.equal(created.status, 200);
    if (i % 3 === 0) {
      const tag = await request(t.url, 'POST', '/tags/create', { body: { text: `third-${i % 2}`, asset: created.json.id } });
      assert.equal(tag.status, 200, tag.text);
    }
  }
});
after(() => t.close());

test('an empty POST /assets/search is the whole result, byte for byte, with and without content and filters', async () => {
  const inputs: Array<Record<string, unknown>> = [
    {},
    { filters: { iterable: [{ tags: ['third-0'] }] } },
    { query: 'paged' },
  ];
  for (const input of inputs) {
    for (const transferables of [true, false]) {
      const reply = await request(t.url, 'POST', `/assets/search?transferables=${transferables}`, { body: input });
      assert.equal(reply.status, 200, reply.text.slice(0, 200));
      const whole = t.core.assets.searches.searchWithFilters(input, { transferables, pseudo: false });
      assert.equal(reply.text, JSON.stringify(whole), `${JSON.stringify(input)} transferables=${transferables}`);
      if (Object.keys(input).length === 0) {
        const listed = t.core.assets.list({ transferables }).map((asset) => asset.id);
        assert.deepEqual(
          whole.results.iterable.map((entry) => entry.identifier),
          listed,
          'every asset, newest first',
        );
        assert.equal(whole.results.suggested, ASSETS);
        assert.equal(whole.results.exact, 0);
        assert.equal(reply.text.includes('const paged'), transferables, 'content only with transferables');
      }
    }
  }
  const filtered = t.core.assets.searches.searchWithFilters(inputs[1]!, { transferables: false, pseudo: false });
  assert.ok(filtered.results.iterable.length > 0 && filtered.results.iterable.length < ASSETS, 'the filter keeps some assets');
});

test('GET /assets and the plain GET of the asset streams are the whole listing, byte for byte', async () => {
  for (const [path, transferables] of [
    ['/assets', true],
    ['/assets?transferables=false', false],
    ['/assets/stream/transferables', true],
    ['/assets/stream', false],
  ] as const) {
    const reply = await request(t.url, 'GET', path);
    assert.equal(reply.status, 200);
    assert.equal(reply.text, JSON.stringify({ iterable: t.core.assets.list({ transferables }) }), path);
  }
  const identifiers = await request(t.url, 'GET', '/assets/stream/identifiers');
  assert.equal(identifiers.json.iterable.length, ASSETS);
});
