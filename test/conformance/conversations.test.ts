/**
 * The conversations area through the published client's API classes: every operation, with the
 * raw JSON of each reply checked strictly (required wire keys, `iterable` on collections) and the
 * client's own parse of it. Associations are checked from both sides.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  AnchorApi,
  AnchorsApi,
  AnnotationApi,
  AnnotationsApi,
  AssetApi,
  AssetsApi,
  ConversationApi,
  ConversationMessageApi,
  ConversationMessagesApi,
  ConversationsApi,
  RangeApi,
  RangesApi,
  WebsitesApi,
  WorkstreamSummariesApi,
  WorkstreamSummaryApi,
  type ApiResponse,
  type Conversation,
  type Seed,
} from '@pieces.app/pieces-os-client';
import { startTestServer, type TestServer } from '../support/helpers.ts';
import { deployment, fixtures, failingTest } from '../support/conversationFixtures.ts';
import { codeSeed } from '../support/assetFixtures.ts';

let t: TestServer;
let conversations: ConversationsApi;
let conversation: ConversationApi;
let messages: ConversationMessagesApi;
let message: ConversationMessageApi;

before(async () => {
  t = await startTestServer();
  conversations = new ConversationsApi(t.sdk);
  conversation = new ConversationApi(t.sdk);
  messages = new ConversationMessagesApi(t.sdk);
  message = new ConversationMessageApi(t.sdk);
});
after(() => t.close());

type Json = Record<string, any>;

/** The raw JSON of a reply and the client's parse of it. */
async function wire<T>(pending: Promise<ApiResponse<T>>): Promise<{ json: Json; value: T }> {
  const response = await pending;
  assert.equal(response.raw.status, 200);
  const json = (await response.raw.clone().json()) as Json;
  return { json, value: await response.value() };
}

function isTimestamp(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Number.isNaN(Date.parse((value as Json)['value']));
}

function checkCollection(json: Json, what: string): Json[] {
  assert.ok(Array.isArray(json['iterable']), `${what}.iterable is an array`);
  return json['iterable'] as Json[];
}

function checkRecord(json: Json, what: string, required: readonly string[]): void {
  assert.equal(typeof json['id'], 'string', `${what}.id`);
  assert.ok(isTimestamp(json['created']), `${what}.created`);
  assert.ok(isTimestamp(json['updated']), `${what}.updated`);
  for (const key of required) assert.ok(json[key] !== undefined && json[key] !== null, `${what}.${key} is present`);
}

function checkConversation(json: Json): void {
  checkRecord(json, 'Conversation', ['messages', 'type']);
  assert.ok(['UNKNOWN', 'COPILOT'].includes(json['type']));
  for (const item of checkCollection(json['messages'], 'Conversation.messages')) {
    assert.equal(typeof item['id'], 'string');
    checkRecord(item['reference'], 'FlattenedConversationMessage', ['conversation', 'role']);
  }
  for (const key of ['assets', 'websites', 'anchors', 'annotations', 'summaries']) checkCollection(json[key], `Conversation.${key}`);
  checkCollection(json['grounding']['messages'], 'grounding.messages');
  checkCollection(json['grounding']['temporal']['workstreams'], 'grounding.temporal.workstreams');
  assert.equal(typeof json['score']['manual'], 'number');
  assert.equal(typeof json['score']['automatic'], 'number');
}

function checkMessage(json: Json): void {
  checkRecord(json, 'ConversationMessage', ['conversation', 'role']);
  assert.equal(typeof json['conversation']['id'], 'string');
  assert.ok(['UNKNOWN', 'USER', 'SYSTEM', 'ASSISTANT'].includes(json['role']));
}

function ids(list: { iterable?: ReadonlyArray<object> } | undefined): string[] {
  return (list?.iterable ?? []).map((item) => (item as { id: string }).id);
}

async function createConversation(fixture = deployment, name?: string): Promise<Conversation> {
  const { json, value } = await wire(
    conversations.conversationsCreateSpecificConversationRaw({
      seededConversation: {
        type: 'COPILOT',
        ...(name ? { name } : {}),
        messages: fixture.messages.map((m) => ({ role: m.role as 'USER', fragment: { string: { raw: m.text } } })),
      },
    }),
  );
  checkConversation(json);
  return value;
}

async function createAsset(text: string): Promise<string> {
  const asset = await new AssetsApi(t.sdk).assetsCreateNewAsset({
    transferables: false,
    seed: codeSeed(text) as unknown as Seed,
  });
  return asset.id;
}

test('create, get, snapshot and identifiers: messages keep their order and roles', async () => {
  const created = await createConversation(failingTest, 'Jest after Node 20');
  assert.equal(created.name, 'Jest after Node 20');
  const got = await wire(conversation.conversationGetSpecificConversationRaw({ conversation: created.id }));
  checkConversation(got.json);
  assert.equal(got.value.messages.iterable.length, 3);

  const listed = await wire(conversation.conversationSpecificConversationMessagesRaw({ conversation: created.id }));
  const items = checkCollection(listed.json, 'ConversationMessages');
  items.forEach(checkMessage);
  assert.deepEqual(items.map((m) => m['role']), ['USER', 'ASSISTANT', 'USER']);
  assert.deepEqual(items.map((m) => m['fragment']['string']['raw']), failingTest.messages.map((m) => m.text));
  assert.deepEqual(Object.keys(listed.json['indices']), items.map((m) => m['id']));

  const lean = await wire(conversation.conversationSpecificConversationMessagesRaw({ conversation: created.id, transferables: false }));
  assert.ok(lean.json['iterable'].every((m: Json) => m['fragment'] === undefined), 'transferables=false leaves out fragments');

  const snapshot = await wire(conversations.conversationsSnapshotRaw({}));
  checkCollection(snapshot.json, 'Conversations').forEach(checkConversation);
  assert.ok(ids(snapshot.value).includes(created.id));

  const identifiers = await wire(conversations.conversationsIdentifiersSnapshotRaw());
  assert.ok(checkCollection(identifiers.json, 'FlattenedConversations').some((item) => item['id'] === created.id));
});

test('messages: create appends in order, snapshot one and all', async () => {
  const created = await createConversation();
  const added = await wire(
    messages.messagesCreateSpecificMessageRaw({
      seededConversationMessage: {
        role: 'ASSISTANT',
        fragment: { string: { raw: 'Glad it works. Keep the health route cheap.' } },
        conversation: { id: created.id },
      },
    }),
  );
  checkMessage(added.json);
  assert.equal(added.value.conversation.id, created.id);
  const one = await wire(message.messageSpecificMessageSnapshotRaw({ message: added.value.id }));
  checkMessage(one.json);
  assert.equal(one.value.fragment?.string?.raw, 'Glad it works. Keep the health route cheap.');
  const all = await wire(messages.messagesSnapshotRaw({}));
  checkCollection(all.json, 'ConversationMessages').forEach(checkMessage);
  assert.ok(ids(all.value).includes(added.value.id));
  const inConversation = await conversation.conversationSpecificConversationMessages({ conversation: created.id });
  assert.equal(inConversation.iterable.at(-1)?.id, added.value.id, 'the new message comes last');
  assert.equal(inConversation.iterable.length, deployment.messages.length + 1);
});

test('update changes name and favorited; scores increment counts', async () => {
  const created = await createConversation();
  const updated = await wire(
    conversation.conversationUpdateRaw({ conversation: { ...created, name: 'Renamed by hand', favorited: true } }),
  );
  checkConversation(updated.json);
  assert.equal(updated.value.name, 'Renamed by hand');
  assert.equal(updated.value.favorited, true);
  assert.ok(updated.value.updated.value.getTime() >= created.updated.value.getTime());

  await conversation.conversationScoresIncrement({ conversation: created.id, seededScoreIncrement: { conversation: { reuse: true, update: true } } });
  await conversation.conversationScoresIncrement({ conversation: created.id, seededScoreIncrement: { conversation: { reuse: true } } });
  const after = await conversation.conversationGetSpecificConversation({ conversation: created.id });
  assert.equal(after.score?.reuse, 2);
  assert.equal(after.score?.update, 1);
  assert.equal(after.score?.automatic, 2);
});

test('rename and summarize the three conversations offline: content-bearing titles and summaries', async () => {
  const expected: Record<string, { title: RegExp; summary: readonly RegExp[] }> = {
    [fixtures[0]!.name]: { title: /TypeError.*UserService\.createUser/, summary: [/UserService/, /jest\.(mock|unstable_mockModule)/, /fixed it/] },
    [fixtures[1]!.name]: { title: /Postgres schema.*multi-tenant/, summary: [/multi-tenant/, /tenant_id/, /row level security/] },
    [fixtures[2]!.name]: { title: /Deploy Next\.js app to AWS ECS/, summary: [/ECS/, /minimumHealthyPercent/, /no errors/] },
  };
  for (const fixture of fixtures) {
    const created = await createConversation(fixture);
    const renamed = await wire(conversation.conversationSpecificConversationRenameRaw({ conversation: created.id }));
    checkConversation(renamed.json);
    const title = renamed.value.name ?? '';
    assert.match(title, expected[fixture.name]!.title, fixture.name);
    assert.ok(title.length <= 80 && title.split(' ').length <= 10, title);
    assert.equal((await conversation.conversationGetSpecificConversation({ conversation: created.id })).name, title, 'the title is saved');

    const summarized = await wire(conversation.conversationSummarizeRaw({ conversation: created.id }));
    assert.equal(summarized.json['conversation']['id'], created.id);
    assert.equal(typeof summarized.json['annotation']['id'], 'string');
    const annotation = await wire(new AnnotationApi(t.sdk).annotationSpecificAnnotationSnapshotRaw({ annotation: summarized.value.annotation.id }));
    checkRecord(annotation.json, 'Annotation', ['type', 'text']);
    assert.equal(annotation.value.type, 'SUMMARY');
    assert.equal(annotation.value.conversation?.id, created.id);
    const text = annotation.value.text;
    assert.ok(text.length >= 120 && text.length <= 900, `${fixture.name}: ${text.length} chars`);
    assert.match(text, /^Problem: /);
    for (const term of expected[fixture.name]!.summary) assert.match(text, term, fixture.name);

    const after = await conversation.conversationGetSpecificConversation({ conversation: created.id });
    assert.deepEqual(ids(after.annotations), [summarized.value.annotation.id], 'the summary is associated with the conversation');
  }
});

test('summarize a chosen subset of messages', async () => {
  const created = await createConversation(deployment);
  const first = created.messages.iterable[0]!.id;
  const output = await conversation.conversationSummarize({
    conversation: created.id,
    conversationSummarizeInput: { messages: { iterable: [{ id: first }] } },
  });
  const annotation = await new AnnotationApi(t.sdk).annotationSpecificAnnotationSnapshot({ annotation: output.annotation.id });
  assert.match(annotation.text, /^Problem: How do I deploy/);
  assert.doesNotMatch(annotation.text, /Key points|minimumHealthyPercent/);
});

test('anchors, ranges and workstream summaries: create and snapshot', async () => {
  const anchors = new AnchorsApi(t.sdk);
  const anchor = await wire(anchors.anchorsCreateNewAnchorRaw({ seededAnchor: { type: 'FILE', fullpath: '/src/app.ts', name: 'app.ts' } }));
  checkRecord(anchor.json, 'Anchor', ['type', 'points']);
  assert.equal(anchor.json['points']['iterable'][0]['reference']['fullpath'], '/src/app.ts');
  assert.equal((await wire(new AnchorApi(t.sdk).anchorSpecificAnchorSnapshotRaw({ anchor: anchor.value.id }))).value.name, 'app.ts');
  assert.ok(ids(await anchors.anchorsSnapshot({})).includes(anchor.value.id));
  checkCollection((await wire(anchors.anchorsSnapshotRaw({}))).json, 'Anchors');

  const ranges = new RangesApi(t.sdk);
  const from = new Date('2026-01-01T00:00:00Z');
  const range = await wire(ranges.rangesCreateNewRangeRaw({ seededRange: { from: { value: from }, to: { value: new Date() }, between: true } }));
  checkRecord(range.json, 'Range', []);
  assert.equal(range.value.from?.value.getTime(), from.getTime());
  assert.equal((await new RangeApi(t.sdk).rangesSpecificRangeSnapshot({ range: range.value.id })).between, true);
  checkCollection((await wire(ranges.rangesSnapshotRaw())).json, 'Ranges');

  const summaries = new WorkstreamSummariesApi(t.sdk);
  const model = { id: 'model-1', version: '1', created: { value: new Date() }, name: 'test', cloud: false, type: 'BALANCED', usage: 'OCR', foundation: 'UNKNOWN', cpu: true } as never;
  const summary = await wire(summaries.workstreamSummariesCreateNewWorkstreamSummaryRaw({ seededWorkstreamSummary: { name: 'Monday', model } }));
  checkRecord(summary.json, 'WorkstreamSummary', ['name', 'model']);
  assert.equal((await new WorkstreamSummaryApi(t.sdk).workstreamSummariesSpecificWorkstreamSummarySnapshot({ workstreamSummary: summary.value.id })).name, 'Monday');
  checkCollection((await wire(summaries.workstreamSummariesSnapshotRaw({}))).json, 'WorkstreamSummaries');

  const annotations = await wire(new AnnotationsApi(t.sdk).annotationsSnapshotRaw({}));
  checkCollection(annotations.json, 'Annotations');
});

test('all twelve association operations link both sides and unlink; repeating is harmless', async () => {
  const created = await createConversation();
  const c = created.id;
  const assetId = await createAsset('export const health = (request: Request) => new Response("ok", { status: 200 });');
  const website = await new WebsitesApi(t.sdk).websitesCreateNewWebsite({ seededWebsite: { url: 'https://docs.aws.amazon.com/ecs', name: 'ECS docs' } });
  const anchor = await new AnchorsApi(t.sdk).anchorsCreateNewAnchor({ seededAnchor: { type: 'FILE', fullpath: '/infra/service.tf' } });
  const range = await new RangesApi(t.sdk).rangesCreateNewRange({ seededRange: { between: false } });
  const summary = await new WorkstreamSummariesApi(t.sdk).workstreamSummariesCreateNewWorkstreamSummary({
    seededWorkstreamSummary: { name: 'Deploy week', model: { id: 'm' } as never },
  });
  const other = await createConversation(failingTest);
  const groundingMessage = other.messages.iterable[0]!.id;

  // Associate each twice (harmless), then read both sides.
  for (let round = 0; round < 2; round++) {
    await conversation.conversationAssociateAsset({ conversation: c, asset: assetId });
    await conversation.conversationAssociateWebsite({ conversation: c, website: website.id });
    await conversation.conversationAssociateAnchor({ conversation: c, anchor: anchor.id });
    await conversation.conversationAssociateWorkstreamSummary({ conversation: c, workstreamSummary: summary.id });
    await conversation.conversationGroundingMessagesAssociateMessage({ conversation: c, message: groundingMessage });
    await conversation.conversationAssociateGroundingTemporalRangeWorkstream({ conversation: c, range: range.id });
  }
  const linked = await conversation.conversationGetSpecificConversation({ conversation: c });
  assert.deepEqual(ids(linked.assets), [assetId]);
  assert.deepEqual(ids(linked.websites), [website.id]);
  assert.deepEqual(ids(linked.anchors), [anchor.id]);
  assert.deepEqual(ids(linked.summaries), [summary.id]);
  assert.deepEqual(ids(linked.grounding?.messages), [groundingMessage]);
  assert.deepEqual(ids(linked.grounding?.temporal?.workstreams), [range.id]);

  // The other side of each link.
  const forAsset = await wire(new AssetApi(t.sdk).assetSpecificAssetConversationsRaw({ asset: assetId }));
  checkCollection(forAsset.json, 'Conversations').forEach(checkConversation);
  assert.deepEqual(ids(forAsset.value), [c]);
  assert.deepEqual(ids((await new AnchorApi(t.sdk).anchorSpecificAnchorSnapshot({ anchor: anchor.id })).conversations), [c]);
  assert.deepEqual(ids((await new RangeApi(t.sdk).rangesSpecificRangeSnapshot({ range: range.id })).conversations), [c]);
  assert.deepEqual(
    ids((await new WorkstreamSummaryApi(t.sdk).workstreamSummariesSpecificWorkstreamSummarySnapshot({ workstreamSummary: summary.id })).conversations),
    [c],
  );
  assert.ok(t.core.context.links.has({ kind: 'website', id: website.id }, { kind: 'conversation', id: c }));
  assert.ok(t.core.context.links.has({ kind: 'message', id: groundingMessage }, { kind: 'conversation', id: c }));

  // Disassociate each (twice: harmless), through the client's paths.
  for (let round = 0; round < 2; round++) {
    await conversation.conversationDisassociateAsset({ conversation: c, asset: assetId });
    await conversation.conversationDisassociateWebsite({ conversation: c, website: website.id });
    await conversation.conversationDisassociateAnchor({ conversation: c, anchor: anchor.id });
    await conversation.conversationDisassociateWorkstreamSummary({ conversation: c, workstreamSummary: summary.id });
    await conversation.conversationGroundingMessagesDisassociateMessage({ conversation: c, message: groundingMessage });
    await conversation.conversationDisassociateGroundingTemporalRangeWorkstream({ conversation: c, range: range.id });
  }
  const unlinked = await conversation.conversationGetSpecificConversation({ conversation: c });
  for (const list of [unlinked.assets, unlinked.websites, unlinked.anchors, unlinked.summaries, unlinked.grounding?.messages, unlinked.grounding?.temporal?.workstreams]) {
    assert.deepEqual(ids(list), []);
  }
  assert.deepEqual(ids(await new AssetApi(t.sdk).assetSpecificAssetConversations({ asset: assetId })), []);
  assert.deepEqual(ids((await new AnchorApi(t.sdk).anchorSpecificAnchorSnapshot({ anchor: anchor.id })).conversations), []);
  assert.deepEqual(ids((await new RangeApi(t.sdk).rangesSpecificRangeSnapshot({ range: range.id })).conversations), []);
  assert.equal(t.core.context.links.has({ kind: 'website', id: website.id }, { kind: 'conversation', id: c }), false);
});

test('interface.md paths …/anchors/delete/{anchor} and …/assets/delete/{asset} disassociate too', async () => {
  const c = (await createConversation()).id;
  const assetId = await createAsset('SELECT id, name FROM customers WHERE tenant_id = $1 ORDER BY name;');
  const anchor = await new AnchorsApi(t.sdk).anchorsCreateNewAnchor({ seededAnchor: { type: 'DIRECTORY', fullpath: '/infra' } });
  await conversation.conversationAssociateAsset({ conversation: c, asset: assetId });
  await conversation.conversationAssociateAnchor({ conversation: c, anchor: anchor.id });
  for (const path of [`/conversation/${c}/assets/delete/${assetId}`, `/conversation/${c}/anchors/delete/${anchor.id}`]) {
    const response = await fetch(t.url + path, { method: 'POST' });
    assert.ok(response.status === 204 || response.status === 200, path);
  }
  const after = await conversation.conversationGetSpecificConversation({ conversation: c });
  assert.deepEqual(ids(after.assets), []);
  assert.deepEqual(ids(after.anchors), []);
});

test('deleting a conversation removes its messages and its links from every other record', async () => {
  const created = await createConversation();
  const c = created.id;
  const assetId = await createAsset('aws ecs update-service --cluster prod --service web --force-new-deployment');
  const anchor = await new AnchorsApi(t.sdk).anchorsCreateNewAnchor({ seededAnchor: { type: 'FILE', fullpath: '/deploy.sh' } });
  const range = await new RangesApi(t.sdk).rangesCreateNewRange({ seededRange: {} });
  await conversation.conversationAssociateAsset({ conversation: c, asset: assetId });
  await conversation.conversationAssociateAnchor({ conversation: c, anchor: anchor.id });
  await conversation.conversationAssociateGroundingTemporalRangeWorkstream({ conversation: c, range: range.id });
  const summary = await conversation.conversationSummarize({ conversation: c });

  await conversations.conversationsDeleteSpecificConversation({ conversation: c });

  await assert.rejects(conversation.conversationGetSpecificConversation({ conversation: c }), (error: { response?: Response }) => error.response?.status === 404);
  for (const m of created.messages.iterable) {
    await assert.rejects(message.messageSpecificMessageSnapshot({ message: m.id }), (error: { response?: Response }) => error.response?.status === 404);
  }
  assert.deepEqual(ids(await new AssetApi(t.sdk).assetSpecificAssetConversations({ asset: assetId })), []);
  assert.deepEqual(ids((await new AnchorApi(t.sdk).anchorSpecificAnchorSnapshot({ anchor: anchor.id })).conversations), []);
  assert.deepEqual(ids((await new RangeApi(t.sdk).rangesSpecificRangeSnapshot({ range: range.id })).conversations), []);
  await assert.rejects(
    new AnnotationApi(t.sdk).annotationSpecificAnnotationSnapshot({ annotation: summary.annotation.id }),
    (error: { response?: Response }) => error.response?.status === 404,
    'the summary annotation, which belonged to nothing else, is gone',
  );
  assert.ok(!ids(await conversations.conversationsIdentifiersSnapshot()).includes(c));
  const dangling = t.core.context.database
    .prepare("SELECT COUNT(*) AS n FROM links WHERE (a_kind = 'conversation' AND a_id = ?) OR (b_kind = 'conversation' AND b_id = ?)")
    .get(c, c) as { n: number };
  assert.equal(dangling.n, 0);
});

test('the identifiers stream answers a plain GET with a snapshot', async () => {
  const created = await createConversation();
  const response = await fetch(`${t.url}/conversations/stream/identifiers`);
  assert.equal(response.status, 200);
  const json = (await response.json()) as Json;
  assert.ok(checkCollection(json, 'StreamedIdentifiers').some((item) => item['conversation']['id'] === created.id));
  await conversations.conversationsStreamIdentifiers();
});
