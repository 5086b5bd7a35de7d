/**
 * One asset's scan, start to record: its current texts read (or, for a document past the content
 * limit, read and scanned on the scanner's worker: storedScan.ts), scanned unless they are the texts
 * last scanned, and the findings recorded for the note that asked for them. A door and the
 * background scan asking for the same note share one scan. SecretsService decides when to scan.
 */
import type { StoreContext } from '../context.ts';
import type { Disposable } from '../events.ts';
import { NotFoundError } from '../errors.ts';
import type { SecretFinding } from './findings.ts';
import type { SecretTexts } from './detector.ts';
import type { SecretScanner, ScanPriority } from './secretScanner.ts';
import { WINDOW_CHARS } from './scanWindows.ts';
import type { StoredScanResult } from './scanProtocol.ts';
import type { SecretRecords } from './secretRecords.ts';
import type { SecretSource } from './secretTypes.ts';

export class AssetScans implements Disposable {
  private readonly context: StoreContext;
  private readonly source: SecretSource;
  private readonly records: SecretRecords;
  private readonly scanner: SecretScanner;
  /** Told of each asset whose findings were recorded anew. */
  private readonly recorded: (assetId: string) => void;
  /** Scans under way, by asset: a door and the background scan of the same state share one. */
  private readonly inFlight = new Map<string, { readonly seq: number; readonly done: Promise<SecretFinding[]> }>();
  private disposed = false;

  constructor(context: StoreContext, source: SecretSource, records: SecretRecords, scanner: SecretScanner, recorded: (assetId: string) => void) {
    this.context = context;
    this.source = source;
    this.records = records;
    this.scanner = scanner;
    this.recorded = recorded;
  }

  /** Scans the asset's current texts and records the findings for the note `seq`; the findings, dismissed ones left out. */
  scan(assetId: string, seq: number, priority: ScanPriority): Promise<SecretFinding[]> {
    const under = this.inFlight.get(assetId);
    if (under && under.seq === seq) return under.done;
    const done = this.scanNow(assetId, seq, priority).finally(() => {
      if (this.inFlight.get(assetId)?.done === done) this.inFlight.delete(assetId);
    });
    this.inFlight.set(assetId, { seq, done });
    return done;
  }

  /** Scans still finish, but record nothing once the store's area is gone. */
  dispose(): void {
    this.disposed = true;
  }

  private async scanNow(assetId: string, seq: number, priority: ScanPriority): Promise<SecretFinding[]> {
    const offThread = await this.scanOffThread(assetId, priority);
    if (offThread?.kind === 'scanned') return this.record(assetId, seq, offThread.fingerprint, offThread.findings);
    if (offThread?.kind === 'unchanged') return this.unchanged(assetId, seq);
    const texts = offThread?.kind === 'missing' ? undefined : this.source.textsOf(assetId);
    if (texts === undefined) {
      // Deleted since it was noted: its findings went with it (the delete trigger).
      this.context.unsyncedTransaction(() => this.records.settle(assetId, seq));
      throw new NotFoundError('asset', assetId);
    }
    const fingerprint = this.records.fingerprint(texts);
    if (this.records.scannedFingerprint(assetId) === fingerprint) return this.unchanged(assetId, seq);
    const found = await this.scanner.scan(texts, priority);
    return this.record(assetId, seq, fingerprint, found.map((finding) => ({ ...finding, valueHash: this.records.hash(valueOf(texts, finding)) })));
  }

  /** Written, but not its texts (a score, a flag): the findings stand. */
  private unchanged(assetId: string, seq: number): SecretFinding[] {
    this.context.unsyncedTransaction(() => this.records.settle(assetId, seq));
    return this.records.findings(assetId).map(plainFinding);
  }

  /**
   * A document past the content limit's size (an older store's 60 MB snippets) read, hashed and
   * scanned on the scanner's worker, which reads it from the store's file itself (storedScan.ts);
   * undefined for a smaller one, or when the worker cannot (the texts are then read here).
   */
  private async scanOffThread(assetId: string, priority: ScanPriority): Promise<StoredScanResult | undefined> {
    const large = this.source.largeDocument?.(assetId, WINDOW_CHARS);
    if (large === undefined) return undefined;
    const stored = { file: this.context.database.path, assetId, key: this.records.hashingKey().toString('hex') };
    return this.scanner.scanStored({ ...stored, description: large.description, scanned: this.records.scannedFingerprint(assetId) }, priority);
  }

  /** Records the findings of the texts of `fingerprint` for the note `seq`; the findings, dismissed ones left out. */
  private record(assetId: string, seq: number, fingerprint: string, stored: ReadonlyArray<SecretFinding & { readonly valueHash: string }>): SecretFinding[] {
    if (this.disposed) return stored.map(plainFinding);
    // Derived data: a crash before it reaches the disk loses the findings and keeps the note together.
    this.context.unsyncedTransaction(() => {
      if (!this.context.database.prepare('SELECT 1 FROM assets WHERE id = ?').get(assetId)) return;
      const had = this.records.findings(assetId, true).length;
      this.records.replace(assetId, stored, fingerprint, new Date().toISOString());
      this.records.settle(assetId, seq);
      // Its `sensitives` changed: the asset streams tell their clients (the editor's tree and hovers read them again).
      if (had > 0 || stored.length > 0) this.context.publish({ kind: 'asset', id: assetId });
    });
    this.recorded(assetId);
    return stored.filter((finding) => !this.records.isDismissed(finding.valueHash)).map(plainFinding);
  }
}

/** The value a finding spans in its field. */
export function valueOf(texts: SecretTexts, finding: SecretFinding): string {
  return (texts[finding.field] ?? '').slice(finding.start, finding.end);
}

/** A finding without what the store adds. */
export function plainFinding(finding: SecretFinding): SecretFinding {
  return { ruleId: finding.ruleId, category: finding.category, severity: finding.severity, label: finding.label, field: finding.field, start: finding.start, end: finding.end, line: finding.line };
}
