/**
 * The findings a store recorded for an asset, read on whatever connection writes (the import
 * process's too): those of its texts as they are now, or undefined while it waits for a scan (its
 * texts changed since, so the spans may not fit them).
 */
import type { Database } from '../store/database.ts';
import { secretCategories, secretSeverities, type SecretField, type SecretFinding } from './findings.ts';

type FindingRow = {
  readonly field: string;
  readonly start: number;
  readonly end: number;
  readonly line: number;
  readonly rule_id: string;
  readonly category: string;
  readonly severity: string;
  readonly label: string;
};

const FIELDS: readonly SecretField[] = ['code', 'name', 'description'];

export function recordedFindings(database: Database, assetId: string): SecretFinding[] | undefined {
  if (database.prepare('SELECT 1 FROM secret_pending WHERE asset_id = ?').get(assetId) !== undefined) return undefined;
  const rows = database.prepare('SELECT field, start, "end", line, rule_id, category, severity, label FROM secret_findings WHERE asset_id = ?').all(assetId) as FindingRow[];
  return rows.map((row) => ({
    ruleId: row.rule_id,
    // Written by this store from the same tables; anything else reads as the least it can say.
    category: secretCategories.find((category) => category === row.category) ?? 'UNKNOWN',
    severity: secretSeverities.find((severity) => severity === row.severity) ?? 'UNKNOWN',
    label: row.label,
    field: FIELDS.find((field) => field === row.field) ?? 'code',
    start: row.start,
    end: row.end,
    line: row.line,
  }));
}
