/**
 * A create's reply is rendered once, as asked: without transferables it is the asset as a read
 * without them shows it (no content, no secrets' values), not the asset read again after the write.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, request, type TestServer } from '../support/helpers.ts';
import { codeSeed } from '../support/assetFixtures.ts';

let t: TestServer;
before(async () => {
  t = await startTestServer();
});
after(() => t.close());

const CODE = 'const client = connect({ token: "ghp_0123456789abcdefghijABCDEFGHIJ012345" });\nexport default client;\n';

test('a create without transferables answers what GET /asset/{id} without them answers; with them, the content', async () => {
  const seed = codeSeed(CODE, 'client.ts', { tags: ['http', 'setup'] });
  const created = await request(t.url, 'POST', '/assets/create?transferables=false', { body: seed });
  assert.equal(created.status, 200);
  const asset = created.json as { id: string; formats: { iterable: Array<{ fragment?: { string?: unknown } }> }; sensitives?: unknown };
  const read = await request(t.url, 'GET', `/asset/${asset.id}?transferables=false`);
  assert.deepEqual(created.json, read.json);
  assert.ok(asset.formats.iterable.every((format) => format.fragment?.string === undefined), 'no content');
  assert.equal(asset.sensitives, undefined);
  assert.deepEqual((created.json as { tags: { iterable: Array<{ text: string }> } }).tags.iterable.map((tag) => tag.text).sort(), ['http', 'setup']);

  const whole = await request(t.url, 'POST', '/assets/create', { body: codeSeed(`${CODE}// again\n`, 'again.ts') });
  const wholeAsset = whole.json as { id: string; formats: { iterable: Array<{ fragment?: { string?: { raw?: string } } }> } };
  assert.equal(wholeAsset.formats.iterable[0]?.fragment?.string?.raw, `${CODE}// again\n`);
});
