/**
 * The doors' detector where no store of findings answers for them (a `satchel export` reading beside a
 * running host), and the default until one does: each text is scanned as it goes out, so a door never
 * waits on a background scan and never sends what it has not scanned. No snippet syncs with its values
 * here: that choice is kept by the store's findings.
 */
import type { Disposable } from '../lifecycle.ts';
import type { DoorSecrets, SecretTexts } from './doorSecrets.ts';
import type { SecretFinding } from './findings.ts';
import { withEchoes } from './echoes.ts';
import type { ScanPriority } from './secretScanner.ts';

/** What the doors need of the scanner (secretScanner.ts). */
export interface TextScanner extends Disposable {
  scan(texts: SecretTexts, priority?: ScanPriority): Promise<SecretFinding[]>;
}

export class ScanningDoorSecrets implements DoorSecrets, Disposable {
  private readonly scanner: TextScanner;

  constructor(scanner: TextScanner) {
    this.scanner = scanner;
  }

  async findingsIn(texts: SecretTexts): Promise<readonly SecretFinding[]> {
    return withEchoes(texts, await this.scanner.scan(texts, 'interactive'));
  }

  syncsWithSecrets(): boolean {
    return false;
  }

  dispose(): void {
    this.scanner.dispose();
  }
}
