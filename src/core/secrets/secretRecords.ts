/**
 * SQL of the secrets area's tables (schema.ts): findings per asset, which assets wait for a scan,
 * dismissed values, snippets that sync with their secrets, and the store's hashing key.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { Database } from '../store/database.ts';
import type { SecretCategory, SecretField, SecretFinding, SecretSeverity } from './findings.ts';
import type { SecretTexts } from './detector.ts';

/** The keyed hash of a value with the store's key (SecretRecords.hash). */
export function valueHash(key: Buffer, value: string): string {
  return createHmac('sha256', key).update(value).digest('hex');
}

/** The keyed hash of a snippet's texts with the store's key (SecretRecords.fingerprint). */
export function textsFingerprint(key: Buffer, texts: SecretTexts): string {
  const mac = createHmac('sha256', key);
  for (const text of [texts.code, texts.name ?? '', texts.description ?? '']) mac.update(`${text.length}:`).update(text);
  return mac.digest('hex');
}

/** A finding as stored: the finding and the keyed hash of its value. */
export interface StoredFinding extends SecretFinding {
  readonly valueHash: string;
  readonly created: string;
}

interface FindingRow {
  asset_id: string;
  field: SecretField;
  start: number;
  end: number;
  line: number;
  rule_id: string;
  category: SecretCategory;
  severity: SecretSeverity;
  label: string;
  value_hash: string;
  created: string;
}

const fromRow = (row: FindingRow): StoredFinding => ({
  ruleId: row.rule_id,
  category: row.category,
  severity: row.severity,
  label: row.label,
  field: row.field,
  start: row.start,
  end: row.end,
  line: row.line,
  valueHash: row.value_hash,
  created: row.created,
});

export class SecretRecords {
  private readonly database: Database;
  private key: Buffer | undefined;

  constructor(database: Database) {
    this.database = database;
  }

  /** The keyed hash of a value (or any text): what the store keeps instead of it. */
  hash(value: string): string {
    return valueHash(this.hashKey(), value);
  }

  /** The keyed hash of a snippet's texts: which state a scan read. */
  fingerprint(texts: SecretTexts): string {
    return textsFingerprint(this.hashKey(), texts);
  }

  /** The store's hashing key, for a thread that hashes what it read itself (scanWorker.ts). */
  hashingKey(): Buffer {
    return this.hashKey();
  }

  /** The findings of an asset, by position; `dismissed` false leaves out the values the user dismissed. */
  findings(assetId: string, dismissed = false): StoredFinding[] {
    const rows = this.database
      .prepare(
        `SELECT * FROM secret_findings f WHERE asset_id = ?
         ${dismissed ? '' : 'AND NOT EXISTS (SELECT 1 FROM secret_dismissed d WHERE d.value_hash = f.value_hash)'}
         ORDER BY CASE field WHEN 'code' THEN 0 WHEN 'name' THEN 1 ELSE 2 END, start`,
      )
      .all(assetId) as unknown as FindingRow[];
    return rows.map(fromRow);
  }

  /** The seq of the asset's pending note, or undefined when its findings are current. */
  pendingSeq(assetId: string): number | undefined {
    const row = this.database.prepare('SELECT seq FROM secret_pending WHERE asset_id = ?').get(assetId) as { seq: number } | undefined;
    return row?.seq;
  }

  /** Up to `limit` notes taken after the note `after`, oldest first (a note written again gets a later seq). */
  pendingAfter(after: number, limit: number): Array<{ assetId: string; seq: number }> {
    const rows = this.database.prepare('SELECT asset_id, seq FROM secret_pending WHERE seq > ? ORDER BY seq LIMIT ?').all(after, limit) as Array<{ asset_id: string; seq: number }>;
    return rows.map((row) => ({ assetId: row.asset_id, seq: row.seq }));
  }

  pendingCount(): number {
    return (this.database.prepare('SELECT count(*) AS n FROM secret_pending').get() as { n: number }).n;
  }

  /** The fingerprint of the texts the asset's findings were made from. */
  scannedFingerprint(assetId: string): string | undefined {
    const row = this.database.prepare('SELECT fingerprint FROM secret_scans WHERE asset_id = ?').get(assetId) as { fingerprint: string } | undefined;
    return row?.fingerprint;
  }

  /** The note `seq` is done: the findings are current unless a write took a newer note since. */
  settle(assetId: string, seq: number): void {
    this.database.prepare('DELETE FROM secret_pending WHERE asset_id = ? AND seq = ?').run(assetId, seq);
  }

  /** Replaces the asset's findings with those of the texts of `fingerprint`. */
  replace(assetId: string, findings: readonly Omit<StoredFinding, 'created'>[], fingerprint: string, now: string): void {
    const kept = new Map(this.findings(assetId, true).map((f) => [`${f.field}:${f.start}:${f.ruleId}:${f.valueHash}`, f.created]));
    this.database.prepare('DELETE FROM secret_findings WHERE asset_id = ?').run(assetId);
    const insert = this.database.prepare(
      `INSERT OR IGNORE INTO secret_findings (asset_id, field, start, end, line, rule_id, category, severity, label, value_hash, created)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const f of findings) {
      // A value found again where it was keeps the time it was first found.
      const created = kept.get(`${f.field}:${f.start}:${f.ruleId}:${f.valueHash}`) ?? now;
      insert.run(assetId, f.field, f.start, f.end, f.line, f.ruleId, f.category, f.severity, f.label, f.valueHash, created);
    }
    this.database.prepare('INSERT OR REPLACE INTO secret_scans (asset_id, fingerprint, scanned) VALUES (?, ?, ?)').run(assetId, fingerprint, now);
  }

  dismiss(valueHash: string, now: string): void {
    this.database.prepare('INSERT OR IGNORE INTO secret_dismissed (value_hash, dismissed) VALUES (?, ?)').run(valueHash, now);
  }

  isDismissed(valueHash: string): boolean {
    return this.database.prepare('SELECT 1 FROM secret_dismissed WHERE value_hash = ?').get(valueHash) !== undefined;
  }

  setIncluded(assetId: string, include: boolean, now: string): void {
    if (include) this.database.prepare('INSERT OR IGNORE INTO secret_sync_included (asset_id, since) VALUES (?, ?)').run(assetId, now);
    else this.database.prepare('DELETE FROM secret_sync_included WHERE asset_id = ?').run(assetId);
  }

  isIncluded(assetId: string): boolean {
    return this.database.prepare('SELECT 1 FROM secret_sync_included WHERE asset_id = ?').get(assetId) !== undefined;
  }

  /** Counts over live findings (dismissed values left out). */
  counts(): { flagged: number; findings: number; byCategory: Record<string, number>; syncingWithSecrets: number } {
    const live = `FROM secret_findings f WHERE NOT EXISTS (SELECT 1 FROM secret_dismissed d WHERE d.value_hash = f.value_hash)`;
    const totals = this.database.prepare(`SELECT count(DISTINCT asset_id) AS flagged, count(*) AS findings ${live}`).get() as { flagged: number; findings: number };
    const byCategory: Record<string, number> = {};
    for (const row of this.database.prepare(`SELECT category, count(*) AS n ${live} GROUP BY category ORDER BY category`).all() as Array<{ category: string; n: number }>) {
      byCategory[row.category] = row.n;
    }
    const syncing = this.database
      .prepare(`SELECT count(*) AS n FROM secret_sync_included i WHERE EXISTS (SELECT 1 ${live} AND f.asset_id = i.asset_id)`)
      .get() as { n: number };
    return { flagged: totals.flagged, findings: totals.findings, byCategory, syncingWithSecrets: syncing.n };
  }

  /**
   * When the store's findings were made by another detector than `version` (or it never said which):
   * every snippet is noted pending and its last scan forgotten, so the background scan reads the whole
   * library again (a snippet a door sends meanwhile is scanned first, as any pending one is), and the
   * version is kept. Answers whether it did. One transaction; a store already on `version` costs one read.
   */
  readAgainFor(version: string, transaction: <T>(fn: () => T) => T): boolean {
    const current = (): string | undefined => (this.database.prepare("SELECT value FROM secret_settings WHERE key = 'detector'").get() as { value: string } | undefined)?.value;
    if (current() === version) return false;
    return transaction(() => {
      if (current() === version) return false;
      this.database.prepare('DELETE FROM secret_scans').run();
      this.database.prepare('INSERT OR IGNORE INTO secret_pending (asset_id) SELECT id FROM assets ORDER BY rowid').run();
      this.database.prepare("INSERT OR REPLACE INTO secret_settings (key, value) VALUES ('detector', ?)").run(version);
      return true;
    });
  }

  /** The store's hashing key: random, made once, kept in the store (a hash made with it means nothing elsewhere). */
  private hashKey(): Buffer {
    if (this.key) return this.key;
    const read = (): string | undefined => (this.database.prepare("SELECT value FROM secret_settings WHERE key = 'hash_key'").get() as { value: string } | undefined)?.value;
    let value = read();
    if (value === undefined) {
      this.database.prepare("INSERT OR IGNORE INTO secret_settings (key, value) VALUES ('hash_key', ?)").run(randomBytes(32).toString('hex'));
      value = read()!;
    }
    this.key = Buffer.from(value, 'hex');
    return this.key;
  }
}
