/**
 * Conversation stores for the reliability suite, built in seconds: one conversation made through
 * core (so every record has the shape the host writes), then multiplied or grown in SQL.
 * Creating 23k conversations or 288 MB of messages through the API would take minutes.
 */
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Satchel } from '../../src/core/satchel.ts';

/** A message text of `chars` characters: prose a model could be asked about. */
export function messageText(chars: number, marker: string): string {
  const line = 'The retry loop doubles its delay after each failure and gives up after five attempts. ';
  return `${marker} ${line.repeat(Math.ceil(chars / line.length))}`.slice(0, chars);
}

/**
 * `count` conversations of `messages` messages of `chars` characters each, in `dataDir`.
 * Returns the ids of the conversations, oldest first.
 */
export async function manyConversations(dataDir: string, count: number, messages: number, chars: number): Promise<string[]> {
  const core = Satchel.open({ dataDir });
  let template: string;
  try {
    template = core.conversations.create(
      {
        type: 'COPILOT',
        name: 'Conversation 0',
        messages: Array.from({ length: messages }, (_, i) => ({
          role: i % 2 === 0 ? ('USER' as const) : ('ASSISTANT' as const),
          fragment: { string: { raw: `message ${i}` } },
        })),
      },
      false,
    ).id;
  } finally {
    await core.close();
  }
  const db = new DatabaseSync(join(dataDir, 'satchel.db'));
  try {
    db.exec('BEGIN');
    // Conversation n (n ≥ 1) is the template with id `c-<n>`, updated n seconds after the template.
    const updatedAt = `strftime('%Y-%m-%dT%H:%M:%fZ', '2025-01-01', '+' || i || ' seconds')`;
    db.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO records (kind, id, created, updated, data, lookup)
       SELECT 'conversation', printf('c-%08d', i), r.created, ${updatedAt},
              json_set(r.data, '$.id', printf('c-%08d', i), '$.name', 'Conversation ' || i, '$.updated.value', ${updatedAt}), NULL
       FROM n, records r WHERE r.kind = 'conversation' AND r.id = ?`,
    ).run(count - 1, template);
    db.prepare(
      `UPDATE records SET updated = '2025-01-01T00:00:00.000Z', data = json_set(data, '$.updated.value', '2025-01-01T00:00:00.000Z')
       WHERE kind = 'conversation' AND id = ?`,
    ).run(template);
    db.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO conversation_messages (id, conversation, created, data)
       SELECT printf('m-%08d-', i) || m.id, printf('c-%08d', i), m.created,
              json_set(m.data, '$.id', printf('m-%08d-', i) || m.id, '$.conversation', printf('c-%08d', i))
       FROM n, conversation_messages m WHERE m.conversation = ?`,
    ).run(count - 1, template);
    db.prepare(`UPDATE conversation_messages SET data = json_set(data, '$.fragment.string.raw', ?)`).run(messageText(chars, 'TEXT'));
    rebuildHeads(db);
    db.exec('COMMIT');
    const ids = db.prepare(`SELECT id FROM records WHERE kind = 'conversation' ORDER BY rowid`).all() as Array<{ id: string }>;
    return ids.map((row) => row.id);
  } finally {
    db.close();
  }
}

/**
 * One conversation of `messages` messages of `chars` characters each (the first of each starting
 * with `BEGIN-<i>`), in `dataDir`. Returns its id and its messages' ids, oldest first.
 */
export async function largeConversation(dataDir: string, messages: number, chars: number): Promise<{ id: string; messages: string[] }> {
  const core = Satchel.open({ dataDir });
  let id: string;
  try {
    id = core.conversations.create({ type: 'COPILOT', name: 'A very long conversation' }, false).id;
    for (let i = 0; i < messages; i++) {
      core.conversations.createMessage(id, { role: i % 2 === 0 ? 'USER' : 'ASSISTANT', fragment: { string: { raw: `message ${i}` } } }, false);
    }
  } finally {
    await core.close();
  }
  const db = new DatabaseSync(join(dataDir, 'satchel.db'));
  try {
    const rows = db.prepare('SELECT id FROM conversation_messages WHERE conversation = ? ORDER BY created, rowid').all(id) as Array<{ id: string }>;
    const grow = db.prepare(`UPDATE conversation_messages SET data = json_set(data, '$.fragment.string.raw', ?) WHERE id = ?`);
    db.exec('BEGIN');
    const body = messageText(chars, '');
    rows.forEach((row, i) => grow.run(`BEGIN-${i}${body}`.slice(0, chars), row.id));
    rebuildHeads(db);
    db.exec('COMMIT');
    return { id, messages: rows.map((row) => row.id) };
  } finally {
    db.close();
  }
}

/** Message heads as the store keeps them (see conversations/schema.ts), for the messages grown in SQL. */
function rebuildHeads(db: DatabaseSync): void {
  const table = db.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'conversation_message_heads'").get();
  if (!table) return;
  db.exec(`
    DELETE FROM conversation_message_heads;
    INSERT INTO conversation_message_heads (id, conversation, created, size, chars, head)
      SELECT id, conversation, created, octet_length(data),
             coalesce(length(json_extract(data, '$.fragment.string.raw')), 0), json_remove(data, '$.fragment')
      FROM conversation_messages ORDER BY rowid;
  `);
}
