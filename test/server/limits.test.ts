/**
 * One size limit per kind, the same through every HTTP door (docs/limits.md): each write over a
 * limit answers 413 in the JSON error shape, naming the limit and the size, and stores nothing.
 * A store already holding larger records (written before the limits) is read, listed, searched and
 * exported as before, and takes writes that do not grow what is over the limit.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, request, errorCode, type Reply, type TestServer } from '../support/helpers.ts';
import { LIMITS } from '../../src/core/limits.ts';

let t: TestServer;
let assetId = '';
let formatId = '';
let conversationId = '';
let appId = '';

const APPLICATION = { id: 'limits-test', name: 'OPEN_SOURCE', version: '1.0.0', platform: 'LINUX', onboarded: false, privacy: 'OPEN' };
const overText = 'x'.repeat(LIMITS.contentChars + 1);

function seed(raw: string, metadata: Record<string, unknown> = {}, format: Record<string, unknown> = { fragment: { string: { raw } } }) {
  return { type: 'SEEDED_ASSET', asset: { application: APPLICATION, format, metadata } };
}

before(async () => {
  t = await startTestServer();
  const created = await request(t.url, 'POST', '/assets/create?transferables=false', { body: seed('const stable = 1;', { name: 'stable' }) });
  assert.equal(created.status, 200, created.text);
  assetId = created.json.id;
  formatId = created.json.original.id;
  const conversation = await request(t.url, 'POST', '/conversations/create?transferables=false', { body: { type: 'COPILOT', name: 'kept' } });
  assert.equal(conversation.status, 200, conversation.text);
  conversationId = conversation.json.id;
  appId = (await request(t.url, 'POST', '/connect', { body: { application: { name: 'VS_CODE', version: '1', platform: 'LINUX' } } })).json.application.id;
});
after(() => t.close());

/** Everything stored, in a comparable form. */
function storeState(): string {
  const db = t.core.context.database;
  const dump = (sql: string) => db.prepare(sql).all();
  return JSON.stringify([
    dump('SELECT rowid, id, data FROM assets ORDER BY rowid'),
    dump('SELECT * FROM asset_formats ORDER BY id'),
    dump("SELECT kind, id, data FROM records WHERE kind <> 'application' ORDER BY kind, id"),
    dump('SELECT a_kind, a_id, b_kind, b_id FROM links ORDER BY a_kind, a_id, b_kind, b_id'),
    dump('SELECT id, data FROM conversation_messages ORDER BY rowid'),
  ]);
}

/** Asserts a 413 in the JSON error shape whose message names the limit and the size sent. */
function assertTooLarge(reply: Reply, limit: number, actual: number, label: string): void {
  assert.equal(reply.status, 413, `${label}: ${reply.status} ${reply.text.slice(0, 300)}`);
  assert.equal(errorCode(reply), 'too_large', label);
  assert.match(reply.type, /application\/json/, label);
  const message = reply.json.error.message as string;
  const number = (n: number) => n.toLocaleString('en-US');
  assert.ok(message.includes(number(limit)) && message.includes(number(actual)), `${label}: "${message}" names ${limit} and ${actual}`);
}

type Door = readonly [label: string, path: () => string, body: () => unknown, limit: number, actual: number];

const tags = (n: number) => Array.from({ length: n }, (_, i) => ({ text: `tag-${i}` }));
const sites = (n: number) => Array.from({ length: n }, (_, i) => ({ url: `https://example.com/${i}`, name: `site ${i}` }));
const longUrl = `https://example.com/${'p'.repeat(LIMITS.urlChars)}`;
const longName = 'n'.repeat(LIMITS.nameChars + 1);
const overMessage = { role: 'USER', fragment: { string: { raw: 'm'.repeat(LIMITS.messageChars + 1) } } };

const DOORS: Door[] = [
  ['create: text content', () => '/assets/create', () => seed(overText), LIMITS.contentChars, overText.length],
  [
    'create: text content as base64',
    () => '/assets/create',
    () => seed('', {}, { fragment: { string: { base64: Buffer.from(overText).toString('base64') } } }),
    LIMITS.contentChars,
    overText.length,
  ],
  [
    'create: binary content',
    () => '/assets/create',
    () => seed('', {}, { file: { bytes: { raw: new Array<number>(LIMITS.contentBytes + 1).fill(0) } } }),
    LIMITS.contentBytes,
    LIMITS.contentBytes + 1,
  ],
  ['create: tags', () => '/assets/create', () => seed('const a = 1;', { tags: tags(LIMITS.tagsPerAsset + 1) }), LIMITS.tagsPerAsset, LIMITS.tagsPerAsset + 1],
  ['create: tag text', () => '/assets/create', () => seed('const a = 1;', { tags: [{ text: 't'.repeat(LIMITS.tagChars + 1) }] }), LIMITS.tagChars, LIMITS.tagChars + 1],
  ['create: websites', () => '/assets/create', () => seed('const a = 1;', { websites: sites(LIMITS.websitesPerAsset + 1) }), LIMITS.websitesPerAsset, LIMITS.websitesPerAsset + 1],
  ['create: url', () => '/assets/create', () => seed('const a = 1;', { websites: [{ url: longUrl, name: 'docs' }] }), LIMITS.urlChars, longUrl.length],
  ['create: name', () => '/assets/create', () => seed('const a = 1;', { name: longName }), LIMITS.nameChars, longName.length],
  ['draft: text content', () => '/assets/draft', () => seed(overText), LIMITS.contentChars, overText.length],
  ['update: name', () => '/asset/update', () => ({ id: assetId, name: longName }), LIMITS.nameChars, longName.length],
  [
    'update: content',
    () => '/asset/update',
    () => ({ id: assetId, formats: { iterable: [{ id: formatId, fragment: { string: { raw: overText } } }] } }),
    LIMITS.contentChars,
    overText.length,
  ],
  ['format value', () => '/format/update/value', () => ({ id: formatId, fragment: { string: { raw: overText } } }), LIMITS.contentChars, overText.length],
  ['tag: text', () => '/tags/create', () => ({ text: 't'.repeat(LIMITS.tagChars + 1), asset: assetId }), LIMITS.tagChars, LIMITS.tagChars + 1],
  ['website: url', () => '/websites/create', () => ({ url: longUrl, name: 'docs', asset: assetId }), LIMITS.urlChars, longUrl.length],
  ['website: name', () => '/websites/create', () => ({ url: 'https://example.com/named', name: longName }), LIMITS.nameChars, longName.length],
  ['connector intention: content', () => `/${appId}/intention`, () => ({ format: { fragment: { string: { raw: overText } } } }), LIMITS.contentChars, overText.length],
  ['conversation: name', () => '/conversations/create', () => ({ type: 'COPILOT', name: longName }), LIMITS.nameChars, longName.length],
  ['conversation: message', () => '/conversations/create', () => ({ type: 'COPILOT', messages: [overMessage] }), LIMITS.messageChars, LIMITS.messageChars + 1],
  [
    'conversation: annotation',
    () => '/conversations/create',
    () => ({ type: 'COPILOT', annotations: [{ type: 'COMMENT', text: 'a'.repeat(LIMITS.annotationChars + 1) }] }),
    LIMITS.annotationChars,
    LIMITS.annotationChars + 1,
  ],
  ['conversation update: name', () => '/conversation/update', () => ({ id: conversationId, name: longName }), LIMITS.nameChars, longName.length],
  ['message', () => '/messages/create', () => ({ ...overMessage, conversation: { id: conversationId } }), LIMITS.messageChars, LIMITS.messageChars + 1],
  [
    'message as base64 and raw together',
    () => '/messages/create',
    () => ({ role: 'USER', fragment: { string: { raw: 'r'.repeat(LIMITS.messageChars / 2), base64: 'b'.repeat(LIMITS.messageChars / 2 + 4) } }, conversation: { id: conversationId } }),
    LIMITS.messageChars,
    LIMITS.messageChars + 4,
  ],
  ['anchor: name', () => '/anchors/create', () => ({ type: 'FILE', fullpath: '/tmp/a.ts', name: longName }), LIMITS.nameChars, longName.length],
  ['workstream summary: name', () => '/workstream_summaries/create', () => ({ name: longName, model: { id: 'm' } }), LIMITS.nameChars, longName.length],
];

for (const [label, path, body, limit, actual] of DOORS) {
  test(`413 and nothing stored: ${label}`, async () => {
    const stateBefore = storeState();
    const reply = await request(t.url, 'POST', path(), { body: body() });
    assertTooLarge(reply, limit, actual, label);
    assert.equal(storeState(), stateBefore, `${label}: nothing stored`);
  });
}

test('at the limit is stored: content, tags, websites and name of exactly the limit', async () => {
  const text = 'y'.repeat(LIMITS.contentChars);
  const reply = await request(t.url, 'POST', '/assets/create?transferables=false', {
    body: seed(text, { name: 'n'.repeat(LIMITS.nameChars), tags: tags(LIMITS.tagsPerAsset), websites: sites(LIMITS.websitesPerAsset) }),
  });
  assert.equal(reply.status, 200, reply.text.slice(0, 300));
  assert.equal(t.core.assets.text(reply.json.id)?.length, LIMITS.contentChars);
  const full = t.core.assets.get(reply.json.id, { transferables: false });
  assert.equal(full.tags?.iterable.length, LIMITS.tagsPerAsset);
  assert.equal(full.websites?.iterable.length, LIMITS.websitesPerAsset);

  // Full: one more tag or website through the associate routes (and /tags/create with the asset) is refused.
  const tag = (await request(t.url, 'POST', '/tags/create', { body: { text: 'one too many' } })).json.id as string;
  const site = (await request(t.url, 'POST', '/websites/create', { body: { url: 'https://example.com/too-many', name: 'x' } })).json.id as string;
  const stateBefore = storeState();
  assertTooLarge(await request(t.url, 'POST', `/tag/${tag}/assets/associate/${reply.json.id}`), LIMITS.tagsPerAsset, LIMITS.tagsPerAsset + 1, 'tag associate');
  assertTooLarge(await request(t.url, 'POST', `/asset/${reply.json.id}/tags/associate/${tag}`), LIMITS.tagsPerAsset, LIMITS.tagsPerAsset + 1, 'asset tags associate');
  assertTooLarge(await request(t.url, 'POST', '/tags/create', { body: { text: 'another one', asset: reply.json.id } }), LIMITS.tagsPerAsset, LIMITS.tagsPerAsset + 1, 'tag create with asset');
  assertTooLarge(await request(t.url, 'POST', `/website/${site}/assets/associate/${reply.json.id}`), LIMITS.websitesPerAsset, LIMITS.websitesPerAsset + 1, 'website associate');
  assert.equal(storeState(), stateBefore, 'nothing stored');
  // A tag it already has is not one more.
  const held = full.tags!.iterable[0]!.id;
  assert.equal((await request(t.url, 'POST', `/tag/${held}/assets/associate/${reply.json.id}`)).status, 204);
});

test('a store already holding larger records: read, listed, searched and exported; writes that do not grow them pass', async () => {
  const created = await request(t.url, 'POST', '/assets/create?transferables=false', { body: seed('const legacyRecord = 1;', { name: 'legacy record' }) });
  const id = created.json.id as string;
  const format = created.json.original.id as string;
  // Grown as a store written before the limits (or by another tool) holds it: content over the limit, and 200 tags.
  const big = `const legacyRecord = 1;\n${'z'.repeat(LIMITS.contentChars + 1000)}`;
  const db = t.core.context.database;
  db.prepare(`UPDATE assets SET data = json_set(data, '$.formats.iterable[0].fragment.string.raw', ?) WHERE id = ?`).run(big, id);
  const TAGS = 200;
  for (let i = 0; i < TAGS; i++) {
    const now = { value: new Date().toISOString() };
    t.core.context.records.put('tag', `legacy-tag-${i}`, { id: `legacy-tag-${i}`, text: `legacy ${i}`, created: now, updated: now, category: 'UNKNOWN' }, `legacy ${i}`);
  }
  t.core.context.links.linkMany(Array.from({ length: TAGS }, (_, i) => [{ kind: 'asset', id }, { kind: 'tag', id: `legacy-tag-${i}` }] as const));

  const read = await request(t.url, 'GET', `/asset/${id}`);
  assert.equal(read.status, 200);
  assert.equal(read.json.formats.iterable[0].fragment.string.raw.length, big.length);
  assert.equal(read.json.tags.iterable.length, TAGS);
  const listed = await request(t.url, 'GET', '/assets?transferables=false');
  assert.ok(listed.json.iterable.some((asset: { id: string }) => asset.id === id), 'listed');
  const searched = await request(t.url, 'GET', '/assets/search?query=legacyRecord&transferables=false');
  assert.equal(searched.status, 200);
  assert.ok(searched.json.iterable.some((hit: { identifier: string }) => hit.identifier === id), 'searched');
  const exported = await request(t.url, 'GET', `/asset/${id}/export?export_type=MD`);
  assert.equal(exported.status, 200);

  // A rename, and the whole asset sent back (what clients that edit a snapshot do): nothing grows.
  assert.equal((await request(t.url, 'POST', '/asset/update?transferables=false', { body: { id, name: 'legacy renamed' } })).status, 200);
  const whole = { ...read.json, name: 'legacy renamed again' };
  const saved = await request(t.url, 'POST', '/asset/update?transferables=false', { body: whole });
  assert.equal(saved.status, 200, saved.text.slice(0, 300));
  assert.equal(t.core.assets.text(id)?.length, big.length, 'the content is kept whole');

  // Growing the content is refused; shrinking it (even while still over the limit) is not.
  const stateBefore = storeState();
  assertTooLarge(await request(t.url, 'POST', '/format/update/value', { body: { id: format, fragment: { string: { raw: `${big}!` } } } }), LIMITS.contentChars, big.length + 1, 'grow');
  assert.equal(storeState(), stateBefore);
  const smaller = big.slice(0, -10);
  assert.equal((await request(t.url, 'POST', '/format/update/value', { body: { id: format, fragment: { string: { raw: smaller } } } })).status, 200);
  assert.equal(t.core.assets.text(id)?.length, smaller.length);

  // With 200 tags: removing one passes, adding one is refused.
  assert.equal((await request(t.url, 'POST', `/tag/legacy-tag-0/assets/disassociate/${id}`)).status, 204);
  const extra = (await request(t.url, 'POST', '/tags/create', { body: { text: 'one more' } })).json.id as string;
  const refused = await request(t.url, 'POST', `/tag/${extra}/assets/associate/${id}`);
  assertTooLarge(refused, LIMITS.tagsPerAsset, LIMITS.tagsPerAsset + 2, 'one more tag');
  assert.match(refused.json.error.message, /A snippet has at least 130 tags; the limit is 128/, 'the count stops past the limit');
  assert.equal(t.core.assets.get(id, { transferables: false }).tags?.iterable.length, TAGS - 1);
  assert.equal((await request(t.url, 'POST', `/assets/${id}/delete`)).status, 200);
});
