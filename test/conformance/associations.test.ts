/**
 * Every association operation of interface.md 4.2 (asset) and 4.5 (conversation), through the
 * published client: after associating, each of the two records shows the other on its own
 * snapshot; after disassociating, neither does. Asset replies are also checked strictly on the
 * wire, since the client reads Asset.conversations as full Conversations.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  AnchorApi,
  AnchorsApi,
  AssetApi,
  AssetsApi,
  ConversationApi,
  ConversationMessageApi,
  ConversationsApi,
  RangeApi,
  RangesApi,
  TagApi,
  TagsApi,
  WebsiteApi,
  WebsitesApi,
  WorkstreamSummariesApi,
  WorkstreamSummaryApi,
  type Seed,
} from '@pieces.app/pieces-os-client';
import { startTestServer, type TestServer } from '../support/helpers.ts';
import { codeSeed } from '../support/assetFixtures.ts';
import { assertWire } from './assetsWireCheck.ts';
import { openFrames } from '../support/frames.ts';

let t: TestServer;
before(async () => {
  t = await startTestServer();
});
after(() => t.close());

function ids(list: { iterable?: ReadonlyArray<object> } | undefined): string[] {
  return (list?.iterable ?? []).map((item) => (item as { id: string }).id);
}

/** An association seen from one record: how to read that record's own list of partners. */
interface Side {
  readonly name: string;
  readonly read: () => Promise<string[]>;
}

interface Case {
  readonly operation: string;
  readonly associate: () => Promise<unknown>;
  readonly disassociate: () => Promise<unknown>;
  /** The record the operation is called on, listing the other. */
  readonly owner: Side & { readonly expect: string };
  /** The other record, listing the owner. */
  readonly partner: Side & { readonly expect: string };
}

async function check(c: Case): Promise<void> {
  for (let round = 0; round < 2; round++) await c.associate();
  assert.deepEqual(await c.owner.read(), [c.owner.expect], `${c.operation}: ${c.owner.name} lists the partner`);
  assert.deepEqual(await c.partner.read(), [c.partner.expect], `${c.operation}: ${c.partner.name} lists the owner`);
  for (let round = 0; round < 2; round++) await c.disassociate();
  assert.deepEqual(await c.owner.read(), [], `${c.operation}: ${c.owner.name} no longer lists the partner`);
  assert.deepEqual(await c.partner.read(), [], `${c.operation}: ${c.partner.name} no longer lists the owner`);
}

async function newAsset(text: string): Promise<string> {
  const asset = await new AssetsApi(t.sdk).assetsCreateNewAsset({ transferables: false, seed: codeSeed(text) as unknown as Seed });
  return asset.id;
}

/** The asset's own snapshot, strictly checked on the wire, then parsed by the client. */
async function assetSnapshot(id: string) {
  const response = await new AssetApi(t.sdk).assetSnapshotRaw({ asset: id });
  assertWire('Asset', await response.raw.clone().json());
  return response.value();
}

async function newSummary(name: string): Promise<string> {
  const summary = await new WorkstreamSummariesApi(t.sdk).workstreamSummariesCreateNewWorkstreamSummary({
    seededWorkstreamSummary: { name, model: { id: 'model-1', version: '1', created: { value: new Date() }, name: 'test', cloud: false, type: 'BALANCED', usage: 'OCR', foundation: 'UNKNOWN', cpu: true } },
  });
  return summary.id;
}

test('4.2: tag, website and workstream summary links show on the asset and on the other record', async () => {
  const assetApi = new AssetApi(t.sdk);
  const asset = await newAsset('export function retry<T>(task: () => Promise<T>, attempts = 3): Promise<T> { return task(); }');
  const tag = await new TagsApi(t.sdk).tagsCreateNewTag({ seededTag: { text: 'retries' } });
  const website = await new WebsitesApi(t.sdk).websitesCreateNewWebsite({ seededWebsite: { url: 'https://example.com/retry', name: 'Retry' } });
  const summary = await newSummary('Retry work');
  const onAsset = (key: 'tags' | 'websites' | 'summaries') => async () => ids((await assetSnapshot(asset))[key]);

  await check({
    operation: 'assetAssociateTag',
    associate: () => assetApi.assetAssociateTag({ asset, tag: tag.id }),
    disassociate: () => assetApi.assetDisassociateTag({ asset, tag: tag.id }),
    owner: { name: 'asset.tags', read: onAsset('tags'), expect: tag.id },
    partner: { name: 'tag.assets', read: async () => ids((await new TagApi(t.sdk).tagsSpecificTagSnapshot({ tag: tag.id })).assets), expect: asset },
  });
  await check({
    operation: 'assetAssociateWebsite',
    associate: () => assetApi.assetAssociateWebsite({ asset, website: website.id }),
    disassociate: () => assetApi.assetDisassociateWebsite({ asset, website: website.id }),
    owner: { name: 'asset.websites', read: onAsset('websites'), expect: website.id },
    partner: {
      name: 'website.assets',
      read: async () => ids((await new WebsiteApi(t.sdk).websitesSpecificWebsiteSnapshot({ website: website.id })).assets),
      expect: asset,
    },
  });
  await check({
    operation: 'assetAssociateWorkstreamSummary',
    associate: () => assetApi.assetAssociateWorkstreamSummary({ asset, workstreamSummary: summary }),
    disassociate: () => assetApi.assetDisassociateWorkstreamSummary({ asset, workstreamSummary: summary }),
    owner: { name: 'asset.summaries', read: onAsset('summaries'), expect: summary },
    partner: {
      name: 'workstream summary.assets',
      read: async () => ids((await new WorkstreamSummaryApi(t.sdk).workstreamSummariesSpecificWorkstreamSummarySnapshot({ workstreamSummary: summary })).assets),
      expect: asset,
    },
  });
});

test('4.5: every conversation association shows on the conversation and on the other record', async () => {
  const api = new ConversationApi(t.sdk);
  const created = await new ConversationsApi(t.sdk).conversationsCreateSpecificConversation({
    seededConversation: { type: 'COPILOT', name: 'Linking', messages: [{ role: 'USER', fragment: { string: { raw: 'How do I retry?' } } }] },
  });
  const conversation = created.id;
  const other = await new ConversationsApi(t.sdk).conversationsCreateSpecificConversation({
    seededConversation: { type: 'COPILOT', messages: [{ role: 'USER', fragment: { string: { raw: 'Grounding question' } } }] },
  });
  const message = other.messages.iterable[0]!.id;
  const asset = await newAsset('def backoff(attempt: int) -> float:\n    return min(30.0, 0.5 * 2 ** attempt)\n');
  const website = await new WebsitesApi(t.sdk).websitesCreateNewWebsite({ seededWebsite: { url: 'https://example.com/backoff', name: 'Backoff' } });
  const anchor = await new AnchorsApi(t.sdk).anchorsCreateNewAnchor({ seededAnchor: { type: 'FILE', fullpath: '/src/backoff.py' } });
  const range = await new RangesApi(t.sdk).rangesCreateNewRange({ seededRange: { between: false } });
  const summary = await newSummary('Backoff work');
  const read = async () => api.conversationGetSpecificConversation({ conversation });

  await check({
    operation: 'conversationAssociateAsset',
    associate: () => api.conversationAssociateAsset({ conversation, asset }),
    disassociate: () => api.conversationDisassociateAsset({ conversation, asset }),
    owner: { name: 'conversation.assets', read: async () => ids((await read()).assets), expect: asset },
    partner: {
      name: 'asset.conversations',
      read: async () => {
        const conversations = (await assetSnapshot(asset)).conversations;
        // Full conversations, as the client types them: the embedded one is readable whole.
        for (const item of conversations?.iterable ?? []) assert.deepEqual(ids(item.assets), [asset]);
        return ids(conversations);
      },
      expect: conversation,
    },
  });
  await check({
    operation: 'conversationAssociateWebsite',
    associate: () => api.conversationAssociateWebsite({ conversation, website: website.id }),
    disassociate: () => api.conversationDisassociateWebsite({ conversation, website: website.id }),
    owner: { name: 'conversation.websites', read: async () => ids((await read()).websites), expect: website.id },
    partner: {
      name: 'website.conversations',
      read: async () => ids((await new WebsiteApi(t.sdk).websitesSpecificWebsiteSnapshot({ website: website.id })).conversations),
      expect: conversation,
    },
  });
  await check({
    operation: 'conversationAssociateAnchor',
    associate: () => api.conversationAssociateAnchor({ conversation, anchor: anchor.id }),
    disassociate: () => api.conversationDisassociateAnchor({ conversation, anchor: anchor.id }),
    owner: { name: 'conversation.anchors', read: async () => ids((await read()).anchors), expect: anchor.id },
    partner: {
      name: 'anchor.conversations',
      read: async () => ids((await new AnchorApi(t.sdk).anchorSpecificAnchorSnapshot({ anchor: anchor.id })).conversations),
      expect: conversation,
    },
  });
  await check({
    operation: 'conversationAssociateWorkstreamSummary',
    associate: () => api.conversationAssociateWorkstreamSummary({ conversation, workstreamSummary: summary }),
    disassociate: () => api.conversationDisassociateWorkstreamSummary({ conversation, workstreamSummary: summary }),
    owner: { name: 'conversation.summaries', read: async () => ids((await read()).summaries), expect: summary },
    partner: {
      name: 'workstream summary.conversations',
      read: async () =>
        ids((await new WorkstreamSummaryApi(t.sdk).workstreamSummariesSpecificWorkstreamSummarySnapshot({ workstreamSummary: summary })).conversations),
      expect: conversation,
    },
  });
  await check({
    operation: 'conversationAssociateGroundingTemporalRangeWorkstream',
    associate: () => api.conversationAssociateGroundingTemporalRangeWorkstream({ conversation, range: range.id }),
    disassociate: () => api.conversationDisassociateGroundingTemporalRangeWorkstream({ conversation, range: range.id }),
    owner: { name: 'conversation.grounding.temporal.workstreams', read: async () => ids((await read()).grounding?.temporal?.workstreams), expect: range.id },
    partner: {
      name: 'range.conversations',
      read: async () => ids((await new RangeApi(t.sdk).rangesSpecificRangeSnapshot({ range: range.id })).conversations),
      expect: conversation,
    },
  });

  // A ConversationMessage has no key for the conversations it grounds (its `conversation` is its
  // owner): the link shows on the conversation, and the message's own snapshot stays its owner's.
  const messageApi = new ConversationMessageApi(t.sdk);
  await api.conversationGroundingMessagesAssociateMessage({ conversation, message });
  assert.deepEqual(ids((await read()).grounding?.messages), [message]);
  assert.equal((await messageApi.messageSpecificMessageSnapshot({ message })).conversation.id, other.id);
  assert.ok(t.core.context.links.has({ kind: 'message', id: message }, { kind: 'conversation', id: conversation }));
  await api.conversationGroundingMessagesDisassociateMessage({ conversation, message });
  assert.deepEqual(ids((await read()).grounding?.messages), []);
  assert.equal(t.core.context.links.has({ kind: 'message', id: message }, { kind: 'conversation', id: conversation }), false);
});

test('an asset linked to a conversation lists it in the assets snapshot too, strictly on the wire', async () => {
  const asset = await newAsset('SELECT tenant_id, count(*) FROM invoices GROUP BY tenant_id HAVING count(*) > 100;');
  const conversation = (await new ConversationsApi(t.sdk).conversationsCreateSpecificConversation({ seededConversation: { type: 'COPILOT' } })).id;
  await new ConversationApi(t.sdk).conversationAssociateAsset({ conversation, asset });
  const listed = await new AssetsApi(t.sdk).assetsSnapshotRaw({});
  const json = (await listed.raw.clone().json()) as { iterable: Array<{ id: string }> };
  assertWire('Assets', json);
  const mine = (await listed.value()).iterable.find((item) => item.id === asset);
  assert.deepEqual(ids(mine?.conversations), [conversation]);
});

test('a linked conversation that changes is sent again inside its asset on the assets stream', async () => {
  const asset = await newAsset('fn main() { println!("hello"); }');
  const conversation = (await new ConversationsApi(t.sdk).conversationsCreateSpecificConversation({ seededConversation: { type: 'COPILOT', name: 'Before' } })).id;
  await new ConversationApi(t.sdk).conversationAssociateAsset({ conversation, asset });
  const frames = await openFrames<{ iterable?: Array<{ id: string; conversations?: { iterable: Array<{ id: string; name?: string }> } }> }>(`${t.url}/assets/stream`);
  try {
    await frames.until((frame) => (frame.iterable ?? []).some((a) => a.id === asset));
    const from = frames.frames.length;
    const renamed = await fetch(`${t.url}/conversation/update`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: conversation, name: 'After' }),
    });
    assert.equal(renamed.status, 200);
    const frame = await frames.until((f) => (f.iterable ?? []).some((a) => a.id === asset && a.conversations?.iterable[0]?.name === 'After'), from);
    assert.ok(frame);
  } finally {
    frames.close();
  }
});
