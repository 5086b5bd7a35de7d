/**
 * The doors' detector over the store's findings (secretsService.ts): a door asks for the findings of the
 * exact texts it is about to send. When those are the snippet's texts as stored, the answer is the
 * service's `findingsNow` (recorded, or scanned first when the snippet is pending), checked again against
 * the texts once it comes (a write in between sends the door to a scan of its own texts); any other text
 * (an opening, a copy, a message) is scanned as it is, dismissed values left out either way.
 */
import type { DoorSecrets, SecretTexts } from './doorSecrets.ts';
import type { SecretFinding } from './findings.ts';
import type { SecretsService } from './secretsService.ts';

/** What the doors need of the secrets area. */
export type StoredSecrets = Pick<SecretsService, 'findingsNow' | 'findingsFor' | 'isCurrent' | 'scanTexts' | 'textsOf' | 'syncsWithSecrets'>;

export class StoredDoorSecrets implements DoorSecrets {
  private readonly service: StoredSecrets;

  constructor(service: StoredSecrets) {
    this.service = service;
  }

  async findingsIn(texts: SecretTexts, assetId?: string): Promise<readonly SecretFinding[]> {
    if (assetId !== undefined && this.stored(texts, assetId)) {
      const findings = await this.service.findingsNow(assetId).catch(() => undefined);
      // Still the stored texts, and what is recorded is theirs: the recorded findings are these texts'.
      if (findings !== undefined && this.service.isCurrent(assetId) && this.stored(texts, assetId)) return findings;
    }
    return this.service.scanTexts(texts);
  }

  knownFindings(texts: SecretTexts, assetId: string): readonly SecretFinding[] | undefined {
    return this.service.isCurrent(assetId) && this.stored(texts, assetId) ? this.service.findingsFor(assetId) : undefined;
  }

  syncsWithSecrets(assetId: string): boolean {
    return this.service.syncsWithSecrets(assetId);
  }

  /** Whether `texts` are the snippet's texts as stored now. */
  private stored(texts: SecretTexts, assetId: string): boolean {
    const now = this.service.textsOf(assetId);
    return now !== undefined && now.code === texts.code && (now.name ?? '') === texts.name && (now.description ?? '') === (texts.description ?? '');
  }
}
