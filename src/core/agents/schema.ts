import type { Migration } from '../store/migrations.ts';

/**
 * Schema of the agent changes area. Its versions are 12, then 112, 212… (so areas never collide).
 *
 * `agent_changes` holds what agents did that the user has not reviewed yet, one row per change:
 *   - a **mark** (`proposed = 0`): an agent's write that counted (created, changed or deleted an
 *     asset), with the revisions before and after it, until the user accepts (the row goes) or
 *     reverts it (the previous revision comes back, then the row goes). Consecutive writes of one
 *     agent to one asset share a mark (`writes` counts them).
 *   - a **proposal** (`proposed = 1`): an agent's write made while agent writes wait for review;
 *     nothing of it is in the assets' tables. `base` is the revision it was proposed against
 *     (none for a create), `proposal` the write as JSON. Accepting applies it as the agent's
 *     write, conditional on `base`; rejecting deletes the row.
 *
 * `seq` orders changes (the list is newest first by it); `id` is the ordered id clients see.
 */
export const agentChangeMigrations: readonly Migration[] = [
  {
    version: 12,
    name: 'agent changes waiting for review',
    up(db) {
      db.exec(`
        CREATE TABLE agent_changes (
          seq INTEGER PRIMARY KEY,
          id TEXT NOT NULL UNIQUE,
          asset_id TEXT,
          kind TEXT NOT NULL CHECK (kind IN ('created', 'changed', 'deleted')),
          proposed INTEGER NOT NULL,
          author_kind TEXT NOT NULL,
          author_name TEXT NOT NULL,
          name TEXT NOT NULL,
          base TEXT,
          after TEXT,
          writes INTEGER NOT NULL DEFAULT 1,
          proposal TEXT,
          created INTEGER NOT NULL,
          updated INTEGER NOT NULL
        );
        CREATE INDEX agent_changes_of_asset ON agent_changes (asset_id) WHERE asset_id IS NOT NULL;
      `);
    },
  },
];
