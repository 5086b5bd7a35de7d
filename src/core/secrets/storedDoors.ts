/**
 * The doors' detector over the store's findings (secretsService.ts): a door asks for the findings of the
 * exact texts it is about to send. Texts the last scan of the snippet was made of (told by their keyed
 * hash) are answered by its recorded findings. When those are the snippet's texts as stored, the answer is the
 * service's `findingsNow` (recorded, or scanned first when the snippet is pending), checked again against
 * the texts once it comes (a write in between sends the door to a scan of its own texts). When they are
 * the stored texts with only an opening of the code (a preview, get_snippet's first 256 KiB), the answer
 * is the same findings cut at the opening, so a value that begins before the cut is hidden as far as it
 * shows. Any other text (a copy, a message) is scanned as it is, dismissed values left out either way.
 *
 * Telling which it is reads only the opening the door holds and the code's length (a large text's
 * head): comparing against the whole stored text read 60 MB to answer for a 240-character preview.
 */
import type { DoorSecrets, ScanBeforeSending, SecretTexts } from './doorSecrets.ts';
import type { SecretFinding } from './findings.ts';
import { withEchoes } from './echoes.ts';
import type { SecretsService } from './secretsService.ts';

/** What the doors need of the secrets area. */
export type StoredSecrets = Pick<SecretsService, 'findingsNow' | 'findingsFor' | 'isCurrent' | 'scanTexts' | 'recordedFor' | 'openingOf' | 'syncsWithSecrets'> &
  Partial<Pick<SecretsService, 'scanBeforeSending'>>;

/**
 * How a door's texts stand to the snippet's stored texts: the same ('whole'), the same with the code
 * cut ('opening'), as long as them and the same as far as a head goes ('long': told by the keyed hash
 * of the texts the findings were recorded for), or something else.
 */
type Match = 'whole' | 'opening' | 'long' | undefined;

/** Code up to this long is hashed to ask whether its findings are recorded (256 Ki characters: 0.3 ms on the development machine). */
const HASHED_AT_ONCE = 256 * 1024;

export class StoredDoorSecrets implements DoorSecrets {
  private readonly service: StoredSecrets;
  readonly answersForOpenings = true;

  constructor(service: StoredSecrets) {
    this.service = service;
  }

  async findingsIn(texts: SecretTexts, assetId?: string): Promise<readonly SecretFinding[]> {
    return withEchoes(texts, await this.found(texts, assetId));
  }

  private async found(texts: SecretTexts, assetId?: string): Promise<readonly SecretFinding[]> {
    // Texts whose findings are recorded (their keyed hash is the one the last scan wrote, in the same
    // transaction as its findings): those findings, whatever was written since. Two lookups and a hash
    // of a few kilobytes, where telling the texts from the stored ones reads the snippet twice (a sync
    // sends every snippet through here). A large text's hash is left to the checks below.
    if (assetId !== undefined && texts.code.length <= HASHED_AT_ONCE && this.service.recordedFor(assetId, texts)) return this.service.findingsFor(assetId);
    const match = assetId === undefined ? undefined : this.match(texts, assetId);
    if (assetId !== undefined && match !== undefined) {
      const findings = await this.service.findingsNow(assetId).catch(() => undefined);
      // Still the stored texts, and what is recorded is theirs: the recorded findings are these texts'.
      // A long text's hash (about 100 ms for 60 MB) is a turn of the loop of its own, not one with
      // the caller's read of that text.
      if (match === 'long') await new Promise((resolve) => setImmediate(resolve));
      if (findings !== undefined && this.service.isCurrent(assetId)) {
        if (match === 'long' ? this.service.recordedFor(assetId, texts) : this.match(texts, assetId) === match) {
          return match === 'opening' ? cutAt(findings, texts.code.length) : findings;
        }
      }
    }
    return this.service.scanTexts(texts);
  }

  knownFindings(texts: SecretTexts, assetId: string): readonly SecretFinding[] | undefined {
    if (!this.service.isCurrent(assetId)) return undefined;
    const match = this.match(texts, assetId);
    return match === 'whole' || (match === 'long' && this.service.recordedFor(assetId, texts)) ? withEchoes(texts, this.service.findingsFor(assetId)) : undefined;
  }

  syncsWithSecrets(assetId: string): boolean {
    return this.service.syncsWithSecrets(assetId);
  }

  async scanBeforeSending(options: ScanBeforeSending): Promise<void> {
    await this.service.scanBeforeSending?.(options);
  }

  /**
   * Whether `texts` are the snippet's texts as stored now ('whole'), the same with the code cut
   * ('opening'), or something else. The stored opening is read as far as `texts.code` goes (a
   * large text's head holds 256 KiB); a text longer than that and as long as the stored one is
   * 'long', for the caller to tell by its hash, once: comparing it with the stored text read that
   * whole text again (60 MB for the MCP resource that had just read it to send it).
   */
  private match(texts: SecretTexts, assetId: string): Match {
    const length = texts.code.length;
    const stored = this.service.openingOf(assetId, length);
    if (stored === undefined || stored.chars < length) return undefined;
    if ((stored.texts.name ?? '') !== texts.name || (stored.texts.description ?? '') !== (texts.description ?? '')) return undefined;
    if (stored.texts.code.length === length) {
      if (stored.texts.code !== texts.code) return undefined;
      return stored.chars === length ? 'whole' : 'opening';
    }
    // Longer than what the opening holds: only the whole text can say (an opening this long is scanned).
    return stored.chars === length ? 'long' : undefined;
  }
}

/**
 * The findings of a text as they stand in its first `chars` characters: those that begin there, a
 * value that goes on past the cut ending at it (what shows of it is hidden).
 */
function cutAt(findings: readonly SecretFinding[], chars: number): SecretFinding[] {
  return findings.flatMap((finding) => {
    if (finding.field !== 'code') return [finding];
    if (finding.start >= chars) return [];
    return [finding.end > chars ? { ...finding, end: chars } : finding];
  });
}
