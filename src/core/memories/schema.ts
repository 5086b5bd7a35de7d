import type { Migration } from '../store/migrations.ts';

/**
 * Schema of the memories area: what makes an asset a memory (a Markdown note an agent or the user
 * saved with its project, the files it cites and its links) rather than a code snippet. Its
 * versions are 16, then 116, 216… (so areas never collide).
 *
 * A memory is an asset like any other (search, history, trash, sync and the agent changes review
 * come with it); this table only marks it and keeps what it was written against. `files` holds,
 * per cited path, the content hash and the git commit it had when the memory was written, what a
 * recall compares with to say the memory may be stale. A row stays when its asset is deleted (no
 * cascade), as snippet facts do: an asset restored from the trash is still a memory.
 */
export const memoryMigrations: readonly Migration[] = [
  {
    version: 16,
    name: 'memories: the project, files and links of each memory asset',
    up(db) {
      db.exec(`
        CREATE TABLE memories (
          asset_id TEXT PRIMARY KEY,
          project TEXT,
          files TEXT NOT NULL DEFAULT '[]',
          links TEXT NOT NULL DEFAULT '[]',
          client TEXT
        ) WITHOUT ROWID;
      `);
    },
  },
];
