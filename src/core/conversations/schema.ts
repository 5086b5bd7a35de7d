import type { Migration } from '../store/migrations.ts';

/** Schema of the conversations area. Its versions are 4, then 104, 204… (so areas never collide). */
export const conversationMigrations: readonly Migration[] = [
  {
    version: 4,
    name: 'conversation messages',
    up(db) {
      // Messages get a table of their own because they are read per conversation, in order.
      db.exec(`
        CREATE TABLE conversation_messages (
          id TEXT PRIMARY KEY,
          conversation TEXT NOT NULL,
          created TEXT NOT NULL,
          data TEXT NOT NULL
        );
        CREATE INDEX conversation_messages_order ON conversation_messages (conversation, created);
      `);
    },
  },
  {
    version: 104,
    name: 'conversation message heads',
    up(db) {
      // What a message is besides its text (role, times, sentiment), its stored size and its
      // text's length, apart from the document that holds the text: listings without content,
      // message counts and the bounds of a page never read the text (a 288 MB conversation took
      // 1.3 s to read whole for a question that needed its last 12k characters).
      db.exec(`
        CREATE TABLE conversation_message_heads (
          id TEXT PRIMARY KEY,
          conversation TEXT NOT NULL,
          created TEXT NOT NULL,
          size INTEGER NOT NULL,
          chars INTEGER NOT NULL,
          head TEXT NOT NULL
        );
        INSERT INTO conversation_message_heads (id, conversation, created, size, chars, head)
          SELECT id, conversation, created, octet_length(data),
                 coalesce(length(json_extract(data, '$.fragment.string.raw')), 0), json_remove(data, '$.fragment')
          FROM conversation_messages ORDER BY rowid;
        CREATE INDEX conversation_message_heads_order ON conversation_message_heads (conversation, created);
      `);
    },
  },
];
