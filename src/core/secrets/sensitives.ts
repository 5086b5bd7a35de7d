/**
 * Findings as the interface's `Sensitive`s (`Asset.sensitives`, @pieces.app/pieces-os-client): one per
 * distinct value of an asset, with a stable id, the category, severity, a name and description for
 * people, and the value's text and span. The text travels only on the loopback interface (the user's
 * own tools); every door that leaves the machine redacts instead (findings.ts).
 */
import { createHash } from 'node:crypto';
import type { FlattenedAsset, Sensitive, Sensitives } from '../piecesTypes.ts';
import type { StoredFinding } from './secretRecords.ts';
import type { SecretField } from './findings.ts';

const FIELD_NAMES: Record<SecretField, string> = { code: 'the code', name: 'the name', description: 'the description' };

/** The id of a value's Sensitive in an asset: stable for the same (asset, value), meaningless elsewhere (the value hash is keyed). */
export function sensitiveId(assetId: string, valueHash: string): string {
  const hex = createHash('sha256').update(`${assetId}\0${valueHash}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** "AWS secret access key on line 3 of the code". */
export function describeFinding(finding: Pick<StoredFinding, 'label' | 'line' | 'field'>): string {
  return `${finding.label} on line ${finding.line} of ${FIELD_NAMES[finding.field]}`;
}

/**
 * The asset's Sensitives: the first finding of each value (by field, then position) stands for it.
 * `texts` gives each field's text, from which the value is shown.
 */
export function sensitivesOf(asset: FlattenedAsset, findings: readonly StoredFinding[], texts: Readonly<Record<SecretField, string | undefined>>): Sensitives {
  const seen = new Set<string>();
  const iterable: Sensitive[] = [];
  for (const finding of findings) {
    if (seen.has(finding.valueHash)) continue;
    seen.add(finding.valueHash);
    const value = (texts[finding.field] ?? '').slice(finding.start, finding.end);
    const created = { value: finding.created };
    iterable.push({
      id: sensitiveId(asset.id, finding.valueHash),
      created,
      updated: created,
      asset,
      text: value,
      mechanism: 'AUTOMATIC',
      category: finding.category,
      severity: finding.severity,
      name: finding.label,
      description: describeFinding(finding),
      metadata: { match: { group: { text: value, start: finding.start, end: finding.end } } },
    });
  }
  return { iterable };
}
