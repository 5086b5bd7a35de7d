import type { Migration } from '../store/migrations.ts';

/**
 * Schema of the secrets area (docs/secrets.md). Its versions are 15, then 115, 215… (areas never collide).
 *
 * `secret_findings` holds what the detector found in each asset's fields: the rule, category,
 * severity, label, field, span and line, and a keyed hash of the value (`value_hash`, never the
 * value: it is in the asset). `secret_scans` says which state of an asset was scanned (a keyed hash
 * of its texts), so a rescan of unchanged texts is skipped.
 *
 * `secret_pending` lists the assets whose stored findings may not be current. Triggers fill it in
 * the transaction of every write of an asset's row or of its description, whichever connection
 * makes it (the import process's, sync's, a restore's): no door can write a value the detector
 * does not hear of, and a crash never loses one. Each note takes a new `seq`, so a scan records its
 * findings only if no write came after the state it read. Version 15 notes every existing asset:
 * that is the one-off scan of a library after the upgrade, resumed wherever it stopped.
 *
 * `secret_dismissed` holds the keyed hashes of values the user said are not secrets; every door
 * honours them. `secret_sync_included` lists the snippets that sync with their secrets.
 * `secret_settings` holds the store's hashing key (random, made once, never leaves the store).
 */
export const secretMigrations: readonly Migration[] = [
  {
    version: 15,
    name: 'secret findings, pending scans, dismissed values and snippets that sync with their secrets',
    up(db) {
      const note = (id: string): string => `DELETE FROM secret_pending WHERE asset_id = ${id}; INSERT INTO secret_pending (asset_id) VALUES (${id});`;
      const describedAssets = `SELECT b_id FROM links WHERE a_kind = 'annotation' AND a_id = NEW.id AND b_kind = 'asset'
        UNION SELECT a_id FROM links WHERE b_kind = 'annotation' AND b_id = NEW.id AND a_kind = 'asset'`;
      db.exec(`
        CREATE TABLE secret_findings (
          asset_id TEXT NOT NULL, field TEXT NOT NULL, start INTEGER NOT NULL, end INTEGER NOT NULL, line INTEGER NOT NULL,
          rule_id TEXT NOT NULL, category TEXT NOT NULL, severity TEXT NOT NULL, label TEXT NOT NULL,
          value_hash TEXT NOT NULL, created TEXT NOT NULL,
          PRIMARY KEY (asset_id, field, start, rule_id)
        ) WITHOUT ROWID;
        CREATE INDEX secret_findings_value ON secret_findings (value_hash);
        CREATE TABLE secret_scans (asset_id TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, scanned TEXT NOT NULL) WITHOUT ROWID;
        CREATE TABLE secret_pending (seq INTEGER PRIMARY KEY AUTOINCREMENT, asset_id TEXT NOT NULL UNIQUE);
        CREATE TABLE secret_dismissed (value_hash TEXT PRIMARY KEY, dismissed TEXT NOT NULL) WITHOUT ROWID;
        CREATE TABLE secret_sync_included (asset_id TEXT PRIMARY KEY, since TEXT NOT NULL) WITHOUT ROWID;
        CREATE TABLE secret_settings (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;

        CREATE TRIGGER secret_asset_inserted AFTER INSERT ON assets BEGIN ${note('NEW.id')} END;
        CREATE TRIGGER secret_asset_updated AFTER UPDATE ON assets BEGIN ${note('NEW.id')} END;
        CREATE TRIGGER secret_asset_deleted AFTER DELETE ON assets BEGIN
          DELETE FROM secret_pending WHERE asset_id = OLD.id;
          DELETE FROM secret_findings WHERE asset_id = OLD.id;
          DELETE FROM secret_scans WHERE asset_id = OLD.id;
        END;
        CREATE TRIGGER secret_description_changed AFTER UPDATE ON records WHEN NEW.kind = 'annotation' BEGIN
          DELETE FROM secret_pending WHERE asset_id IN (${describedAssets});
          INSERT INTO secret_pending (asset_id) ${describedAssets};
        END;
        CREATE TRIGGER secret_description_linked AFTER INSERT ON links WHEN NEW.a_kind = 'asset' AND NEW.b_kind = 'annotation' BEGIN ${note('NEW.a_id')} END;
        CREATE TRIGGER secret_description_unlinked AFTER DELETE ON links WHEN OLD.a_kind = 'asset' AND OLD.b_kind = 'annotation' BEGIN ${note('OLD.a_id')} END;

        INSERT INTO secret_pending (asset_id) SELECT id FROM assets ORDER BY rowid;
      `);
    },
  },
];
