/**
 * What reading a conversation costs is bounded by what the read answers (issue 26): message heads
 * keep everything but the text, a store written before them gets them when opened, pages of
 * messages hold a bounded number of stored bytes, a question reads only the newest messages its
 * prompt holds (and none without a model), and titles and summaries read a sample.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Satchel, allMigrations } from '../../../src/core/satchel.ts';
import { Database } from '../../../src/core/store/database.ts';
import { MessageStore } from '../../../src/core/conversations/messageStore.ts';
import { Copilot } from '../../../src/core/conversations/copilot.ts';
import { tempDir, withCore } from '../../support/helpers.ts';

const MiB = 1024 * 1024;

function conversationOf(core: Satchel, texts: readonly string[]): string {
  const id = core.conversations.create({ type: 'COPILOT', name: 'reads' }, false).id;
  texts.forEach((raw, i) => core.conversations.createMessage(id, { role: i % 2 === 0 ? 'USER' : 'ASSISTANT', fragment: { string: { raw } } }, false));
  return id;
}

/** Runs `fn` and answers the longest text JSON.parse was given meanwhile. */
function largestParsed(fn: () => void): number {
  const parse = JSON.parse;
  let largest = 0;
  JSON.parse = ((text: string, reviver?: Parameters<typeof parse>[1]) => {
    largest = Math.max(largest, text.length);
    return parse(text, reviver);
  }) as typeof JSON.parse;
  try {
    fn();
  } finally {
    JSON.parse = parse;
  }
  return largest;
}

/** Runs `fn` and answers the SELECT statements it prepared that read the table holding message text. */
function textReads(fn: () => unknown): string[] {
  const prepare = Database.prototype.prepare;
  const seen: string[] = [];
  Database.prototype.prepare = function (this: Database, sql: string) {
    if (/^\s*(SELECT|WITH)\b/i.test(sql) && /\bconversation_messages\b/.test(sql)) seen.push(sql);
    return prepare.call(this, sql);
  };
  try {
    fn();
  } finally {
    Database.prototype.prepare = prepare;
  }
  return seen;
}

test('a store written before message heads gets them when opened: lists, counts and previews agree with the messages', async () => {
  const dataDir = tempDir();
  const before = Database.open({ dataDir, migrations: allMigrations.filter((migration) => migration.version !== 104) });
  before.close();
  const db = new DatabaseSync(join(dataDir, 'satchel.db'));
  const stamp = (value: string) => ({ value });
  db.prepare("INSERT INTO records (kind, id, created, updated, data) VALUES ('conversation', 'c', 'now', 'now', ?)").run(
    JSON.stringify({ id: 'c', type: 'COPILOT', created: stamp('2025-01-01T00:00:00.000Z'), updated: stamp('2025-01-01T00:00:00.000Z'), score: { manual: 0, automatic: 0 } }),
  );
  const insert = db.prepare('INSERT INTO conversation_messages (id, conversation, created, data) VALUES (?, ?, ?, ?)');
  for (const [i, raw] of ['first question', 'é'.repeat(5_000), 'last'].entries()) {
    const created = `2025-01-01T00:00:0${i}.000Z`;
    insert.run(`m${i}`, 'c', created, JSON.stringify({ id: `m${i}`, conversation: 'c', role: i === 1 ? 'ASSISTANT' : 'USER', created: stamp(created), updated: stamp(created), fragment: { string: { raw } } }));
  }
  db.close();

  const core = Satchel.open({ dataDir });
  try {
    const listed = core.conversations.reads.messagesOf('c', false).collect().iterable;
    assert.deepEqual(listed.map((message) => [message.id, message.role, message.fragment]), [
      ['m0', 'USER', undefined],
      ['m1', 'ASSISTANT', undefined],
      ['m2', 'USER', undefined],
    ]);
    const page = core.conversations.reads.messagePage('c', 0, 10, 100);
    assert.deepEqual(page.messages.map((message) => [message.text.length, message.chars]), [
      [14, 14],
      [100, 5_000],
      [4, 4],
    ]);
    assert.equal(core.conversations.reads.recent(5)[0]?.messages, 3);
    assert.equal(core.conversations.get('c', true).messages.iterable[1]?.reference?.fragment?.string?.raw, 'é'.repeat(5_000));
  } finally {
    await core.close();
  }
});

test('messages without transferables are read from their heads alone; with them, a page holds at most 4 MB of stored messages', async () => {
  await withCore(async (core) => {
    const id = conversationOf(core, Array.from({ length: 12 }, (_, i) => `${i} ${'x'.repeat(MiB)}`));
    let pages: number[] = [];
    const largest = largestParsed(() => {
      assert.deepEqual(textReads(() => (pages = [...core.conversations.reads.streamed(id, false).messages.pages()].map((page) => page.length))), []);
    });
    assert.deepEqual(pages, [12], 'without text, one page');
    assert.ok(largest < 4096, `a ${largest}-character document was parsed without transferables`);

    const withText = [...core.conversations.reads.messagesOf(id, true).pages()];
    assert.equal(withText.flat().length, 12);
    for (const page of withText) {
      const bytes = page.reduce((sum, message) => sum + JSON.stringify(message).length, 0);
      assert.ok(page.length === 1 || bytes <= 4 * MiB + 4096, `a page of ${page.length} messages holds ${bytes} bytes`);
    }
    assert.ok(withText.length >= 3, `${withText.length} pages`);
  });
});

test('a question reads only the newest messages its prompt can hold, and no message at all without a model', async () => {
  await withCore(async (core) => {
    const id = conversationOf(core, [...Array.from({ length: 10 }, (_, i) => `old ${i} ${'y'.repeat(200_000)}`), 'recent question', 'recent answer']);
    const prompts: string[] = [];
    const copilot = new Copilot(core.conversations, () => ({ generate: async (prompt: string) => (prompts.push(prompt), 'ok') }), () => undefined, { contextChars: 12_000 });
    let asked: Promise<unknown> = Promise.resolve();
    const largest = largestParsed(() => {
      asked = copilot.ask({ query: 'and now?', conversation: id });
    });
    await asked;
    assert.ok(largest < 4096, `a ${largest}-character document was parsed to ask`);
    assert.match(prompts[0]!, /user: recent question\nassistant: recent answer\n\nuser: and now\?/);
    assert.doesNotMatch(prompts[0]!, /old \d/);

    const withoutModel = new Copilot(core.conversations, () => undefined, () => undefined);
    assert.deepEqual(textReads(() => void withoutModel.ask({ query: 'anyone?', conversation: id })), []);
  });
});

test('a title and a summary read an even sample of message openings, at most 8 MB of stored messages', async () => {
  await withCore(async (core) => {
    const id = conversationOf(core, Array.from({ length: 40 }, (_, i) => `Message ${i} asks how to parse rows. ${'z'.repeat(MiB)}`));
    const previews = MessageStore.prototype.previews;
    const asked: string[][] = [];
    MessageStore.prototype.previews = function (this: MessageStore, ids, chars, fromText) {
      asked.push([...ids]);
      return previews.call(this, ids, chars, fromText);
    };
    try {
      await core.conversations.rename(id, false);
      await core.conversations.summarize(id, undefined);
    } finally {
      MessageStore.prototype.previews = previews;
    }
    const all = core.conversations.reads.messagesOf(id, false).collect().iterable.map((message) => message.id);
    assert.equal(asked.length, 2);
    for (const ids of asked) {
      assert.ok(ids.length >= 2 && ids.length <= 8, `${ids.length} messages read`);
      assert.equal(ids[0], all[0], 'the first message is read');
      assert.equal(ids.at(-1), all.at(-1), 'the last message is read');
    }
  });
});

test('a message that opens with a long run of white space is still summarized and titled from its text', async () => {
  await withCore(async (core) => {
    const blanks = ' \t\n\u3000\u00a0'.repeat(60_000);
    const id = conversationOf(core, [`${blanks}How do I parse CSV rows in Python?`, `${blanks}Use the csv module's reader.`]);
    const summary = await core.conversations.summarize(id, undefined);
    assert.ok(summary.annotation.id);
    const renamed = await core.conversations.rename(id, false);
    assert.match(renamed.name ?? '', /\S/);
    // A conversation with nothing but blanks has nothing to summarize: a clear invalid-input error.
    const blank = conversationOf(core, [blanks]);
    await assert.rejects(core.conversations.summarize(blank, undefined), /no message text to summarize/);
  });
});
