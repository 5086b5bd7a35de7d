import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, request, errorCode, type TestServer } from '../support/helpers.ts';
import { savedSnippets, reformatted } from '../support/snippetFixture.ts';
import { SATCHEL_APPLICATION } from '../../src/core/assets/origin.ts';
import { TEST_AUTHOR } from '../support/authors.ts';

let t: TestServer;
let appId: string;
before(async () => {
  t = await startTestServer();
  appId = (await request(t.url, 'POST', '/connect', { body: { application: { name: 'VS_CODE', version: '1', platform: 'LINUX' } } })).json.application.id;
});
after(() => t.close());

const creation = (raw: string) => ({ asset: { format: { fragment: { string: { raw } } } } });
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/** Everything a rejected request must leave untouched. */
function state() {
  const db = t.core.context.database;
  const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
  return {
    assets: t.core.assets.list({}).length + t.core.assets.list({ suggested: true }).length,
    applications: t.core.applications.identifiers().length,
    engagement: JSON.stringify(t.core.applications.engagement(appId)),
    application: JSON.stringify(t.core.applications.get(appId)),
    copies: count('SELECT COUNT(*) AS n FROM connector_copies'),
    reactions: count('SELECT COUNT(*) AS n FROM connector_reactions'),
    sessions: count('SELECT COUNT(*) AS n FROM application_sessions'),
    usage: count('SELECT COUNT(*) AS n FROM application_usage_events'),
  };
}

test('bad input on every route is a 4xx JSON error and changes nothing', async () => {
  const cases: Array<[string, string, unknown, number]> = [
    ['POST', '/connect', '{"application":', 400],
    ['POST', '/connect', {}, 400],
    ['POST', '/connect', { application: { name: 7, version: '1', platform: 'LINUX' } }, 400],
    ['POST', '/connect', { application: { name: 'VS_CODE', version: '', platform: 'LINUX' } }, 400],
    ['POST', `/${appId}/suggestion`, '{', 400],
    ['POST', `/${appId}/suggestion`, { asset: { format: 'code' } }, 400],
    ['POST', `/${appId}/suggestion`, {}, 400],
    ['POST', `/${appId}/suggestion`, { asset: { format: { fragment: { string: { raw: 42 } } } } }, 400],
    ['POST', `/${UNKNOWN}/suggestion`, creation(savedSnippets[0]!.code), 404],
    ['POST', `/${appId}/reaction`, '[1,', 400],
    ['POST', `/${appId}/reaction`, { save: 'yes', seed: {} }, 400],
    ['POST', `/${appId}/reaction`, { save: true }, 400],
    ['POST', `/${appId}/reaction`, { save: true, seed: {} }, 400],
    ['POST', `/${appId}/reaction`, { save: false, reuse: { asset: UNKNOWN }, seed: {} }, 404],
    ['POST', `/${UNKNOWN}/reaction`, { save: true, seed: creation(savedSnippets[1]!.code) }, 404],
    ['POST', `/${appId}/intention`, '{"format"', 400],
    ['POST', `/${appId}/intention`, { metadata: {} }, 400],
    ['POST', `/${UNKNOWN}/intention`, creation(savedSnippets[1]!.code).asset, 404],
    ['POST', `/${appId}/track`, 'nope', 400],
    ['POST', `/${appId}/track`, { asset: { asset: { id: 5 } } }, 400],
    ['POST', `/${appId}/track`, { asset: { asset: { id: UNKNOWN }, identifier_description_pair: { asset_viewed: 'an_asset_was_viewed' } } }, 404],
    ['POST', `/${appId}/track`, { format: { format: { id: UNKNOWN }, identifier_description_pair: { format_copied: 'if_a_format_was_entirely_copied' } } }, 404],
    ['POST', `/${UNKNOWN}/track`, {}, 404],
    ['POST', `/${appId}/onboarded`, '"yes"', 400],
    ['POST', `/${appId}/onboarded`, '{"onboarded":true}', 400],
    ['POST', `/${appId}/onboarded`, 'tru', 400],
    ['POST', `/${UNKNOWN}/onboarded`, 'true', 404],
    ['POST', '/not-an-application/onboarded', 'true', 404],
    ['GET', `/applications/${UNKNOWN}`, undefined, 404],
    ['POST', '/applications/register', '{', 400],
    ['POST', '/applications/register', { name: 'VS_CODE' }, 400],
    ['POST', '/applications/register', { name: 'VS_CODE', version: '1', platform: 'LINUX', mechanism: 'SOMETIMES' }, 400],
    ['POST', '/applications/session/close', '{"id":1}', 400],
    ['POST', '/applications/session/close', `"${UNKNOWN}"`, 404],
    ['GET', `/applications/sessions/${UNKNOWN}`, undefined, 404],
    ['POST', '/applications/usage/engagement/interaction', '[1]', 400],
    ['POST', '/applications/usage/engagement/keyboard', { description: 'k', shortcut: ['ctrl'] }, 400],
    ['POST', '/applications/usage/installation', '"VS_CODE"', 400],
    ['POST', '/applications/usage/updated', { previous: { version: 1 } }, 400],
    ['POST', '/application/update', { id: UNKNOWN, name: 'VS_CODE', version: '2', platform: 'LINUX' }, 404],
    ['POST', '/application/update', { name: 'VS_CODE', version: '2', platform: 'LINUX' }, 400],
    ['POST', '/application/update', '{"id":', 400],
  ];
  const before = state();
  for (const [method, path, body, status] of cases) {
    const reply = await request(t.url, method, path, body === undefined ? {} : { body });
    assert.equal(reply.status, status, `${method} ${path} ${JSON.stringify(body)} → ${reply.status} ${reply.text}`);
    const code = errorCode(reply);
    if (status === 404 && path.includes('/applications/') === false && !path.startsWith('/application/')) {
      assert.equal(code, 'not_found', path);
    }
  }
  assert.deepEqual(state(), before);
});

test('an unknown application gets a 404 that names it; other areas’ paths are never captured', async () => {
  const reply = await request(t.url, 'POST', `/${UNKNOWN}/suggestion`, { body: creation(savedSnippets[0]!.code) });
  assert.equal(reply.status, 404);
  assert.match(reply.json.error.message, new RegExp(`application "${UNKNOWN}" was not found`));
  const models = await request(t.url, 'POST', '/models/track', { body: {} });
  assert.equal(models.status, 404);
  assert.equal(errorCode(models), 'route_not_found');
});

test('the connector quiets reuse suggestions after repeated dismissals and an acceptance restores them', async () => {
  const snippet = savedSnippets[2]!.code;
  const saved = await request(t.url, 'POST', `/${appId}/reaction`, { body: { save: true, seed: creation(snippet) } });
  assert.equal(saved.status, 200);
  const lines = snippet.split('\n');
  // Distinct partial copies (so none is a repeat) that each match the saved snippet well but not perfectly.
  const copies = lines.slice(0, lines.length - 3).map((_, i) => lines.slice(i, i + 4).join('\n')).filter((c) => c.length > 40);
  let next = 0;
  const suggest = async () => (await request(t.url, 'POST', `/${appId}/suggestion`, { body: creation(copies[next++ % copies.length]! + `\n// ${next}`) })).json;
  const dismiss = async (raw: string) => assert.equal((await request(t.url, 'POST', `/${appId}/reaction`, { body: { save: false, seed: creation(raw) } })).text, 'OK');

  const first = await suggest();
  assert.equal(first.reuse.suggested, true);
  const outcomes: string[] = [];
  for (let i = 0; i < 6; i++) {
    const suggestion = await suggest();
    outcomes.push(suggestion.reuse.suggested ? 'reuse' : suggestion.reason);
    await dismiss(copies[(next - 1) % copies.length]! + `\n// ${next}`);
  }
  const quiet = t.core.connector.quieting(appId, 'reuse');
  assert.equal(quiet.dismissals, 6);
  assert.ok(quiet.mutedUntil !== undefined && quiet.mutedUntil > Date.now());
  const muted = await suggest();
  assert.deepEqual([muted.reuse.suggested, muted.save.suggested, muted.reason], [false, false, 'muted']);
  assert.ok(outcomes.slice(0, 2).every((o) => o === 'reuse'), outcomes.join());
  assert.equal(t.core.applications.engagement(appId).dismissals, 6);

  const assetId = saved.text;
  await request(t.url, 'POST', `/${appId}/reaction`, { body: { save: false, reuse: { asset: assetId }, seed: creation(snippet) } });
  assert.equal(t.core.connector.quieting(appId, 'reuse').level, 0);
  assert.equal((await suggest()).reuse.suggested, true);
});

test('trivial copies get no action', async () => {
  for (const [raw, reason] of [['a = 1', 'too_short'], ['{ } ( ) ; => [ ] ;;; ...', 'no_code']] as const) {
    const reply = await request(t.url, 'POST', `/${appId}/suggestion`, { body: creation(raw) });
    assert.deepEqual([reply.json.reuse.suggested, reply.json.save.suggested, reply.json.reason], [false, false, reason]);
  }
});

test('the saved question answers the same twice and records no copy', async () => {
  const code = savedSnippets[2]!.code;
  const asset = await t.core.assets.writes.create({ type: 'SEEDED_ASSET', asset: { application: SATCHEL_APPLICATION, format: { fragment: { string: { raw: code } } } } }, { author: TEST_AUTHOR });
  const before = state();
  for (let i = 0; i < 2; i++) {
    const answer = await request(t.url, 'POST', '/satchel/connector/saved', { body: { text: reformatted(code) } });
    assert.equal(answer.status, 200);
    assert.equal(answer.json.kind, 'saved');
    assert.ok(answer.json.matches.some((m: { assetId: string }) => m.assetId === asset.id));
  }
  assert.deepEqual(state(), before);
  assert.equal((await request(t.url, 'POST', '/satchel/connector/saved', { body: {} })).status, 400);
});
