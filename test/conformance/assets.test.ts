/**
 * Every operation of the Assets and Asset areas (and the adjacent tag, website and format
 * operations) driven through the published client's API classes; every JSON reply is also
 * validated strictly on the raw wire JSON (assetsWireCheck.ts), because the client's parse is lenient.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  AssetApi,
  AssetsApi,
  FormatApi,
  FormatsApi,
  TagApi,
  TagsApi,
  WebsiteApi,
  WebsitesApi,
  ResponseError,
  type ApiResponse,
  type Seed,
} from '@pieces.app/pieces-os-client';
import { startTestServer, type TestServer } from '../support/helpers.ts';
import { assertWire } from './assetsWireCheck.ts';
import { codeSeed } from '../support/assetFixtures.ts';

let t: TestServer;
let assetsApi: AssetsApi;
let assetApi: AssetApi;
before(async () => {
  t = await startTestServer();
  assetsApi = new AssetsApi(t.sdk);
  assetApi = new AssetApi(t.sdk);
});
after(() => t.close());

/** The client's own parse of a reply, after the raw JSON passed the strict check for `model`. */
async function strict<T>(model: string, reply: Promise<ApiResponse<T>>): Promise<T> {
  const response = await reply;
  const raw = await response.raw.clone().json();
  assertWire(model, raw);
  return response.value();
}

/** The client's Seed type, built by the shared test fixture (wire and client shapes agree for seeds). */
function seed(raw: string, name?: string): Seed {
  return codeSeed(raw, name, { ext: 'js' }) as unknown as Seed;
}

async function status(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
    return 200;
  } catch (error) {
    assert.ok(error instanceof ResponseError, String(error));
    return error.response.status;
  }
}

test('the 30 operations of the Assets and Asset areas, strictly on the wire', async () => {
  // assetsCreateNewAsset
  const created = await strict('Asset', assetsApi.assetsCreateNewAssetRaw({ seed: seed('export const sumList = (xs) => xs.reduce((a, b) => a + b, 0);', 'sumList') }));
  assert.equal(created.name, 'sumList');
  assert.equal(created.formats.iterable[0]?.fragment?.string?.raw?.includes('reduce'), true);
  assert.ok(created.created.value instanceof Date && !Number.isNaN(created.created.value.getTime()));
  const bare = await strict('Asset', assetsApi.assetsCreateNewAssetRaw({ transferables: false, seed: seed('function averageList(xs) { return sumList(xs) / xs.length; }') }));
  assert.equal(bare.formats.iterable[0]?.fragment?.string, undefined);
  const pseudo = await strict('Asset', assetsApi.assetsCreateNewAssetRaw({ seed: { ...seed('const hiddenThing = 1;', 'hidden'), asset: { ...seed('const hiddenThing = 1;', 'hidden').asset!, pseudo: true } } }));

  // assetsDraft
  const drafted = await strict('Seed', assetsApi.assetsDraftRaw({ seed: seed('class TodoList {}') }));
  assert.equal(drafted.asset?.metadata?.name, 'TodoList');
  assert.equal(drafted.asset?.format.classification?.specific, 'js');

  // assetsSnapshot (+ suggested, pseudo)
  const snapshot = await strict('Assets', assetsApi.assetsSnapshotRaw({ transferables: false }));
  assert.deepEqual(new Set(snapshot.iterable.map((a) => a.id)), new Set([created.id, bare.id]));
  const withPseudo = await strict('Assets', assetsApi.assetsSnapshotRaw({ pseudo: true }));
  assert.ok(withPseudo.iterable.some((a) => a.id === pseudo.id));
  assert.deepEqual((await strict('Assets', assetsApi.assetsSnapshotRaw({ suggested: true }))).iterable, []);

  // assetsSpecificAssetSnapshot, assetsSpecificAssetFormatsSnapshot
  const one = await strict('Asset', assetsApi.assetsSpecificAssetSnapshotRaw({ asset: created.id }));
  assert.equal(one.id, created.id);
  const formats = await strict('Formats', assetsApi.assetsSpecificAssetFormatsSnapshotRaw({ asset: created.id, transferables: false }));
  assert.equal(formats.iterable.length, 1);
  assert.equal(formats.iterable[0]?.asset.id, created.id);

  // assetsIdentifiersSnapshot, assetsPseudoSnapshot
  const ids = await strict('FlattenedAssets', assetsApi.assetsIdentifiersSnapshotRaw({}));
  assert.deepEqual(new Set(ids.iterable?.map((r) => r.id)), new Set([created.id, bare.id]));
  assert.ok((await strict('FlattenedAssets', assetsApi.assetsIdentifiersSnapshotRaw({ pseudo: true }))).iterable?.some((r) => r.id === pseudo.id));
  const pseudos = await strict('PseudoAssets', assetsApi.assetsPseudoSnapshotRaw());
  assert.deepEqual(pseudos.identifiers?.iterable?.map((r) => r.id), [pseudo.id]);

  // searchAssets (GET /assets/search)
  const found = await strict('SearchedAssets', assetsApi.searchAssetsRaw({ query: 'sumLst', transferables: false }));
  assert.equal(found.iterable[0]?.identifier, created.id);
  assert.equal(typeof found.iterable[0]?.score, 'number');
  assert.equal(await status(assetsApi.searchAssets({})), 500);

  // assetsSearchWithFilters (POST /assets/search)
  const filtered = await strict(
    'AssetsSearchWithFiltersOutput',
    assetsApi.assetsSearchWithFiltersRaw({
      assetsSearchWithFiltersInput: {
        query: 'list',
        space: { identifers: { iterable: [{ id: bare.id }, { id: created.id }] } },
        filters: { iterable: [{ classification: 'js', phrase: { value: 'length', content: true } }], type: 'AND' },
      } as never,
    }),
  );
  assert.deepEqual(filtered.results.iterable.map((r) => r.identifier), [bare.id]);

  // assetsGetRelatedAssets, assetsGetRecommendedAssets (the client can only send these without a body)
  assert.deepEqual((await strict('Assets', assetsApi.assetsGetRelatedAssetsRaw({}))).iterable, []);
  const recommended = await strict('Assets', assetsApi.assetsGetRecommendedAssetsRaw({}));
  assert.equal(recommended.iterable.length, 2);

  // assetSnapshot, assetSnapshotPost
  const viaAsset = await strict('Asset', assetApi.assetSnapshotRaw({ asset: created.id, transferables: true, packageActivities: true }));
  assert.equal(viaAsset.formats.iterable[0]?.fragment?.string?.raw, created.formats.iterable[0]?.fragment?.string?.raw);
  const posted = await strict('Asset', assetApi.assetSnapshotPostRaw({ asset: created.id, seededAccessor: { os: 'os', share: 'share' } }));
  assert.equal(posted.id, created.id);

  // assetFormats
  assert.equal((await strict('Formats', assetApi.assetFormatsRaw({ asset: created.id }))).iterable[0]?.id, created.original.id);

  // assetUpdate
  const renamed = await strict('Asset', assetApi.assetUpdateRaw({ asset: { ...viaAsset, name: 'Sum of a list' } }));
  assert.equal(renamed.name, 'Sum of a list');
  assert.ok(renamed.updated.value.getTime() >= created.updated.value.getTime());

  // assetReclassify
  const reclassified = await strict('Asset', assetApi.assetReclassifyRaw({ assetReclassification: { ext: 'ts', asset: renamed } }));
  assert.deepEqual(reclassified.formats.iterable.map((f) => f.classification.specific), ['ts']);

  // assetScoresIncrement
  await assetApi.assetScoresIncrement({ asset: created.id, seededScoreIncrement: { asset: { reuse: true } } });
  assert.equal((await assetApi.assetSnapshot({ asset: created.id })).score?.reuse, 1);

  // assetSpecificAssetExport
  const md = await strict('ExportedAsset', assetApi.assetSpecificAssetExportRaw({ asset: created.id, exportType: 'MD' }));
  assert.match(md.raw.string?.raw ?? '', /^# Sum of a list\n\n```ts\n/);
  const html = await strict('ExportedAsset', assetApi.assetSpecificAssetExportRaw({ asset: created.id, exportType: 'HTML' }));
  assert.match(html.raw.string?.raw ?? '', /<code class="language-ts">/);
  assert.equal(await status(assetApi.assetSpecificAssetExport({ asset: created.id, exportType: 'UNKNOWN' })), 400);

  // assetAssociateTag / assetDisassociateTag
  const tag = await strict('Tag', new TagsApi(t.sdk).tagsCreateNewTagRaw({ seededTag: { text: 'math' } }));
  await assetApi.assetAssociateTag({ asset: created.id, tag: tag.id });
  await assetApi.assetAssociateTag({ asset: created.id, tag: tag.id });
  assert.deepEqual((await assetApi.assetSnapshot({ asset: created.id })).tags?.iterable.map((x) => x.text), ['math']);
  assert.deepEqual((await strict('SearchedAssets', assetsApi.searchAssetsRaw({ searchableTags: 'math' }))).iterable.map((r) => r.identifier), [created.id]);
  assert.deepEqual(
    (await strict('Tag', new TagApi(t.sdk).tagsSpecificTagSnapshotRaw({ tag: tag.id }))).assets?.iterable?.map((a) => a.id),
    [created.id],
  );
  await assetApi.assetDisassociateTag({ asset: created.id, tag: tag.id });
  assert.deepEqual((await assetApi.assetSnapshot({ asset: created.id })).tags?.iterable, []);
  assert.equal(await status(assetApi.assetAssociateTag({ asset: created.id, tag: 'no-such-tag' })), 404);
  assert.equal(await status(assetApi.assetAssociateTag({ asset: 'no-such-asset', tag: tag.id })), 404);

  // assetAssociateWebsite / assetDisassociateWebsite
  const site = await strict('Website', new WebsitesApi(t.sdk).websitesCreateNewWebsiteRaw({ seededWebsite: { url: 'https://developer.mozilla.org/reduce', name: 'MDN reduce' } }));
  await assetApi.assetAssociateWebsite({ asset: created.id, website: site.id });
  assert.deepEqual((await assetApi.assetSnapshot({ asset: created.id })).websites?.iterable.map((w) => w.url), [site.url]);
  assert.ok((await strict('Websites', new WebsitesApi(t.sdk).websitesSnapshotRaw({}))).iterable.some((w) => w.id === site.id));
  await assetApi.assetDisassociateWebsite({ asset: created.id, website: site.id });
  assert.deepEqual((await strict('Website', new WebsiteApi(t.sdk).websitesSpecificWebsiteSnapshotRaw({ website: site.id }))).assets?.iterable, []);
  assert.equal(await status(assetApi.assetAssociateWebsite({ asset: created.id, website: 'no-such-site' })), 404);

  // assetAssociateWorkstreamSummary / assetDisassociateWorkstreamSummary
  const now = new Date().toISOString();
  t.core.context.records.put('workstream_summary', 'ws-conf', {
    id: 'ws-conf', name: 'Morning work', created: { value: now }, updated: { value: now },
    model: { id: 'm1', version: '1', created: { value: now }, name: 'local', cloud: false, type: 'BALANCED', usage: 'CODE_CONVERSATION' },
  });
  await assetApi.assetAssociateWorkstreamSummary({ asset: created.id, workstreamSummary: 'ws-conf' });
  assert.deepEqual((await strict('Asset', assetApi.assetSnapshotRaw({ asset: created.id }))).summaries?.iterable.map((w) => w.id), ['ws-conf']);
  assert.deepEqual(t.core.context.links.partners({ kind: 'workstream_summary', id: 'ws-conf' }, 'asset'), [created.id]);
  await assetApi.assetDisassociateWorkstreamSummary({ asset: created.id, workstreamSummary: 'ws-conf' });
  assert.equal((await assetApi.assetSnapshot({ asset: created.id })).summaries, undefined);
  assert.equal(await status(assetApi.assetAssociateWorkstreamSummary({ asset: created.id, workstreamSummary: 'nope' })), 404);

  // assetSpecificAssetActivities, assetSpecificAssetConversations
  const activities = await strict('Activities', assetApi.assetSpecificAssetActivitiesRaw({ asset: created.id }));
  assert.ok(activities.iterable.length >= 5, `create, update, reclassify, export, tag… recorded (${activities.iterable.length})`);
  const conversations = await strict('Conversations', assetApi.assetSpecificAssetConversationsRaw({ asset: created.id }));
  assert.ok(Array.isArray(conversations.iterable));
  assert.equal(await status(assetApi.assetSpecificAssetConversations({ asset: 'no-such-asset' })), 404);

  // streamAssets, getAssetsStreamTransferables, assetsStreamIdentifiers over plain HTTP: one-shot snapshots
  assert.equal((await strict('Assets', assetsApi.streamAssetsRaw())).iterable.length, 2);
  const withContent = await strict('Assets', assetsApi.getAssetsStreamTransferablesRaw());
  assert.ok(withContent.iterable.every((a) => a.formats.iterable[0]?.fragment?.string?.raw));
  assert.equal((await strict('StreamedIdentifiers', assetsApi.assetsStreamIdentifiersRaw())).iterable.length, 2);

  // assetsDeleteAsset
  const deleted = await assetsApi.assetsDeleteAsset({ asset: bare.id });
  assert.equal(deleted, bare.id);
  assert.equal(await status(assetApi.assetSnapshot({ asset: bare.id })), 404);
  assert.equal(await status(assetsApi.assetsDeleteAsset({ asset: bare.id })), 404);
});

test('formats, tags and websites adjacent operations', async () => {
  const asset = await assetsApi.assetsCreateNewAsset({ seed: seed('const greeting = "hello";', 'greeting') });
  const formatId = asset.original.id;
  const format = await strict('Format', new FormatApi(t.sdk).formatSnapshotRaw({ format: formatId, transferable: true }));
  assert.equal(format.fragment?.string?.raw, 'const greeting = "hello";');
  const noContent = await strict('Format', new FormatsApi(t.sdk).formatsSpecificFormatSnapshotRaw({ format: formatId, transferable: false }));
  assert.equal(noContent.fragment?.string, undefined);
  const changed = await strict(
    'Format',
    new FormatApi(t.sdk).formatUpdateValueRaw({ format: { ...format, fragment: { string: { raw: 'const salutation = "hi";' } } } }),
  );
  assert.equal(changed.fragment?.string?.raw, 'const salutation = "hi";');
  const hits = await assetsApi.searchAssets({ query: 'salutation' });
  assert.equal(hits.iterable[0]?.identifier, asset.id, 'updating a format value re-indexes the asset');
  assert.ok((await strict('Formats', new FormatsApi(t.sdk).formatsSnapshotRaw({}))).iterable.some((f) => f.id === formatId));
  assert.equal(await status(new FormatApi(t.sdk).formatSnapshot({ format: 'no-such-format' })), 404);

  const tags = new TagsApi(t.sdk);
  const tag = await tags.tagsCreateNewTag({ seededTag: { text: 'strings', asset: asset.id } });
  assert.equal((await tags.tagsCreateNewTag({ seededTag: { text: 'strings' } })).id, tag.id);
  assert.ok((await strict('Tags', tags.tagsSnapshotRaw({}))).iterable.some((x) => x.id === tag.id));
  await new TagApi(t.sdk).tagDisassociateAsset({ tag: tag.id, asset: asset.id });
  assert.deepEqual((await assetApi.assetSnapshot({ asset: asset.id })).tags?.iterable, []);
  await new TagApi(t.sdk).tagAssociateAsset({ tag: tag.id, asset: asset.id });
  assert.equal((await assetApi.assetSnapshot({ asset: asset.id })).tags?.iterable.length, 1);
  assert.equal(await status(new TagApi(t.sdk).tagsSpecificTagSnapshot({ tag: 'nope' })), 404);

  const site = await new WebsitesApi(t.sdk).websitesCreateNewWebsite({ seededWebsite: { url: 'https://example.org', name: 'Example', asset: asset.id } });
  assert.deepEqual((await assetApi.assetSnapshot({ asset: asset.id })).websites?.iterable.map((w) => w.id), [site.id]);
  await new WebsiteApi(t.sdk).websiteDisassociateAsset({ website: site.id, asset: asset.id });
  assert.deepEqual((await assetApi.assetSnapshot({ asset: asset.id })).websites?.iterable, []);
});
