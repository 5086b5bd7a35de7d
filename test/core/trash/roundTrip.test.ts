/**
 * The trash's round trips: an asset (content, tags, websites, description, snippet facts, a linked
 * conversation, activities, revisions) and a conversation (messages, asset links, a summary) go to
 * the trash whole, are gone from everything that reads the live store, and come back whole; a
 * restore after a tag was deleted makes it again by its text; a restore over a live id is refused;
 * two records trashed one after the other find each other again in either order.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withCore } from '../../support/helpers.ts';
import { codeSeed } from '../../support/assetFixtures.ts';
import { TEST_WRITE } from '../../support/authors.ts';
import { authorOf } from '../../../src/core/history/authors.ts';
import { ConflictError, NotFoundError } from '../../../src/core/errors.ts';
import type { Satchel } from '../../../src/core/satchel.ts';

const AGENT = { author: authorOf('mcp', 'Claude Code') };
const VSCODE = { author: authorOf('vscode', 'Satchel for VS Code') };

function conversationAssets(core: Satchel, id: string): string[] {
  return (core.conversations.get(id, false).assets?.iterable ?? []).map((asset) => asset.id);
}

function assetConversations(core: Satchel, id: string): string[] {
  return (core.assets.get(id, { transferables: false }).conversations?.iterable ?? []).map((conversation) => conversation.id);
}

function hits(core: Satchel, query: string): string[] {
  return core.assets.searches.search({ query }, { transferables: false, pseudo: false }).iterable.map((hit) => hit.identifier);
}

function count(core: Satchel, sql: string, ...args: string[]): number {
  return (core.context.database.prepare(sql).get(...args) as { n: number }).n;
}

async function richAsset(core: Satchel): Promise<{ id: string; conversation: string; website: string; activities: number }> {
  const asset = await core.assets.writes.create(codeSeed('export function sumPrices(items) {\n  return items.reduce((a, b) => a + b.price, 0);\n}\n', 'sumPrices', { tags: ['math', 'money'], ext: 'ts' }), VSCODE);
  const website = core.assets.writes.createWebsite({ url: 'https://developer.mozilla.org/reduce', name: 'MDN reduce', asset: asset.id }, TEST_WRITE);
  core.assets.writes.edit(asset.id, { description: 'Adds up the price of every item.' }, TEST_WRITE);
  core.snippets.setInfo(asset.id, { syntax: true, prefixes: ['sump'] }, TEST_WRITE);
  const conversation = core.conversations.create(
    { type: 'COPILOT', name: 'pricing', messages: [{ role: 'USER', fragment: { string: { raw: 'How do I sum prices?' } } }], assets: { iterable: [{ id: asset.id }] } },
    false,
    TEST_WRITE,
  ).id;
  const activities = core.context.links.partners({ kind: 'asset', id: asset.id }, 'activity').length;
  return { id: asset.id, conversation, website: website.id, activities };
}

test('an asset goes to the trash whole, is gone from every read, and comes back whole with a revision by its restorer', async () => {
  await withCore(async (core) => {
    const { id, conversation, website, activities } = await richAsset(core);
    assert.ok(activities >= 3, `${activities} activities`);
    const before = core.assets.get(id);
    const snippet = core.snippets.info(id);
    const revisions = core.history.list(id).revisions.length;
    const description = core.context.links.partners({ kind: 'asset', id }, 'annotation');
    assert.equal(description.length, 1);
    assert.deepEqual(hits(core, 'sumPrices'), [id]);

    core.assets.writes.delete(id, AGENT);

    assert.throws(() => core.assets.get(id), NotFoundError);
    assert.equal(core.assets.exists(id), false);
    assert.deepEqual(hits(core, 'sumPrices'), []);
    assert.deepEqual(core.assets.identifiers(), []);
    assert.deepEqual(conversationAssets(core, conversation), []);
    assert.deepEqual(core.assets.labels.website(website).assets?.iterable ?? [], []);
    assert.equal(core.context.records.has('annotation', description[0]!), false, 'its description went with it');
    assert.equal(count(core, "SELECT count(*) AS n FROM records WHERE kind = 'activity'"), 0, 'its activities went with it');
    assert.equal(count(core, 'SELECT count(*) AS n FROM links WHERE a_id = ? OR b_id = ?', id, id), 0);
    assert.equal(count(core, 'SELECT count(*) AS n FROM asset_labels'), 0);
    assert.equal(core.history.list(id).deleted, true);

    const listed = core.trash.list();
    assert.equal(listed.total, 1);
    const item = listed.items[0]!;
    assert.equal(item.id, id);
    assert.equal(item.kind, 'asset');
    assert.equal(item.name, 'sumPrices');
    assert.equal(item.language, 'ts');
    assert.match(item.preview, /^export function sumPrices/);
    assert.deepEqual(item.deletedBy, AGENT.author);
    assert.ok(item.size > 100);
    assert.equal(Date.parse(item.expires!) - Date.parse(item.deleted), 30 * 24 * 60 * 60 * 1000);

    const restored = core.trash.restore(id, VSCODE);
    assert.deepEqual({ id: restored.id, kind: restored.kind }, { id, kind: 'asset' });
    assert.deepEqual(core.assets.get(id), before, 'content, tags, websites, conversations and description are back as they were');
    assert.deepEqual(core.snippets.info(id), snippet);
    assert.equal(core.context.links.partners({ kind: 'asset', id }, 'activity').length, activities);
    assert.deepEqual(conversationAssets(core, conversation), [id]);
    assert.deepEqual(hits(core, 'sumPrices'), [id]);
    assert.deepEqual(core.assets.identifiers(), [id]);
    const history = core.history.list(id);
    assert.equal(history.deleted, false);
    assert.equal(history.revisions.length, revisions + 1);
    assert.equal(history.current, restored.revision);
    assert.deepEqual(history.revisions[0]!.changes, ['restored']);
    assert.deepEqual(history.revisions[0]!.author, VSCODE.author);
    assert.equal(core.history.get(id, history.current).content.text, before.formats.iterable[0]!.fragment!.string!.raw);
    assert.equal(core.history.current(id), restored.revision);
    assert.equal(core.trash.list().total, 0);
    assert.equal(count(core, 'SELECT count(*) AS n FROM trash_links') + count(core, 'SELECT count(*) AS n FROM trash_records'), 0);

    // And again: a restored asset goes to the trash and back like any other.
    core.assets.writes.delete(id, TEST_WRITE);
    core.trash.restore(id, TEST_WRITE);
    assert.deepEqual(core.assets.get(id), before);
  });
});

test('a conversation goes to the trash with its messages, links and summary, and comes back whole', async () => {
  await withCore(async (core) => {
    const asset = await core.assets.writes.create(codeSeed('const retries = 3;\n', 'retries'), TEST_WRITE);
    const website = core.assets.writes.createWebsite({ url: 'https://example.org/retry', name: 'retry' }, TEST_WRITE);
    const messages = ['first question', 'an answer', 'a follow-up'].map((raw, i) => ({ role: i % 2 === 0 ? ('USER' as const) : ('ASSISTANT' as const), fragment: { string: { raw } } }));
    const id = core.conversations.create(
      { type: 'COPILOT', name: 'retrying', messages, assets: { iterable: [{ id: asset.id }] }, websites: { iterable: [{ id: website.id }] } },
      true,
      TEST_WRITE,
    ).id;
    const summary = core.conversations.records.createAnnotation({ type: 'SUMMARY', text: 'They chose three retries.', conversation: id });
    const before = core.conversations.get(id, true);
    const messageIds = Object.keys(before.messages.indices ?? {});
    assert.equal(messageIds.length, 3);

    core.conversations.delete(id, AGENT);

    assert.throws(() => core.conversations.get(id, false), NotFoundError);
    for (const message of messageIds) assert.throws(() => core.conversations.message(message, true), NotFoundError);
    assert.equal(core.context.records.has('annotation', summary.id), false);
    assert.deepEqual(assetConversations(core, asset.id), []);
    assert.equal(core.conversations.identifiers().iterable.length, 0);
    const item = core.trash.get(id);
    assert.equal(item.kind, 'conversation');
    assert.equal(item.messages, 3);
    assert.equal(item.preview, 'first question');
    assert.deepEqual(item.deletedBy, AGENT.author);

    assert.deepEqual(core.trash.restore(id, VSCODE), { id, kind: 'conversation' });
    const after = core.conversations.get(id, true);
    assert.deepEqual({ ...after, updated: before.updated }, before, 'messages, assets, websites and the summary are back');
    assert.deepEqual(assetConversations(core, asset.id), [id]);
    assert.equal(core.conversations.records.annotation(summary.id).text, 'They chose three retries.');
    assert.equal(count(core, 'SELECT count(*) AS n FROM trash_messages'), 0);
  });
});

test('deleting one message is a plain delete: it does not go to the trash', async () => {
  await withCore(async (core) => {
    const conversation = core.conversations.create({ type: 'COPILOT', messages: [{ role: 'USER', fragment: { string: { raw: 'gone' } } }] }, true, TEST_WRITE).id;
    const message = Object.keys(core.conversations.get(conversation, false).messages.indices ?? {})[0]!;
    core.conversations.deleteMessage(message);
    assert.equal(core.trash.list().total, 0);
    assert.throws(() => core.conversations.message(message, true), NotFoundError);
  });
});

test('a tag deleted while its asset was in the trash is made again by its text; a live tag of the same text is reused', async () => {
  await withCore(async (core) => {
    const first = await core.assets.writes.create(codeSeed('const a = 1;\n', 'first', { tags: ['solo'] }), TEST_WRITE);
    const second = await core.assets.writes.create(codeSeed('const b = 2;\n', 'second', { tags: ['shared'] }), TEST_WRITE);
    const soloTag = first.tags!.iterable[0]!.id;
    const sharedTag = second.tags!.iterable[0]!.id;
    core.assets.writes.delete(first.id, TEST_WRITE);
    core.assets.writes.delete(second.id, TEST_WRITE);
    // Tags deleted meanwhile (as a sync or a client of the interface may); a new "SHARED" tag is made.
    for (const tag of [soloTag, sharedTag]) {
      core.context.records.delete('tag', tag);
      core.context.links.removeAll({ kind: 'tag', id: tag });
    }
    const replacement = core.assets.writes.createTag({ text: 'SHARED' }, TEST_WRITE);

    core.trash.restore(first.id, TEST_WRITE);
    core.trash.restore(second.id, TEST_WRITE);
    assert.deepEqual(core.assets.get(first.id).tags?.iterable.map((tag) => [tag.id, tag.text]), [[soloTag, 'solo']]);
    assert.deepEqual(core.assets.get(second.id).tags?.iterable.map((tag) => [tag.id, tag.text]), [[replacement.id, 'SHARED']]);
    assert.deepEqual(core.assets.searches.taggedIds(['solo'], 10), [first.id]);
    assert.deepEqual(hits(core, 'solo'), [first.id]);
  });
});

test('a restore over an id that is live again is refused with a conflict, and the entry stays', async () => {
  await withCore(async (core) => {
    const asset = await core.assets.writes.create(codeSeed('const twin = 1;\n', 'twin'), TEST_WRITE);
    core.assets.writes.delete(asset.id, TEST_WRITE);
    // The same id made again outside the trash (a sync, an import of a Pieces export).
    core.context.database
      .prepare("INSERT INTO assets (id, created, updated, name, language, data) SELECT id, '2025-01-01', '2025-01-01', name, 'ts', data FROM trash WHERE id = ?")
      .run(asset.id);
    assert.throws(() => core.trash.restore(asset.id, TEST_WRITE), ConflictError);
    assert.equal(core.trash.get(asset.id).id, asset.id);
    assert.throws(() => core.trash.restore('no-such-entry', TEST_WRITE), NotFoundError);
  });
});

test('an asset and its conversation trashed one after the other are linked again whichever is restored first', async () => {
  await withCore(async (core) => {
    for (const order of [['asset', 'conversation'], ['conversation', 'asset']] as const) {
      const asset = await core.assets.writes.create(codeSeed(`const order = "${order.join()}";\n`, order.join()), TEST_WRITE);
      const conversation = core.conversations.create({ type: 'COPILOT', assets: { iterable: [{ id: asset.id }] } }, false, TEST_WRITE).id;
      const ids = { asset: asset.id, conversation };
      core.assets.writes.delete(asset.id, TEST_WRITE);
      core.conversations.delete(conversation, TEST_WRITE);
      core.trash.restore(ids[order[0]], TEST_WRITE);
      core.trash.restore(ids[order[1]], TEST_WRITE);
      assert.deepEqual(conversationAssets(core, conversation), [asset.id], order.join());
      assert.deepEqual(assetConversations(core, asset.id), [conversation], order.join());
    }
  });
});
