/**
 * The connector and applications operations through the published client (ConnectorApi,
 * ApplicationsApi, ApplicationApi), every JSON reply strictly validated against the client's models;
 * the five operations absent from client 4.1.0 through raw fetch. Satchel's documented extension
 * keys (an application's status/lastSeen/engagement, a suggestion's reason, a session's
 * application/usage) are checked on their own and removed before the strict check.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as P from '@pieces.app/pieces-os-client';
import { startTestServer, request, type TestServer } from '../support/helpers.ts';
import { assertWire } from './assetsWireCheck.ts';

let t: TestServer;
let connector: P.ConnectorApi;
let applicationsApi: P.ApplicationsApi;
let applicationApi: P.ApplicationApi;
let app: P.Application;

before(async () => {
  t = await startTestServer();
  connector = new P.ConnectorApi(t.sdk);
  applicationsApi = new P.ApplicationsApi(t.sdk);
  applicationApi = new P.ApplicationApi(t.sdk);
});
after(() => t.close());

/** The SDK's parse and the raw JSON of one call. */
async function raw<T>(call: Promise<P.ApiResponse<T>>): Promise<{ value: T; json: unknown; type: string }> {
  const response = await call;
  const copy = response.raw.clone();
  const value = await response.value();
  const body = await copy.text();
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = body;
  }
  return { value, json, type: copy.headers.get('content-type') ?? '' };
}

function withoutExtensions(application: Record<string, unknown>): Record<string, unknown> {
  const { status, lastSeen, engagement, ...wire } = application;
  assert.match(String(status), /^(ACTIVE|INACTIVE)$/);
  assert.equal(typeof engagement, 'object');
  if (lastSeen !== undefined) assertWire('GroupedTimestamp', lastSeen);
  return wire;
}

const snippet = `export async function retry<T>(operation: () => Promise<T>, attempts = 5): Promise<T> {
  let lastError: unknown;
  for (let attempt = 0; attempt < attempts; attempt++) {
    try {
      return await operation();
    } catch (error) {
      lastError = error;
      await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** attempt));
    }
  }
  throw lastError;
}`;

const creation = (raw: string): P.SeededConnectorCreation => ({ asset: { format: { fragment: { string: { raw } } } } });

test('connect registers the application once per name, version and platform, without X-Application-ID', async () => {
  const seeded = { application: { name: P.ApplicationNameEnum.VsCode, version: '1.101.0', platform: P.PlatformEnum.Linux } };
  const first = await raw(connector.connectRaw({ seededConnectorConnection: seeded }));
  assertWire('Context', first.json);
  app = first.value.application;
  assert.match(app.id, /^[0-9a-f-]{36}$/);
  assert.equal(app.onboarded, false);
  assert.equal(first.value.health.os.id, first.value.os);
  assert.match(first.value.health.os.version, /^\d+\.\d+\.\d+/);
  const again = await connector.connect({ seededConnectorConnection: seeded });
  assert.equal(again.application.id, app.id, 'the same application gets the same id');
  assert.equal(again.os, first.value.os, 'the os id is stable');
  const other = await connector.connect({ seededConnectorConnection: { application: { ...seeded.application, version: '1.102.0' } } });
  assert.notEqual(other.application.id, app.id);
});

test('suggest: save for something new, reuse with assets and distribution once it is saved (react save returns the id)', async () => {
  const fresh = await raw(connector.suggestRaw({ application: app.id, seededConnectorCreation: creation(snippet) }));
  const { reason, ...wire } = fresh.json as Record<string, unknown>;
  assert.equal(reason, undefined);
  assertWire('Suggestion', wire);
  assert.equal(fresh.value.save.suggested, true);
  assert.equal(fresh.value.reuse.suggested, false);

  const saved = await raw(connector.reactRaw({ application: app.id, reaction: { save: true, seed: creation(snippet) } }));
  assert.match(saved.type, /text\/plain/);
  const assetId = saved.value as unknown as string;
  assert.match(assetId, /^[0-9a-f-]{36}$/);
  assert.equal((await new P.AssetsApi(t.sdk).assetsSpecificAssetSnapshot({ asset: assetId })).id, assetId);

  const part = snippet.split('\n').slice(2, 9).join('\n').replace(/\n\s*/g, ' ') + ' // copied';
  const reuse = await raw(connector.suggestRaw({ application: app.id, seededConnectorCreation: creation(part) }));
  assertWire('Suggestion', reuse.json);
  assert.equal(reuse.value.reuse.suggested, true);
  assert.equal(reuse.value.save.suggested, false);
  assert.equal(reuse.value.reuse.assets.iterable[0]!.id, assetId);
  assert.equal(reuse.value.assets.iterable[0]!.id, assetId);
  assert.ok(reuse.value.distribution![assetId]! >= 0.5);
  assert.ok(reuse.value.target.vector >= 0.5);

  const repeat = await raw(connector.suggestRaw({ application: app.id, seededConnectorCreation: creation(part) }));
  assert.equal((repeat.json as { reason?: string }).reason, 'repeat');
  assert.equal(repeat.value.reuse.suggested || repeat.value.save.suggested, false);
});

test('react reuse counts on the asset; track records copies and references; engagement figures move', async () => {
  const assetId = (await new P.AssetsApi(t.sdk).assetsSnapshot({})).iterable[0]!.id;
  const before = (await new P.AssetApi(t.sdk).assetSnapshot({ asset: assetId })).score;
  const ok = await connector.react({ application: app.id, reaction: { save: false, reuse: { asset: assetId }, seed: creation(snippet) } });
  assert.equal(ok, 'OK');
  const tracked = await raw(
    connector.trackRaw({
      application: app.id,
      seededConnectorTracking: {
        asset: {
          asset: { id: assetId },
          identifierDescriptionPair: { assetFormatCopied: P.TrackedAssetEventIdentifierDescriptionPairsAssetFormatCopiedEnum.AnAssetPreviewFormatWasCopied },
        },
      },
    }),
  );
  assert.match(tracked.type, /text\/plain/);
  assert.equal(tracked.value, 'OK');
  const after = (await new P.AssetApi(t.sdk).assetSnapshot({ asset: assetId })).score;
  assert.equal((after?.reuse ?? 0) - (before?.reuse ?? 0), 2, 'one reuse from the reaction, one from the tracked copy');
  const activities = await new P.AssetApi(t.sdk).assetSpecificAssetActivities({ asset: assetId });
  assert.ok(activities.iterable.length >= 2);

  const specific = await raw(applicationsApi.applicationsSpecificApplicationSnapshotRaw({ application: app.id }));
  const json = specific.json as Record<string, unknown> & { engagement: Record<string, number> };
  assertWire('Application', withoutExtensions(json));
  assert.equal(json.engagement.reuses, 1);
  assert.equal(json.engagement.copies, 1);
  assert.equal(json.engagement.tracked, 1);
  assert.equal(json.engagement.saves, 1);
  assert.equal(json.engagement.connections, 2);
  assert.ok((json.engagement.suggestions ?? 0) >= 3);
  assert.equal(json.status, 'ACTIVE');
});

test('intention keeps the snippet as suggested content; onboarded stores the flag', async () => {
  const kept = await raw(
    connector.intentionRaw({ application: app.id, seededConnectorAsset: { format: { fragment: { string: { raw: 'SELECT id, name FROM users WHERE active = 1 ORDER BY name;' } } } } }),
  );
  assert.match(kept.type, /text\/plain/);
  const id = kept.value as unknown as string;
  const suggested = await new P.AssetsApi(t.sdk).assetsSnapshot({ suggested: true });
  assert.ok(suggested.iterable.some((asset) => asset.id === id));
  const ordinary = await new P.AssetsApi(t.sdk).assetsSnapshot({});
  assert.ok(!ordinary.iterable.some((asset) => asset.id === id));

  const onboarded = await raw(connector.onboardedRaw({ application: app.id, body: true }));
  assert.match(onboarded.type, /text\/plain/);
  assert.equal(onboarded.value, 'OK');
  assert.equal((await applicationsApi.applicationsSpecificApplicationSnapshot({ application: app.id })).onboarded, true);
});

test('applications snapshot, external, related, identifiers, update and register', async () => {
  const snapshot = await raw(applicationsApi.applicationsSnapshotRaw());
  const list = (snapshot.json as { iterable: Array<Record<string, unknown>> }).iterable;
  assertWire('Applications', { iterable: list.map(withoutExtensions) });
  assert.ok(snapshot.value.iterable.some((a) => a.id === app.id));

  const external = await raw(applicationsApi.applicationsExternalSnapshotRaw());
  assertWire('DetectedExternalApplications', external.json);
  const related = await raw(applicationsApi.applicationsExternalRelatedRaw());
  assertWire('DetectedExternalApplications', related.json);
  const relatedNames = new Set(related.value.iterable.map((a) => a.name));
  assert.ok(relatedNames.has('Visual Studio Code') && relatedNames.has('Obsidian') && relatedNames.has('Neovim'));
  for (const installed of external.value.iterable) assert.ok(relatedNames.has(installed.name));

  const ids = await raw(applicationsApi.applicationsStreamIdentifiersRaw());
  assertWire('StreamedIdentifiers', ids.json);
  assert.ok(ids.value.iterable.some((i) => i.application?.id === app.id));

  const updated = await raw(applicationApi.applicationUpdateRaw({ application: { ...app, version: '1.103.0', onboarded: true } }));
  assertWire('Application', updated.json);
  assert.equal(updated.value.version, '1.103.0');
  assert.equal((await applicationsApi.applicationsSpecificApplicationSnapshot({ application: app.id })).version, '1.103.0');

  const registered = await raw(
    applicationsApi.applicationsRegisterRaw({
      application: { id: '5f5c6f1e-0000-4000-8000-000000000009', name: P.ApplicationNameEnum.Obsidian, version: '1.5.0', platform: P.PlatformEnum.Macos, onboarded: false, privacy: P.PrivacyEnum.Open },
    }),
  );
  assertWire('Application', registered.json);
  assert.equal((await applicationsApi.applicationsSpecificApplicationSnapshot({ application: '5f5c6f1e-0000-4000-8000-000000000009' })).name, 'OBSIDIAN');
});

test('deprecated sessions: open, close (bare JSON string) and the snapshot absent from the client', async () => {
  const opened = await raw(applicationsApi.applicationsSessionOpenRaw());
  const { usage: openUsage, ...openedWire } = opened.json as Record<string, unknown>;
  assert.deepEqual(openUsage, { interactions: 0, keyboard: 0 });
  assertWire('Session', openedWire);
  const interaction = await request(t.url, 'POST', '/applications/usage/engagement/interaction', {
    body: { description: 'clicked save', element: 'save-button' },
    headers: { 'x-application-id': app.id },
  });
  assert.equal(interaction.status, 200);
  assert.equal(interaction.json.description, 'clicked save');
  assert.match(interaction.json.id, /^[0-9a-f-]{36}$/);
  assertWire('GroupedTimestamp', interaction.json.created);
  const keyboard = await request(t.url, 'POST', '/applications/usage/engagement/keyboard', { body: { description: 'save shortcut', shortcut: [17, 83] } });
  assert.equal(keyboard.status, 200);
  assert.deepEqual(keyboard.json.shortcut, [17, 83]);

  const closed = await raw(applicationsApi.applicationsSessionCloseRaw({ body: opened.value.id }));
  const { application, usage, ...session } = closed.json as Record<string, unknown>;
  assert.equal(application, undefined);
  assert.deepEqual(usage, { interactions: 1, keyboard: 1 });
  assertWire('Session', session);
  assert.ok(closed.value.closed?.value instanceof Date);

  const snapshot = await request(t.url, 'GET', `/applications/sessions/${opened.value.id}`);
  assert.equal(snapshot.status, 200);
  assert.equal(snapshot.json.id, opened.value.id);
  assert.equal(typeof snapshot.json.closed.value, 'string');
  const engagement = (await request(t.url, 'GET', `/applications/${app.id}`)).json.engagement;
  assert.equal(engagement.interactions, 1);
});

test('deprecated installation and update tracking are persisted and move the application', async () => {
  const tracked = { name: 'VS_CODE', version: '1.103.0', platform: 'LINUX' };
  const install = await request(t.url, 'POST', '/applications/usage/installation', { body: { application: tracked } });
  assert.equal(install.status, 204);
  const update = await request(t.url, 'POST', '/applications/usage/updated', { body: { previous: tracked, current: { ...tracked, version: '1.104.0' } } });
  assert.equal(update.status, 204);
  const specific = (await request(t.url, 'GET', `/applications/${app.id}`)).json;
  assert.equal(specific.version, '1.104.0');
  assert.equal(specific.engagement.installations, 1);
  assert.equal(specific.engagement.updates, 1);
  assert.equal(t.core.applications.usage('installation').length, 1);
  assert.equal(t.core.applications.usage('update').length, 1);
});

test('deprecated tracking accepts whatever object an old client sends, and records it', async () => {
  const before = {
    interaction: t.core.applications.usage('interaction').length,
    keyboard: t.core.applications.usage('keyboard').length,
    installation: t.core.applications.usage('installation').length,
    update: t.core.applications.usage('update').length,
  };
  const versionsOnly = { previous: { version: '0.0.0' }, current: { version: '1' } };
  const cases: Array<[string, unknown, number]> = [
    ['/applications/usage/updated', versionsOnly, 204],
    ['/applications/usage/updated', {}, 204],
    ['/applications/usage/installation', { application: { name: 'VS_CODE' } }, 204],
    ['/applications/usage/installation', { os: 'linux' }, 204],
    ['/applications/usage/engagement/interaction', { element: 'x' }, 200],
    ['/applications/usage/engagement/keyboard', { shortcut: [17] }, 200],
  ];
  for (const [path, body, status] of cases) {
    const reply = await request(t.url, 'POST', path, { body });
    assert.equal(reply.status, status, `${path} ${JSON.stringify(body)} → ${reply.status} ${reply.text}`);
  }
  assert.equal(t.core.applications.usage('update').length, before.update + 2);
  assert.equal(t.core.applications.usage('installation').length, before.installation + 2);
  assert.equal(t.core.applications.usage('interaction').length, before.interaction + 1);
  assert.equal(t.core.applications.usage('keyboard').length, before.keyboard + 1);
  assert.deepEqual(t.core.applications.usage('update').at(-2)?.['current'], { version: '1' });
  // A body that is not an object is still refused clearly.
  const refused = await request(t.url, 'POST', '/applications/usage/updated', { body: '[]' });
  assert.equal(refused.status, 400);
});
