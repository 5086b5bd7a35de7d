import type { Migration } from '../store/migrations.ts';

/**
 * Schema of the sync area (docs/sync.md). Its versions are 13, then 113, 213… (so areas never collide);
 * the notes of changed conversations are 14 (their own series: 14, 114…).
 *
 * A note is a delete and an insert (a new seq), never INSERT OR REPLACE: a trigger's conflict
 * clause gives way to the writing statement's, so under an upsert (the records table's) a second
 * note of one record failed the write with a UNIQUE error, and under INSERT OR IGNORE (links) it
 * kept the old seq, hiding a change made during a sync. Version 14 makes version 13's triggers again that way.
 *
 * `sync_state` holds the remote, its branch and the commit last synced (the base of the next
 * three-way merge), and the commits of a sync that pushed but had not yet written its result here
 * (`pending`), so a sync killed between its push and this write finishes on the next run.
 *
 * `sync_dirty` lists the assets changed since the last sync. Triggers fill it in the transaction of
 * every write, whichever connection makes it (the import process's too): a sync reads the changed
 * records from it (cost proportional to the changes, never a scan of the library), and a crash can
 * never lose a change between a write and its note. The triggers fire only while a remote is set.
 * Each change takes a new `seq` (AUTOINCREMENT never reuses one), so a sync knows which assets
 * changed after it read them without reading them again.
 *
 * `sync_base` is an asset's own base where it is not the last synced commit's: an asset changed on
 * this machine while a sync was under way keeps the state that sync read as its base, so the next
 * merge sees only what changed since.
 *
 * `sync_conflicts` links a conflict copy (the losing machine's version, kept when another machine's
 * edit of the same lines won) to the asset it is a copy of, with the machine that wrote it
 * (`machine`, version 113: each machine tells from it which side is its own).
 */
const ON = `(SELECT 1 FROM sync_state WHERE key = 'remote')`;

/** Notes a change of the record `id` (an SQL expression) of `kind`, with a new seq. */
function note(kind: 'asset' | 'conversation', id: string): string {
  return `DELETE FROM sync_dirty WHERE kind = '${kind}' AND id = ${id}; INSERT INTO sync_dirty (kind, id) VALUES ('${kind}', ${id});`;
}

/** Notes a change of every record of `kind` linked to the label NEW (a tag, website or annotation renamed). */
function noteLinked(kind: 'asset' | 'conversation'): string {
  const linked = `SELECT b_id FROM links WHERE a_kind = NEW.kind AND a_id = NEW.id AND b_kind = '${kind}'`;
  return `DELETE FROM sync_dirty WHERE kind = '${kind}' AND id IN (${linked}); INSERT INTO sync_dirty (kind, id) SELECT '${kind}', b_id FROM (${linked});`;
}

/** The triggers that note a changed asset (what its record holds: the asset, its labels, facts and conflict link). */
function assetTriggers(): string {
  const mark = (id: string): string => note('asset', id);
  return `
    CREATE TRIGGER sync_asset_inserted AFTER INSERT ON assets WHEN NEW.suggested = 0 AND ${ON} BEGIN ${mark('NEW.id')} END;
    CREATE TRIGGER sync_asset_updated AFTER UPDATE ON assets WHEN ${ON} BEGIN ${mark('NEW.id')} END;
    CREATE TRIGGER sync_asset_deleted AFTER DELETE ON assets WHEN ${ON} BEGIN ${mark('OLD.id')} END;
    CREATE TRIGGER sync_link_added AFTER INSERT ON links WHEN NEW.a_kind = 'asset' AND NEW.b_kind IN ('tag', 'website', 'annotation') AND ${ON}
      BEGIN ${mark('NEW.a_id')} END;
    CREATE TRIGGER sync_link_removed AFTER DELETE ON links WHEN OLD.a_kind = 'asset' AND OLD.b_kind IN ('tag', 'website', 'annotation') AND ${ON}
      BEGIN ${mark('OLD.a_id')} END;
    CREATE TRIGGER sync_label_changed AFTER UPDATE ON records WHEN NEW.kind IN ('annotation', 'tag', 'website') AND ${ON}
      BEGIN ${noteLinked('asset')} END;
    CREATE TRIGGER sync_facts_inserted AFTER INSERT ON snippet_facts WHEN ${ON} BEGIN ${mark('NEW.asset_id')} END;
    CREATE TRIGGER sync_facts_updated AFTER UPDATE ON snippet_facts WHEN ${ON} BEGIN ${mark('NEW.asset_id')} END;
    CREATE TRIGGER sync_facts_deleted AFTER DELETE ON snippet_facts WHEN ${ON} BEGIN ${mark('OLD.asset_id')} END;
    CREATE TRIGGER sync_conflict_added AFTER INSERT ON sync_conflicts WHEN ${ON} BEGIN ${mark('NEW.copy')} END;
    CREATE TRIGGER sync_conflict_removed AFTER DELETE ON sync_conflicts WHEN ${ON} BEGIN ${mark('OLD.copy')} END;
  `;
}

/** Version 13's triggers, which version 14 replaces. */
const VERSION_13_TRIGGERS = ['asset_inserted', 'asset_updated', 'asset_deleted', 'link_added', 'link_removed', 'label_changed', 'facts_inserted', 'facts_updated', 'facts_deleted', 'conflict_added', 'conflict_removed'];

export const syncMigrations: readonly Migration[] = [
  {
    version: 13,
    name: 'sync state, changed assets, per-asset bases and conflict copies',
    up(db) {
      const on = `(SELECT 1 FROM sync_state WHERE key = 'remote')`;
      // As released, kept literal so later changes to the shared trigger text cannot alter it
      // (version 14 drops these triggers by name and makes them again).
      const mark = (id: string): string => `INSERT OR REPLACE INTO sync_dirty (kind, id) VALUES ('asset', ${id});`;
      db.exec(`
        CREATE TABLE sync_state (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
        CREATE TABLE sync_dirty (seq INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, id TEXT NOT NULL, UNIQUE (kind, id));
        CREATE TABLE sync_base (kind TEXT NOT NULL, id TEXT NOT NULL, tree TEXT NOT NULL, PRIMARY KEY (kind, id)) WITHOUT ROWID;
        CREATE TABLE sync_conflicts (copy TEXT PRIMARY KEY, original TEXT NOT NULL, created TEXT NOT NULL) WITHOUT ROWID;
        CREATE INDEX sync_conflicts_original ON sync_conflicts (original);

        CREATE TRIGGER sync_asset_inserted AFTER INSERT ON assets WHEN NEW.suggested = 0 AND ${on} BEGIN ${mark('NEW.id')} END;
        CREATE TRIGGER sync_asset_updated AFTER UPDATE ON assets WHEN ${on} BEGIN ${mark('NEW.id')} END;
        CREATE TRIGGER sync_asset_deleted AFTER DELETE ON assets WHEN ${on} BEGIN ${mark('OLD.id')} END;
        CREATE TRIGGER sync_link_added AFTER INSERT ON links WHEN NEW.a_kind = 'asset' AND NEW.b_kind IN ('tag', 'website', 'annotation') AND ${on}
          BEGIN ${mark('NEW.a_id')} END;
        CREATE TRIGGER sync_link_removed AFTER DELETE ON links WHEN OLD.a_kind = 'asset' AND OLD.b_kind IN ('tag', 'website', 'annotation') AND ${on}
          BEGIN ${mark('OLD.a_id')} END;
        CREATE TRIGGER sync_label_changed AFTER UPDATE ON records WHEN NEW.kind IN ('annotation', 'tag', 'website') AND ${on}
          BEGIN INSERT OR REPLACE INTO sync_dirty (kind, id) SELECT 'asset', b_id FROM links WHERE a_kind = NEW.kind AND a_id = NEW.id AND b_kind = 'asset'; END;
        CREATE TRIGGER sync_facts_inserted AFTER INSERT ON snippet_facts WHEN ${on} BEGIN ${mark('NEW.asset_id')} END;
        CREATE TRIGGER sync_facts_updated AFTER UPDATE ON snippet_facts WHEN ${on} BEGIN ${mark('NEW.asset_id')} END;
        CREATE TRIGGER sync_facts_deleted AFTER DELETE ON snippet_facts WHEN ${on} BEGIN ${mark('OLD.asset_id')} END;
        CREATE TRIGGER sync_conflict_added AFTER INSERT ON sync_conflicts WHEN ${on} BEGIN ${mark('NEW.copy')} END;
        CREATE TRIGGER sync_conflict_removed AFTER DELETE ON sync_conflicts WHEN ${on} BEGIN ${mark('OLD.copy')} END;
      `);
    },
  },
  {
    version: 14,
    name: 'sync notes of changed conversations; every note a new seq',
    up(db) {
      // A conversation changes with its record (name, favorite, times), its messages, its links to
      // snippets and websites, and a linked website's name: each notes it, in the write's own transaction.
      const mark = (id: string): string => note('conversation', id);
      db.exec(`
        ${VERSION_13_TRIGGERS.map((name) => `DROP TRIGGER sync_${name};`).join('\n')}
        ${assetTriggers()}
        CREATE TRIGGER sync_conversation_inserted AFTER INSERT ON records WHEN NEW.kind = 'conversation' AND ${ON} BEGIN ${mark('NEW.id')} END;
        CREATE TRIGGER sync_conversation_updated AFTER UPDATE ON records WHEN NEW.kind = 'conversation' AND ${ON} BEGIN ${mark('NEW.id')} END;
        CREATE TRIGGER sync_conversation_deleted AFTER DELETE ON records WHEN OLD.kind = 'conversation' AND ${ON} BEGIN ${mark('OLD.id')} END;
        CREATE TRIGGER sync_message_inserted AFTER INSERT ON conversation_messages WHEN ${ON} BEGIN ${mark('NEW.conversation')} END;
        CREATE TRIGGER sync_message_updated AFTER UPDATE ON conversation_messages WHEN ${ON} BEGIN ${mark('NEW.conversation')} END;
        CREATE TRIGGER sync_message_deleted AFTER DELETE ON conversation_messages WHEN ${ON} BEGIN ${mark('OLD.conversation')} END;
        CREATE TRIGGER sync_conversation_link_added AFTER INSERT ON links WHEN NEW.a_kind = 'conversation' AND NEW.b_kind IN ('asset', 'website') AND ${ON}
          BEGIN ${mark('NEW.a_id')} END;
        CREATE TRIGGER sync_conversation_link_removed AFTER DELETE ON links WHEN OLD.a_kind = 'conversation' AND OLD.b_kind IN ('asset', 'website') AND ${ON}
          BEGIN ${mark('OLD.a_id')} END;
        CREATE TRIGGER sync_conversation_website_changed AFTER UPDATE ON records WHEN NEW.kind = 'website' AND ${ON} BEGIN ${noteLinked('conversation')} END;
      `);
    },
  },
  {
    version: 113,
    name: 'which machine wrote each conflict copy',
    up(db) {
      // NULL for a copy made before: taken as this machine's, as it was then (conflictCopies.ts).
      db.exec('ALTER TABLE sync_conflicts ADD COLUMN machine TEXT');
    },
  },
];
