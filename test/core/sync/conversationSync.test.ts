/** Conversations synced between two machines through a local bare repository: creates, messages added on both sides, deletes against edits, messages edited on both sides. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Satchel } from '../../../src/core/satchel.ts';
import { remoteFiles, withMachines } from './syncSupport.ts';
import { allConversations, conversationsOf, seed, variedLibrary } from './vaultSupport.ts';
import { TEST_WRITE } from '../../support/authors.ts';
import { noticeText } from '../../../src/core/sync/syncNotices.ts';

const SLOW = { timeout: 120_000 };

function converse(core: Satchel, name: string, texts: readonly string[]): string {
  const made = core.conversations.create(
    { type: 'COPILOT', name, messages: texts.map((raw, i) => ({ role: i % 2 === 0 ? 'USER' : 'ASSISTANT', fragment: { string: { raw } } })) } as never,
    false,
  );
  return made.id;
}

function say(core: Satchel, conversation: string, raw: string): void {
  core.conversations.createMessage(conversation, { role: 'USER', fragment: { string: { raw } } }, false);
}

function texts(core: Satchel, conversation: string): string[] | undefined {
  return conversationsOf(core).read(conversation)?.messages.map((message) => message.text);
}

test('a conversation made on A appears on B with every field (messages, links, favorite, times); one changed is all the next sync reads', SLOW, async () => {
  await withMachines(async ({ a, b, remote }) => {
    const ids = await variedLibrary(a);
    const site = a.assets.writes.createWebsite({ url: 'https://example.com/talk', name: 'Talk' }, TEST_WRITE);
    a.conversations.associate(ids[6]!, 'website', site.id);
    await a.sync.sync();
    assert.equal(remoteFiles(remote).filter((file) => file.startsWith('conversations/') && file.endsWith('/conversation.md')).length, 2);
    const joined = await b.sync.sync();
    assert.equal(joined.received, 8, 'six snippets and two conversations');
    const onA = allConversations(a);
    assert.equal(onA.size, 2);
    assert.deepEqual(allConversations(b), onA);
    const talk = onA.get(ids[6]!)!;
    assert.equal(talk.favorited, true);
    assert.deepEqual(talk.assets, [ids[0]]);
    assert.deepEqual(talk.websites, [{ url: 'https://example.com/talk', name: 'Talk' }]);
    // Both messages were made in one millisecond (their order is by id): compared as a set.
    assert.deepEqual(talk.messages.map((m) => [m.role, m.sentiment, m.text]).sort(), [
      ['ASSISTANT', 'LIKE', 'A constant, `x`.'],
      ['USER', undefined, 'What does it export?\n---\nnot front matter'],
    ]);
    const again = [await a.sync.sync(), await b.sync.sync()];
    assert.deepEqual(again.map((s) => [s.sent, s.received]), [[0, 0], [0, 0]]);
    // A change to one conversation is noted alone: the next sync reads that one.
    say(b, ids[6]!, 'And the other one?');
    assert.equal(b.sync.status().changed, 1);
    const one = await b.sync.sync();
    assert.deepEqual([one.sent, one.received], [1, 0]);
    await a.sync.sync();
    assert.deepEqual(texts(a, ids[6]!)?.at(-1), 'And the other one?');
  });
});

test('messages added on both sides are all kept; a rename on one side and a favorite on the other both stay', SLOW, async () => {
  await withMachines(async ({ a, b }) => {
    const id = converse(a, 'Shared talk', ['first', 'second']);
    await a.sync.sync();
    await b.sync.sync();
    say(a, id, 'from A');
    a.conversations.update({ id, name: 'Renamed on A' }, false);
    say(b, id, 'from B');
    say(b, id, 'from B again');
    b.conversations.update({ id, favorited: true }, false);
    await a.sync.sync();
    const onB = await b.sync.sync();
    assert.deepEqual(onB.notices, []);
    await a.sync.sync();
    for (const core of [a, b]) {
      const record = conversationsOf(core).read(id)!;
      assert.deepEqual([...record.messages.map((m) => m.text)].sort(), ['first', 'from A', 'from B', 'from B again', 'second']);
      assert.deepEqual([record.name, record.favorited], ['Renamed on A', true]);
    }
    assert.deepEqual(allConversations(a), allConversations(b));
  });
});

test('a conversation deleted on one side and changed on the other: the change wins on both, the sync says so; a plain delete is a trash entry by the sync there', SLOW, async () => {
  await withMachines(async ({ a, b }) => {
    const kept = converse(a, 'Kept', ['hello']);
    const gone = converse(a, 'Gone', ['bye']);
    await a.sync.sync();
    await b.sync.sync();
    a.conversations.delete(kept, TEST_WRITE);
    a.conversations.delete(gone, TEST_WRITE);
    say(b, kept, 'still talking');
    await a.sync.sync();
    const onB = await b.sync.sync();
    assert.deepEqual(onB.notices.map((n) => [n.id, n.kind, n.notice]), [[kept, 'conversation', 'local-edit-kept']]);
    assert.equal(onB.deletedHere, 1);
    assert.equal(b.trash.get(gone).deletedBy.kind, 'sync', 'B keeps it in its trash, deleted by the sync');
    const onA = await a.sync.sync();
    assert.equal(onA.received, 1);
    for (const core of [a, b]) assert.deepEqual(texts(core, kept), ['hello', 'still talking']);
    assert.throws(() => a.trash.get(kept), { name: 'NotFoundError' }, 'back out of A\'s trash');
    assert.equal(conversationsOf(a).read(gone), undefined);
    assert.deepEqual(allConversations(a), allConversations(b));
  });
});

test('one message changed differently on both sides: the remote text stays under its id, this machine\'s is saved as a message after it', SLOW, async () => {
  await withMachines(async ({ a, b }) => {
    const id = converse(a, 'Edited', ['question', 'answer']);
    await a.sync.sync();
    await b.sync.sync();
    // Messages change through an import of a vault (or a hand edit of the repository): the same path here.
    for (const [core, text] of [[a, 'answer, as A has it'], [b, 'answer, as B has it']] as const) {
      const records = conversationsOf(core);
      const record = records.read(id)!;
      records.put({ ...record, messages: record.messages.map((m) => (m.text === 'answer' ? { ...m, text, updated: new Date().toISOString() } : m)) });
    }
    await a.sync.sync();
    const onB = await b.sync.sync();
    assert.deepEqual(onB.notices.map((n) => [n.kind, n.notice, n.name]), [['conversation', 'conflict', 'Edited']]);
    await a.sync.sync();
    // The copy reads after the message it is a copy of (made 1 ms after it; the question and the
    // answer were made in one millisecond, so which of them comes first is their ids' order).
    for (const core of [a, b]) {
      const said = texts(core, id)!;
      assert.deepEqual([...said].sort(), ['answer, as A has it', 'answer, as B has it', 'question']);
      assert.ok(said.indexOf('answer, as B has it') > said.indexOf('answer, as A has it'), said.join(' | '));
    }
    const messages = conversationsOf(a).read(id)!.messages;
    assert.equal(new Set(messages.map((m) => m.id)).size, 3);
    assert.deepEqual(allConversations(a), allConversations(b));
    // Run again, nothing more happens: the copy is not made twice.
    const again = [await b.sync.sync(), await a.sync.sync()];
    assert.deepEqual(again.map((s) => [s.sent, s.received, s.notices.length]), [[0, 0, 0], [0, 0, 0]]);
  });
});

test('a conversation linked to a snippet made in the same sync links to it on the other machine', SLOW, async () => {
  await withMachines(async ({ a, b }) => {
    const asset = await a.assets.writes.create(seed('const x = 1;\n', { name: 'Linked' }), TEST_WRITE);
    const id = converse(a, 'About x', ['what is x?']);
    a.conversations.associate(id, 'asset', asset.id);
    await a.sync.sync();
    await b.sync.sync();
    assert.deepEqual(conversationsOf(b).read(id)?.assets, [asset.id]);
    assert.equal((await b.sync.sync()).sent, 0, 'nothing left to send back');
  });
});

test('a conversation renamed differently on both sides takes the remote name, and the summary names the one it had here', SLOW, async () => {
  await withMachines(async ({ a, b }) => {
    const id = converse(a, 'Planning', ['question', 'answer']);
    await a.sync.sync();
    await b.sync.sync();
    for (const [core, name] of [[a, 'Planning, named on A'], [b, 'Planning, named on B']] as const) {
      const records = conversationsOf(core);
      records.put({ ...records.read(id)!, name, updated: new Date().toISOString() });
    }
    await a.sync.sync();
    const onB = await b.sync.sync();
    assert.deepEqual(onB.notices.map((n) => [n.kind, n.notice, n.name, n.localName]), [['conversation', 'conflict', 'Planning, named on A', 'Planning, named on B']]);
    assert.match(noticeText(onB.notices[0]!).message, /You had named it "Planning, named on B" here\./);
    await a.sync.sync();
    for (const core of [a, b]) assert.equal(conversationsOf(core).read(id)!.name, 'Planning, named on A');
    // Sorted: the two were made in one millisecond, so their order is their ids'.
    assert.deepEqual([...texts(b, id)!].sort(), ['answer', 'question'], 'the messages are untouched');
  });
});
