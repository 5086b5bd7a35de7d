/**
 * A trashed asset is a deleted asset to every operation of the interface: the delete checks of
 * assets.test.ts, assetsStreams.test.ts and connector.test.ts run against an asset the interface's
 * own delete sent to the trash (re-reads and writes naming it or its format answer 404; it is gone
 * from snapshots, the tag's, website's and conversation's links, searches, streams and the
 * connector's suggestions), while GET /satchel/trash lists it. Restored through
 * POST /satchel/trash/{id}/restore, every one of those operations finds it again exactly as it was:
 * content, tags, websites, its conversation, revisions.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as P from '@pieces.app/pieces-os-client';
import { startTestServer, request, type TestServer } from '../support/helpers.ts';
import { openFrames, type Frames } from '../support/frames.ts';
import { codeSeed } from '../support/assetFixtures.ts';

let t: TestServer;
let assetsApi: P.AssetsApi;
let assetApi: P.AssetApi;
before(async () => {
  t = await startTestServer();
  assetsApi = new P.AssetsApi(t.sdk);
  assetApi = new P.AssetApi(t.sdk);
});
after(() => t.close());

const SNIPPET = `export function debounce<A extends unknown[]>(fn: (...args: A) => void, wait: number): (...args: A) => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return (...args: A) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), wait);
  };
}`;
/** What a user copies from it: the connector's suggestion names the asset while it is live. */
const COPIED = SNIPPET.split('\n').slice(1, 6).join('\n');
let copies = 0;
/** The copy, a little different each time: the same copy twice in a row is a repeat, which suggests nothing. */
function copied(): P.SeededConnectorCreation {
  return { asset: { format: { fragment: { string: { raw: `${COPIED}\nconst copy${++copies} = ${copies};` } } } } };
}

async function status(call: () => Promise<unknown>): Promise<number> {
  try {
    await call();
    return 200;
  } catch (error) {
    assert.ok(error instanceof P.ResponseError, String(error));
    return error.response.status;
  }
}

interface Fixture {
  readonly id: string;
  readonly format: string;
  readonly tag: string;
  readonly website: string;
  readonly conversation: string;
  readonly application: string;
}

/** An asset with content, a tag, a website, a conversation, activities and three revisions. */
async function richAsset(): Promise<Fixture> {
  const seeded = { application: { name: P.ApplicationNameEnum.VsCode, version: '1.101.0', platform: P.PlatformEnum.Linux } };
  const application = (await new P.ConnectorApi(t.sdk).connect({ seededConnectorConnection: seeded })).application.id;
  const created = await assetsApi.assetsCreateNewAsset({ seed: codeSeed(SNIPPET, 'debounce', { ext: 'ts' }) as unknown as P.Seed });
  const tag = await new P.TagsApi(t.sdk).tagsCreateNewTag({ seededTag: { text: 'timers', asset: created.id } });
  const website = await new P.WebsitesApi(t.sdk).websitesCreateNewWebsite({ seededWebsite: { url: 'https://developer.mozilla.org/docs/Web/API/setTimeout', name: 'setTimeout', asset: created.id } });
  const conversation = await new P.ConversationsApi(t.sdk).conversationsCreateSpecificConversation({
    seededConversation: { type: P.ConversationTypeEnum.Copilot, name: 'Debouncing input' },
  });
  await new P.ConversationApi(t.sdk).conversationAssociateAsset({ conversation: conversation.id, asset: created.id });
  const current = await assetApi.assetSnapshot({ asset: created.id });
  await assetApi.assetUpdate({ asset: { ...current, name: 'Debounce calls' } });
  return { id: created.id, format: created.formats.iterable[0]!.id, tag: tag.id, website: website.id, conversation: conversation.id, application };
}

/** Everything the interface answers about the asset, as raw JSON (compared before the delete and after the restore). */
async function snapshotOf(f: Fixture): Promise<unknown> {
  const read = async (path: string) => {
    const reply = await request(t.url, 'GET', path);
    assert.equal(reply.status, 200, `${path}: ${reply.text.slice(0, 200)}`);
    return reply.json;
  };
  return {
    asset: await read(`/asset/${f.id}`),
    formats: await read(`/assets/${f.id}/formats`),
    format: await read(`/format/${f.format}?transferable=true`),
    conversations: await read(`/asset/${f.id}/conversations`),
  };
}

/** Whether each reading operation of the interface finds the asset (search, snapshots, links, the connector). */
async function presence(f: Fixture): Promise<Record<string, boolean>> {
  const ids = (list: { iterable?: Array<{ id?: string }> | undefined }) => (list.iterable ?? []).some((item) => item.id === f.id);
  const hits = (list: { iterable: Array<{ identifier?: string }> }) => list.iterable.some((hit) => hit.identifier === f.id);
  const json = async (path: string) => (await request(t.url, 'GET', path)).json;
  const conversation = await new P.ConversationApi(t.sdk).conversationGetSpecificConversation({ conversation: f.conversation });
  const suggestion = await new P.ConnectorApi(t.sdk).suggest({ application: f.application, seededConnectorCreation: copied() });
  return {
    assetsSnapshot: ids(await assetsApi.assetsSnapshot({ transferables: false })),
    assetsIdentifiers: ids(await assetsApi.assetsIdentifiersSnapshot({})),
    streamAssetsGet: ids(await assetsApi.streamAssets()),
    streamTransferablesGet: ids(await assetsApi.getAssetsStreamTransferables()),
    streamIdentifiersGet: (await json('/assets/stream/identifiers')).iterable.some((x: { asset?: { id?: string } }) => x.asset?.id === f.id),
    formatsSnapshot: (await new P.FormatsApi(t.sdk).formatsSnapshot({})).iterable.some((format) => format.id === f.format),
    tagAssets: ids((await new P.TagApi(t.sdk).tagsSpecificTagSnapshot({ tag: f.tag })).assets ?? {}),
    websiteAssets: ids((await new P.WebsiteApi(t.sdk).websitesSpecificWebsiteSnapshot({ website: f.website })).assets ?? {}),
    conversationAssets: ids(conversation.assets ?? {}),
    searchQuery: hits(await assetsApi.searchAssets({ query: 'debounce', transferables: false })),
    searchTags: hits(await assetsApi.searchAssets({ searchableTags: 'timers', transferables: false })),
    searchWithFilters: hits((await assetsApi.assetsSearchWithFilters({ assetsSearchWithFiltersInput: { query: 'debounce' } })).results),
    fullText: hits(await json('/search/full_text?query=debounce')),
    neuralCode: hits(await json('/search/neural_code?query=debounce%20timer')),
    suggestsReuse: suggestion.reuse.suggested && suggestion.reuse.assets.iterable.some((a) => a.id === f.id),
  };
}

/** Every operation naming the asset or its format, with the status it answers. */
async function statuses(f: Fixture, stale: P.Asset): Promise<Record<string, number>> {
  const asset = f.id;
  const tagApi = new P.TagApi(t.sdk);
  const websiteApi = new P.WebsiteApi(t.sdk);
  const format = await new P.FormatApi(t.sdk).formatSnapshot({ format: f.format, transferable: true }).catch(() => stale.formats.iterable[0]!);
  return {
    assetSnapshot: await status(() => assetApi.assetSnapshot({ asset })),
    assetsSpecificAssetSnapshot: await status(() => assetsApi.assetsSpecificAssetSnapshot({ asset })),
    assetSnapshotPost: await status(() => assetApi.assetSnapshotPost({ asset, seededAccessor: { os: 'os', share: 'share' } })),
    assetFormats: await status(() => assetApi.assetFormats({ asset })),
    assetsSpecificAssetFormatsSnapshot: await status(() => assetsApi.assetsSpecificAssetFormatsSnapshot({ asset })),
    activities: await status(() => assetApi.assetSpecificAssetActivities({ asset })),
    conversations: await status(() => assetApi.assetSpecificAssetConversations({ asset })),
    export: await status(() => assetApi.assetSpecificAssetExport({ asset, exportType: P.AssetSpecificAssetExportExportTypeEnum.Md })),
    formatSnapshot: await status(() => new P.FormatApi(t.sdk).formatSnapshot({ format: f.format })),
    formatsSpecificFormatSnapshot: await status(() => new P.FormatsApi(t.sdk).formatsSpecificFormatSnapshot({ format: f.format })),
    update: await status(() => assetApi.assetUpdate({ asset: { ...stale, name: 'written to the trash?' } })),
    reclassify: await status(() => assetApi.assetReclassify({ assetReclassification: { ext: P.ClassificationSpecificEnum.Js, asset: stale } })),
    formatUpdateValue: await status(() => new P.FormatApi(t.sdk).formatUpdateValue({ format: { ...format, fragment: { string: { raw: 'const overwritten = 1;' } } } })),
    scoresIncrement: await status(() => assetApi.assetScoresIncrement({ asset, seededScoreIncrement: { asset: { reuse: true } } })),
    associateTag: await status(() => assetApi.assetAssociateTag({ asset, tag: f.tag })),
    tagAssociateAsset: await status(() => tagApi.tagAssociateAsset({ tag: f.tag, asset })),
    associateWebsite: await status(() => assetApi.assetAssociateWebsite({ asset, website: f.website })),
    websiteAssociateAsset: await status(() => websiteApi.websiteAssociateAsset({ website: f.website, asset })),
    conversationAssociateAsset: await status(() => new P.ConversationApi(t.sdk).conversationAssociateAsset({ conversation: f.conversation, asset })),
    react: await status(() => new P.ConnectorApi(t.sdk).react({ application: f.application, reaction: { save: false, reuse: { asset }, seed: copied() } })),
    delete: await status(() => assetsApi.assetsDeleteAsset({ asset })),
  };
}

function mapValues<T, U>(record: Record<string, T>, fn: (value: T) => U): Record<string, U> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, fn(value)]));
}

type IdFrame = { iterable: Array<{ asset?: { id: string }; deleted?: boolean }> };
type AssetsFrame = { iterable: Array<{ id: string; deleted?: unknown }> };

test('every interface operation treats a trashed asset as deleted, and finds it whole again once it is restored', async () => {
  const f = await richAsset();
  const before = await snapshotOf(f);
  const stale = await assetApi.assetSnapshot({ asset: f.id });
  const revisions = (await request(t.url, 'GET', `/satchel/assets/${f.id}/revisions`)).json.revisions as Array<{ id: string }>;
  assert.equal(revisions.length, 3, 'created, tagged, renamed');
  const live = await presence(f);
  assert.deepEqual(Object.keys(live).filter((key) => !live[key]), [], 'every reading operation finds the live asset');

  const identifiers: Frames<IdFrame> = await openFrames(`${t.url}/assets/stream/identifiers`);
  const streamed: Frames<AssetsFrame> = await openFrames(`${t.url}/assets/stream`);
  await identifiers.until((frame) => frame.iterable.some((x) => x.asset?.id === f.id));
  try {
    assert.equal(await assetsApi.assetsDeleteAsset({ asset: f.id }), f.id);
    await identifiers.until((frame) => frame.iterable.some((x) => x.asset?.id === f.id && x.deleted === true));
    await streamed.until((frame) => frame.iterable.some((a) => a.id === f.id && a.deleted !== undefined));

    const listed = await request(t.url, 'GET', '/satchel/trash');
    assert.equal(listed.status, 200);
    assert.deepEqual(
      listed.json.items.map((item: { id: string; kind: string; name: string }) => [item.id, item.kind, item.name]),
      [[f.id, 'asset', 'Debounce calls']],
    );

    const answered = await statuses(f, stale);
    assert.deepEqual(answered, mapValues(answered, () => 404), 'every operation naming the trashed asset or its format answers 404');
    const gone = await presence(f);
    assert.deepEqual(gone, mapValues(gone, () => false), 'no reading operation finds the trashed asset');
    const fresh: Frames<IdFrame> = await openFrames(`${t.url}/assets/stream/identifiers`);
    const connect = await fresh.until(() => true);
    fresh.close();
    assert.ok(!connect.iterable.some((x) => x.asset?.id === f.id), 'a stream opened now does not list it');
    assert.equal((await request(t.url, 'GET', `/satchel/trash/${f.id}`)).json.name, 'Debounce calls', 'the failed writes left the trashed asset alone');

    const from = identifiers.frames.length;
    const restored = await request(t.url, 'POST', `/satchel/trash/${f.id}/restore`);
    assert.equal(restored.status, 200, restored.text);
    assert.deepEqual({ id: restored.json.id, kind: restored.json.kind }, { id: f.id, kind: 'asset' });
    assert.equal(restored.etag, `"${restored.json.revision}"`);
    await identifiers.until((frame) => frame.iterable.some((x) => x.asset?.id === f.id && !x.deleted), from);

    assert.deepEqual(await snapshotOf(f), before, 'content, tags, websites and its conversation are back as they were');
    const back = await presence(f);
    assert.deepEqual(Object.keys(back).filter((key) => !back[key]), [], 'every reading operation finds it again');
    const history = (await request(t.url, 'GET', `/satchel/assets/${f.id}/revisions`)).json as { current: string; revisions: Array<{ id: string; changes: string[] }> };
    assert.deepEqual(history.revisions.slice(1).map((r) => r.id), revisions.map((r) => r.id), 'its revisions are kept');
    assert.deepEqual(history.revisions[0]!.changes, ['restored']);
    assert.equal(history.current, restored.json.revision);
    assert.equal((await request(t.url, 'GET', '/satchel/trash')).json.total, 0);
  } finally {
    identifiers.close();
    streamed.close();
  }
});

test('a conversation deleted through the interface goes to the trash with its messages and comes back whole', async () => {
  const conversations = new P.ConversationsApi(t.sdk);
  const asset = await assetsApi.assetsCreateNewAsset({ seed: codeSeed('const retries = 3;', 'retries', { ext: 'ts' }) as unknown as P.Seed });
  const created = await conversations.conversationsCreateSpecificConversation({ seededConversation: { type: P.ConversationTypeEnum.Copilot, name: 'Retrying requests' } });
  const messages = new P.ConversationMessagesApi(t.sdk);
  const said: string[] = [];
  for (const [role, text] of [
    [P.QGPTConversationMessageRoleEnum.User, 'How many times should a request be retried?'],
    [P.QGPTConversationMessageRoleEnum.Assistant, 'Three times, with exponential backoff.'],
  ] as const) {
    said.push((await messages.messagesCreateSpecificMessage({ seededConversationMessage: { role, conversation: { id: created.id }, fragment: { string: { raw: text } } } })).id);
  }
  await new P.ConversationApi(t.sdk).conversationAssociateAsset({ conversation: created.id, asset: asset.id });
  const site = await new P.WebsitesApi(t.sdk).websitesCreateNewWebsite({ seededWebsite: { url: 'https://example.org/backoff', name: 'Backoff' } });
  await new P.ConversationApi(t.sdk).conversationAssociateWebsite({ conversation: created.id, website: site.id });
  const before = (await request(t.url, 'GET', `/conversation/${created.id}?transferables=true`)).json;
  assert.deepEqual([before.assets.iterable.length, before.websites.iterable.length], [1, 1]);
  const messagesBefore = (await request(t.url, 'GET', `/conversation/${created.id}/messages?transferables=true`)).json;
  assert.equal(Object.keys(messagesBefore.indices ?? {}).length, 2);

  await conversations.conversationsDeleteSpecificConversation({ conversation: created.id });
  assert.equal((await request(t.url, 'GET', `/conversation/${created.id}`)).status, 404);
  for (const message of said) assert.equal((await request(t.url, 'GET', `/message/${message}`)).status, 404);
  assert.ok(!(await conversations.conversationsIdentifiersSnapshot()).iterable.some((c) => c.id === created.id));
  assert.deepEqual((await assetApi.assetSpecificAssetConversations({ asset: asset.id })).iterable, []);
  assert.deepEqual((await new P.WebsiteApi(t.sdk).websitesSpecificWebsiteSnapshot({ website: site.id })).conversations?.iterable ?? [], []);
  const entry = (await request(t.url, 'GET', `/satchel/trash/${created.id}`)).json;
  assert.deepEqual([entry.kind, entry.name, entry.messages], ['conversation', 'Retrying requests', 2]);

  const restored = await request(t.url, 'POST', `/satchel/trash/${created.id}/restore`);
  assert.deepEqual(restored.json, { id: created.id, kind: 'conversation' });
  const after = (await request(t.url, 'GET', `/conversation/${created.id}?transferables=true`)).json;
  assert.deepEqual({ ...after, updated: before.updated }, before, 'its messages, asset and website are back');
  assert.deepEqual((await request(t.url, 'GET', `/conversation/${created.id}/messages?transferables=true`)).json, messagesBefore);
  for (const message of said) assert.equal((await request(t.url, 'GET', `/message/${message}`)).status, 200);
  assert.deepEqual((await assetApi.assetSpecificAssetConversations({ asset: asset.id })).iterable.map((c) => c.id), [created.id]);
  assert.deepEqual((await new P.WebsiteApi(t.sdk).websitesSpecificWebsiteSnapshot({ website: site.id })).conversations?.iterable.map((c) => c.id), [created.id]);
});
