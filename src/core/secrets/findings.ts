/**
 * What the secrets detector reports and how a door hides it. Shared by the detector (which finds values and
 * records them per asset) and by every door that leaves the machine (sync push, MCP and language-model tool
 * results, `@satchel`, exports, the copy connector), which replace each value with its placeholder.
 *
 * The categories and severities are the interface's own (`SensitiveCategoryEnum`, `SensitiveSeverityEnum` of
 * the Pieces client), so a finding is recorded in `Asset.sensitives` without translation.
 */

export const secretCategories = [
  'UNKNOWN', 'SECRET', 'API_KEY', 'CLIENT_ID', 'CLIENT_SECRET', 'SECRET_KEY', 'API_TOKEN', 'ACCESS_KEY',
  'ACCESS_TOKEN', 'URL', 'PUBLIC_KEY', 'PRIVATE_KEY', 'API_ID', 'WEB_HOOK_URL',
] as const;
export type SecretCategory = (typeof secretCategories)[number];

export const secretSeverities = ['UNKNOWN', 'LOW', 'MODERATE', 'HIGH'] as const;
export type SecretSeverity = (typeof secretSeverities)[number];

/** The text fields of a snippet a value can sit in; each is scanned and redacted on its own. */
export type SecretField = 'code' | 'name' | 'description';

export interface SecretFinding {
  /** The rule that found it (a secretlint rule id, or Satchel's own for what the preset lacks). */
  readonly ruleId: string;
  readonly category: SecretCategory;
  readonly severity: SecretSeverity;
  /** What it is, for people and for the placeholder: "AWS secret access key". Never the value. */
  readonly label: string;
  readonly field: SecretField;
  /** The value's span in that field's text, in UTF-16 code units, end exclusive. */
  readonly start: number;
  readonly end: number;
  /** 1-based line of `start`, for hovers and summaries. */
  readonly line: number;
}

/** The stable, named stand-in a door writes where the value was. The same finding always gives the same text. */
export function placeholderFor(finding: Pick<SecretFinding, 'label'>): string {
  return `«secret: ${finding.label}»`;
}

/**
 * `text` with every finding's span replaced by its placeholder. Findings may come in any order and may
 * overlap (two rules on one value); an overlap is hidden as one span under the first finding's label, so no
 * part of a value survives. Linear in the text plus the findings.
 */
export function redactText(text: string, findings: readonly Pick<SecretFinding, 'start' | 'end' | 'label'>[]): string {
  const spans = findings
    .filter((f) => f.end > f.start && f.start >= 0 && f.start < text.length)
    .map((f) => ({ start: f.start, end: Math.min(f.end, text.length), label: f.label }))
    .sort((a, b) => a.start - b.start || b.end - a.end);
  let out = '';
  let at = 0;
  for (const span of spans) {
    if (span.end <= at) continue;
    const from = Math.max(span.start, at);
    out += text.slice(at, from);
    if (from === span.start) out += placeholderFor(span);
    at = span.end;
  }
  return out + text.slice(at);
}

/** Reads what the detector recorded for an asset (its fields' findings, dismissed ones already left out). */
export interface SecretFindingsReader {
  findingsFor(assetId: string): readonly SecretFinding[];
}
