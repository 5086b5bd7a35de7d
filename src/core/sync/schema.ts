import type { Migration } from '../store/migrations.ts';

/**
 * Schema of the sync area (docs/sync.md). Its versions are 13, then 113, 213… (so areas never collide).
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
 * `sync_conflicts` links a conflict copy (this machine's version, kept when another machine's edit
 * of the same lines won) to the asset it is a copy of.
 */
export const syncMigrations: readonly Migration[] = [
  {
    version: 13,
    name: 'sync state, changed assets, per-asset bases and conflict copies',
    up(db) {
      const on = `(SELECT 1 FROM sync_state WHERE key = 'remote')`;
      // REPLACE gives the row a new seq: a row's seq says when its asset last changed.
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
];
