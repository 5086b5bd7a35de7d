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
];
