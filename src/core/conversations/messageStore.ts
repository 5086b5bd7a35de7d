/**
 * The messages of every conversation, read back in conversation order: by creation time, then by
 * insertion for messages created in the same millisecond.
 */
import type { Database } from '../store/database.ts';
import type { FragmentFormat, GroupedTimestamp, MessageRole, Score } from './records.ts';

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

export class MessageStore {
  private readonly database: Database;

  constructor(database: Database) {
    this.database = database;
  }

  put(message: StoredMessage): void {
    this.database
      .prepare(
        `INSERT INTO conversation_messages (id, conversation, created, data) VALUES (?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET data = excluded.data`,
      )
      .run(message.id, message.conversation, message.created.value, JSON.stringify(message));
  }

  get(id: string): StoredMessage | undefined {
    const row = this.database.prepare('SELECT data FROM conversation_messages WHERE id = ?').get(id) as
      | { data: string }
      | undefined;
    return row ? (JSON.parse(row.data) as StoredMessage) : undefined;
  }

  has(id: string): boolean {
    return this.database.prepare('SELECT 1 FROM conversation_messages WHERE id = ?').get(id) !== undefined;
  }

  listFor(conversation: string): StoredMessage[] {
    const rows = this.database
      .prepare('SELECT data FROM conversation_messages WHERE conversation = ? ORDER BY created, rowid')
      .all(conversation) as Array<{ data: string }>;
    return rows.map((row) => JSON.parse(row.data) as StoredMessage);
  }

  /** The messages of each of `conversations`, in conversation order, read with one query. */
  listForEach(conversations: readonly string[]): Map<string, StoredMessage[]> {
    const out = new Map<string, StoredMessage[]>(conversations.map((id) => [id, []]));
    const rows = this.database
      .prepare(
        `SELECT m.conversation AS conversation, m.data AS data FROM json_each(?) j
         CROSS JOIN conversation_messages m ON m.conversation = j.value ORDER BY m.created, m.rowid`,
      )
      .all(JSON.stringify(conversations)) as Array<{ conversation: string; data: string }>;
    for (const row of rows) out.get(row.conversation)!.push(JSON.parse(row.data) as StoredMessage);
    return out;
  }

  idsFor(conversation: string): string[] {
    const rows = this.database
      .prepare('SELECT id FROM conversation_messages WHERE conversation = ? ORDER BY created, rowid')
      .all(conversation) as Array<{ id: string }>;
    return rows.map((row) => row.id);
  }

  listAll(): StoredMessage[] {
    const rows = this.database.prepare('SELECT data FROM conversation_messages ORDER BY rowid').all() as Array<{
      data: string;
    }>;
    return rows.map((row) => JSON.parse(row.data) as StoredMessage);
  }

  delete(id: string): boolean {
    return Number(this.database.prepare('DELETE FROM conversation_messages WHERE id = ?').run(id).changes) > 0;
  }
}
