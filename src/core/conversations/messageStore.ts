/**
 * The messages of every conversation, read back in conversation order: by creation time, then by
 * insertion for messages created in the same millisecond.
 *
 * Each message is stored twice over: its whole document (`conversation_messages`), and its head
 * (`conversation_message_heads`: the document without its fragment, the document's size and its
 * text's length). Orders, counts, page bounds and listings without content read heads only, so
 * their cost never depends on how much text the messages hold.
 */
import type { Database } from '../store/database.ts';
import { evenly } from '../paged.ts';
import type { FragmentFormat, GroupedTimestamp, MessageRole, Score } from './records.ts';

/** The characters JavaScript's trim() removes, for SQLite's ltrim. */
const WHITE_SPACE = ' \t\n\v\f\r\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff';

export interface StoredMessage {
  readonly id: string;
  readonly conversation: string;
  readonly role: MessageRole;
  readonly created: GroupedTimestamp;
  readonly updated: GroupedTimestamp;
  readonly fragment?: FragmentFormat;
  readonly sentiment?: string;
  readonly score?: Score;
}

/** Where a message is and what reading it costs. */
export interface MessageHead {
  readonly id: string;
  /** Bytes of its stored document. */
  readonly size: number;
  /** Characters of its text. */
  readonly chars: number;
}

/** The opening of a message's text, read without reading the rest. */
export interface MessagePreview {
  readonly id: string;
  readonly role: MessageRole;
  readonly created: GroupedTimestamp;
  /** At most the characters asked for. */
  readonly text: string;
  /** Characters of the whole text. */
  readonly chars: number;
}

/** Heads read at a time when a conversation's messages are paged through. */
const HEAD_BATCH = 1024;

export class MessageStore {
  private readonly database: Database;

  constructor(database: Database) {
    this.database = database;
  }

  put(message: StoredMessage): void {
    const data = JSON.stringify(message);
    const { fragment, ...head } = message;
    this.database
      .prepare(
        `INSERT INTO conversation_messages (id, conversation, created, data) VALUES (?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET data = excluded.data`,
      )
      .run(message.id, message.conversation, message.created.value, data);
    this.database
      .prepare(
        // length() counts characters as SQLite's substr does (the migration measured stored texts the same way).
        `INSERT INTO conversation_message_heads (id, conversation, created, size, chars, head) VALUES (?, ?, ?, ?, coalesce(length(?), 0), ?)
         ON CONFLICT (id) DO UPDATE SET size = excluded.size, chars = excluded.chars, head = excluded.head`,
      )
      .run(message.id, message.conversation, message.created.value, Buffer.byteLength(data), fragment?.string?.raw ?? null, JSON.stringify(head));
  }

  /** The conversation a message belongs to, or undefined when there is no such message (its text is not read). */
  conversationOf(id: string): string | undefined {
    const row = this.database.prepare('SELECT conversation FROM conversation_message_heads WHERE id = ?').get(id) as { conversation: string } | undefined;
    return row?.conversation;
  }

  has(id: string): boolean {
    return this.database.prepare('SELECT 1 FROM conversation_message_heads WHERE id = ?').get(id) !== undefined;
  }

  /** The heads of a conversation's messages in conversation order, all at once (for a delete). */
  heads(conversation: string): MessageHead[] {
    return this.database
      .prepare('SELECT id, size, chars FROM conversation_message_heads WHERE conversation = ? ORDER BY created, rowid')
      .all(conversation) as unknown as MessageHead[];
  }

  /**
   * The heads of a conversation's messages in conversation order, or of every message in the order
   * they were written when `conversation` is undefined: `batch` at a time, each batch read when the
   * one before it was used, so what is held never depends on how many messages there are.
   */
  *headBatches(conversation: string | undefined, batch = HEAD_BATCH): Generator<MessageHead[]> {
    let after: { created: string; at: number } = { created: '', at: 0 };
    for (;;) {
      const rows = (
        conversation === undefined
          ? this.database
              .prepare('SELECT rowid AS at, created, id, size, chars FROM conversation_message_heads WHERE rowid > ? ORDER BY rowid LIMIT ?')
              .all(after.at, batch)
          : this.database
              .prepare(
                `SELECT rowid AS at, created, id, size, chars FROM conversation_message_heads
                 WHERE conversation = ? AND (created, rowid) > (?, ?) ORDER BY created, rowid LIMIT ?`,
              )
              .all(conversation, after.created, after.at, batch)
      ) as unknown as Array<MessageHead & { at: number; created: string }>;
      if (rows.length === 0) return;
      yield rows.map((row) => ({ id: row.id, size: row.size, chars: row.chars }));
      if (rows.length < batch) return;
      after = rows[rows.length - 1]!;
    }
  }

  /** How many messages a conversation has (from the index alone). */
  count(conversation: string): number {
    return (this.database.prepare('SELECT COUNT(*) AS n FROM conversation_message_heads WHERE conversation = ?').get(conversation) as { n: number }).n;
  }

  /** The heads of at most `limit` messages of a conversation from the `offset`-th on, in conversation order. */
  headsAt(conversation: string, offset: number, limit: number): MessageHead[] {
    return this.database
      .prepare('SELECT id, size, chars FROM conversation_message_heads WHERE conversation = ? ORDER BY created, rowid LIMIT ? OFFSET ?')
      .all(conversation, limit, offset) as unknown as MessageHead[];
  }

  /** The heads of the messages among `ids` that exist, in conversation order. */
  headsOf(ids: readonly string[]): MessageHead[] {
    return this.database
      .prepare(
        `SELECT h.id AS id, h.size AS size, h.chars AS chars FROM json_each(?) j
         CROSS JOIN conversation_message_heads h ON h.id = j.value ORDER BY h.created, h.rowid`,
      )
      .all(JSON.stringify([...new Set(ids)])) as unknown as MessageHead[];
  }

  /**
   * The heads of at most `max` messages of a conversation, spread evenly over it (its first and
   * last among them); of the others only their positions are read, from the index.
   */
  spread(conversation: string, max: number): MessageHead[] {
    const rowids = (
      this.database.prepare('SELECT rowid AS at FROM conversation_message_heads WHERE conversation = ? ORDER BY created, rowid').all(conversation) as Array<{
        at: number;
      }>
    ).map((row) => row.at);
    const picked = evenly(rowids, max);
    return this.database
      .prepare(
        `SELECT h.id AS id, h.size AS size, h.chars AS chars FROM json_each(?) j
         CROSS JOIN conversation_message_heads h ON h.rowid = j.value ORDER BY j.key`,
      )
      .all(JSON.stringify(picked)) as unknown as MessageHead[];
  }

  /** The heads of the messages of each of `conversations`, in conversation order, read with one query. */
  headsOfEach(conversations: readonly string[]): Map<string, MessageHead[]> {
    const out = new Map<string, MessageHead[]>(conversations.map((id) => [id, []]));
    const rows = this.database
      .prepare(
        `SELECT h.conversation AS conversation, h.id AS id, h.size AS size, h.chars AS chars FROM json_each(?) j
         CROSS JOIN conversation_message_heads h ON h.conversation = j.value ORDER BY h.created, h.rowid`,
      )
      .all(JSON.stringify(conversations)) as unknown as Array<MessageHead & { conversation: string }>;
    for (const row of rows) out.get(row.conversation)!.push({ id: row.id, size: row.size, chars: row.chars });
    return out;
  }

  /** How many messages each of `conversations` has (from the index alone). */
  countEach(conversations: readonly string[]): Map<string, number> {
    const rows = this.database
      .prepare(
        `SELECT j.value AS conversation, (SELECT COUNT(*) FROM conversation_message_heads h WHERE h.conversation = j.value) AS n
         FROM json_each(?) j`,
      )
      .all(JSON.stringify(conversations)) as Array<{ conversation: string; n: number }>;
    return new Map(rows.map((row) => [row.conversation, row.n]));
  }

  /** The heads of a conversation's messages, newest first, read as they are iterated. */
  newestFirst(conversation: string): Iterable<MessageHead & { readonly role: MessageRole }> {
    return this.database
      .prepare(
        `SELECT id, size, chars, json_extract(head, '$.role') AS role FROM conversation_message_heads
         WHERE conversation = ? ORDER BY created DESC, rowid DESC`,
      )
      .iterate(conversation) as unknown as Iterable<MessageHead & { readonly role: MessageRole }>;
  }

  /**
   * The messages among `ids` that exist, in the order of `ids`: whole, or without their fragment
   * (read from their heads, so no text is read at all).
   */
  read(ids: readonly string[], withText: boolean): StoredMessage[] {
    if (ids.length === 0) return [];
    const sql = withText
      ? 'SELECT m.data AS data FROM json_each(?) j CROSS JOIN conversation_messages m ON m.id = j.value ORDER BY j.key'
      : 'SELECT m.head AS data FROM json_each(?) j CROSS JOIN conversation_message_heads m ON m.id = j.value ORDER BY j.key';
    const rows = this.database.prepare(sql).all(JSON.stringify(ids)) as Array<{ data: string }>;
    return rows.map((row) => JSON.parse(row.data) as StoredMessage);
  }

  /**
   * The first `chars` characters of each message among `ids` that exists, in the order of `ids`.
   * `fromText` starts each at its first character that is not white space: a message that opens
   * with a long run of blanks still has text to title or summarize.
   */
  previews(ids: readonly string[], chars: number, fromText = false): MessagePreview[] {
    if (ids.length === 0) return [];
    const raw = "json_extract(m.data, '$.fragment.string.raw')";
    const rows = this.database
      .prepare(
        `SELECT h.id AS id, h.head AS head, h.chars AS chars,
                coalesce(substr(${fromText ? `ltrim(${raw}, ?)` : raw}, 1, ?), '') AS text
         FROM json_each(?) j CROSS JOIN conversation_message_heads h ON h.id = j.value
         CROSS JOIN conversation_messages m ON m.id = h.id ORDER BY j.key`,
      )
      .all(...(fromText ? [WHITE_SPACE] : []), chars, JSON.stringify(ids)) as Array<{ id: string; head: string; chars: number; text: string }>;
    return rows.map((row) => {
      const head = JSON.parse(row.head) as StoredMessage;
      return { id: row.id, role: head.role, created: head.created, text: row.text, chars: row.chars };
    });
  }

  /** The messages of each of `conversations`, in conversation order, read with one query. */
  listForEach(conversations: readonly string[], withText: boolean): Map<string, StoredMessage[]> {
    const out = new Map<string, StoredMessage[]>(conversations.map((id) => [id, []]));
    const sql = withText
      ? `SELECT h.conversation AS conversation, m.data AS data FROM json_each(?) j
         CROSS JOIN conversation_message_heads h ON h.conversation = j.value
         CROSS JOIN conversation_messages m ON m.id = h.id ORDER BY h.created, h.rowid`
      : `SELECT h.conversation AS conversation, h.head AS data FROM json_each(?) j
         CROSS JOIN conversation_message_heads h ON h.conversation = j.value ORDER BY h.created, h.rowid`;
    const rows = this.database.prepare(sql).all(JSON.stringify(conversations)) as Array<{ conversation: string; data: string }>;
    for (const row of rows) out.get(row.conversation)!.push(JSON.parse(row.data) as StoredMessage);
    return out;
  }

  /**
   * Copies a conversation's messages, documents and heads, into the trash's table in conversation
   * order (its delete's first step; the delete then removes them here). Returns how many, and their bytes.
   */
  keepInTrash(conversation: string): { count: number; bytes: number } {
    this.database
      .prepare(
        `INSERT INTO trash_messages (owner, id, created, data, size, chars, head)
         SELECT h.conversation, h.id, h.created, m.data, h.size, h.chars, h.head FROM conversation_message_heads h
         CROSS JOIN conversation_messages m ON m.id = h.id WHERE h.conversation = ? ORDER BY h.created, h.rowid`,
      )
      .run(conversation);
    const row = this.database.prepare('SELECT count(*) AS n, coalesce(sum(size), 0) AS b FROM trash_messages WHERE owner = ?').get(conversation) as { n: number; b: number };
    return { count: row.n, bytes: row.b };
  }

  /** Whether a message of a trashed conversation exists again outside the trash (its restore would collide). */
  trashedLive(conversation: string): boolean {
    return (
      this.database
        .prepare('SELECT 1 FROM trash_messages t CROSS JOIN conversation_message_heads h ON h.id = t.id WHERE t.owner = ? LIMIT 1')
        .get(conversation) !== undefined
    );
  }

  /** Puts a trashed conversation's messages back, in their order; returns their ids (the trash area removes its copies). */
  restoreFromTrash(conversation: string): string[] {
    const ids = (this.database.prepare('SELECT id FROM trash_messages WHERE owner = ? ORDER BY rowid').all(conversation) as Array<{ id: string }>).map((row) => row.id);
    this.database
      .prepare('INSERT INTO conversation_messages (id, conversation, created, data) SELECT id, owner, created, data FROM trash_messages WHERE owner = ? ORDER BY rowid')
      .run(conversation);
    this.database
      .prepare(
        `INSERT INTO conversation_message_heads (id, conversation, created, size, chars, head)
         SELECT id, owner, created, size, chars, head FROM trash_messages WHERE owner = ? ORDER BY rowid`,
      )
      .run(conversation);
    return ids;
  }

  idsFor(conversation: string): string[] {
    return this.heads(conversation).map((head) => head.id);
  }

  delete(id: string): boolean {
    this.database.prepare('DELETE FROM conversation_message_heads WHERE id = ?').run(id);
    return Number(this.database.prepare('DELETE FROM conversation_messages WHERE id = ?').run(id).changes) > 0;
  }
}
