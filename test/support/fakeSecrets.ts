/**
 * A detector for the doors' tests: it finds planted values (exact strings, each with its label) in any
 * text, as the real detector would find a credential. It answers asynchronously, as a scan off the
 * event loop does, and counts its scans so a test can tell a door asked before it sent.
 */
import type { DoorSecrets, SecretTexts } from '../../src/core/secrets/doorSecrets.ts';
import type { SecretField, SecretFinding } from '../../src/core/secrets/findings.ts';

/** Credentials of the shapes issue 32 names, made up (none is live). */
export const PLANTED = {
  awsKeyId: 'AKIAQ3EGRBZ5XJ7OKL4P',
  awsSecret: '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',
  githubToken: 'ghp_4mZq8VtN2rXc7LwP0sJkYb3HdGf6TaE9uQ1i',
  slackToken: 'xoxb-284719365012-4827365091827-Qw8ErT5yUi0OpAs3DfGh6Jk',
  stripeKey: 'sk_live_51Hq8ZxK2mVnB4cR7tY0uW3sE9dF6gJ1hL5pA',
  postgresPassword: 'Zx9-qPlm-4vTr-Wk82',
} as const;

export const LABELS: Record<keyof typeof PLANTED, string> = {
  awsKeyId: 'AWS access key ID',
  awsSecret: 'AWS secret access key',
  githubToken: 'GitHub token',
  slackToken: 'Slack token',
  stripeKey: 'Stripe secret key',
  postgresPassword: 'Database password',
};

export class FakeSecrets implements DoorSecrets {
  scans = 0;
  private readonly values: ReadonlyArray<readonly [string, string]>;
  readonly withSecrets = new Set<string>();
  /** Values dismissed for an asset (Not a Secret). */
  readonly dismissed = new Map<string, Set<string>>();

  constructor(values: Record<string, string> = PLANTED, labels: Record<string, string> = LABELS) {
    this.values = Object.entries(values).map(([key, value]) => [value, labels[key] ?? 'secret'] as const);
  }

  findings(texts: SecretTexts, assetId?: string): SecretFinding[] {
    const found: SecretFinding[] = [];
    const fields: Array<[SecretField, string]> = [['code', texts.code], ['name', texts.name], ['description', texts.description ?? '']];
    for (const [field, text] of fields) {
      for (const [value, label] of this.values) {
        if (assetId !== undefined && this.dismissed.get(assetId)?.has(value)) continue;
        for (let at = text.indexOf(value); at >= 0; at = text.indexOf(value, at + value.length)) {
          const line = text.slice(0, at).split('\n').length;
          found.push({ ruleId: 'fake', category: 'SECRET_KEY', severity: 'HIGH', label, field, start: at, end: at + value.length, line });
        }
      }
    }
    return found;
  }

  async findingsIn(texts: SecretTexts, assetId?: string): Promise<readonly SecretFinding[]> {
    this.scans++;
    await new Promise((resolve) => setImmediate(resolve));
    return this.findings(texts, assetId);
  }

  syncsWithSecrets(assetId: string): boolean {
    return this.withSecrets.has(assetId);
  }
}

/** Which planted values a text holds (what a test asserts is empty). */
export function plantedIn(text: string, values: Record<string, string> = PLANTED): string[] {
  return Object.entries(values).flatMap(([key, value]) => (text.includes(value) ? [key] : []));
}
