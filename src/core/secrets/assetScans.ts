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

/** What a scan learned of an asset, before it is written: findings of the texts of `fingerprint`, the texts last scanned, or the asset gone. */
type Outcome =
  | { readonly kind: 'scanned'; readonly fingerprint: string; readonly findings: ReadonlyArray<SecretFinding & { readonly valueHash: string }> }
  | { readonly kind: 'unchanged' }
  | { readonly kind: 'missing' };

/** A background scan's outcome waiting for its batch's transaction, and who waits for it. */
interface Queued {
  readonly assetId: string;
  readonly seq: number;
  readonly outcome: Outcome;
  readonly settle: (result: { findings: SecretFinding[] } | { error: unknown }) => void;
}

/**
 * Background outcomes written in one transaction: a transaction per snippet wrote 5–7 pages of the
 * WAL for a few hundred bytes of records (200 MB after a 10k import, which the host's checkpoint
 * worker then copied, docs/performance.md).
 */
const RECORD_BATCH = 256;
/** A queued outcome waits at most this long for its batch (views read the recorded findings). */
const RECORD_WAIT_MS = 100;

export class AssetScans implements Disposable {
  private readonly context: StoreContext;
  private readonly source: SecretSource;
  private readonly records: SecretRecords;
  private readonly scanner: SecretScanner;
  /** Told of each asset whose findings were recorded anew. */
  private readonly recorded: (assetId: string) => void;
  /** Scans under way, by asset: a door and the background scan of the same state share one. */
  private readonly inFlight = new Map<string, { readonly seq: number; readonly done: Promise<SecretFinding[]> }>();
  /** Background outcomes not yet written (`enqueue`), oldest first. */
  private queued: Queued[] = [];
  /** Writes the queue RECORD_WAIT_MS after its first outcome (a run slowed by a large snippet's scan). */
  private flushTimer: NodeJS.Timeout | undefined;
  /** Assets whose queued records a failed transaction dropped (their notes stay pending), until taken. */
  private unwritten = new Set<string>();
  private disposed = false;
  private readonly recordWaitMs: number;

  constructor(
    context: StoreContext,
    source: SecretSource,
    records: SecretRecords,
    scanner: SecretScanner,
    recorded: (assetId: string) => void,
    options: { readonly recordWaitMs?: number } = {},
  ) {
    this.context = context;
    this.source = source;
    this.records = records;
    this.scanner = scanner;
    this.recorded = recorded;
    this.recordWaitMs = options.recordWaitMs ?? RECORD_WAIT_MS;
  }

  /** Scans the asset's current texts and records the findings for the note `seq`; the findings, dismissed ones left out. */
  scan(assetId: string, seq: number, priority: ScanPriority): Promise<SecretFinding[]> {
    const under = this.inFlight.get(assetId);
    if (under && under.seq === seq) {
      // A door waits for it: what is queued is written now rather than with its batch.
      if (this.queued.some((item) => item.assetId === assetId)) this.flush();
      return under.done;
    }
    return this.track(assetId, seq, async () => {
      const outcome = await this.examine(assetId, priority);
      return this.context.unsyncedTransaction(() => this.apply(assetId, seq, outcome));
    });
  }

  /**
   * The background scan's: scans the asset like `scan`, but its records join a batch written in one
   * transaction (at RECORD_BATCH outcomes, after RECORD_WAIT_MS, at `flush`, or as soon as a door
   * asks for the asset). Resolves once the asset is scanned, before its records are written; rejects
   * when the scan itself failed. A batch that cannot be written is logged and its notes stay pending.
   */
  async scanQueued(assetId: string, seq: number): Promise<void> {
    const under = this.inFlight.get(assetId);
    if (under && under.seq === seq) return;
    const examining = this.examine(assetId, 'background');
    const done = this.track(assetId, seq, async () => this.enqueue(assetId, seq, await examining));
    // Its failures are told once: the scan's to the caller (below), the write's by flush.
    done.catch(() => undefined);
    await examining;
  }

  private enqueue(assetId: string, seq: number, outcome: Outcome): Promise<SecretFinding[]> {
    return new Promise<SecretFinding[]>((resolve, reject) => {
      this.queued.push({ assetId, seq, outcome, settle: (result) => ('error' in result ? reject(result.error) : resolve(result.findings)) });
      if (this.queued.length >= RECORD_BATCH) this.flush();
      else this.flushTimer ??= setTimeout(() => this.flush(), this.recordWaitMs).unref();
    });
  }

  /** Writes the queued background outcomes in one transaction (none of them if it fails). */
  flush(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const batch = this.queued;
    if (batch.length === 0) return;
    this.queued = [];
    let results: Array<{ findings: SecretFinding[] } | { error: unknown }>;
    try {
      results = this.context.unsyncedTransaction(() =>
        batch.map(({ assetId, seq, outcome }) => {
          try {
            return { findings: this.apply(assetId, seq, outcome) };
          } catch (error) {
            // Only the asset gone is expected here; anything else undoes the batch.
            if (error instanceof NotFoundError) return { error };
            throw error;
          }
        }),
      );
    } catch (error) {
      this.context.logger.error(`Recording the secrets scans of ${batch.length} assets failed; they stay pending`, error);
      for (const item of batch) this.unwritten.add(item.assetId);
      results = batch.map(() => ({ error }));
    }
    batch.forEach((item, i) => item.settle(results[i]!));
  }

  /** Scanned assets whose records wait for their batch. */
  get queuedCount(): number {
    return this.queued.length;
  }

  /** The assets whose records failed to be written since the last call. */
  takeUnwritten(): ReadonlySet<string> {
    const taken = this.unwritten;
    this.unwritten = new Set();
    return taken;
  }

  /** Scans still finish, but record nothing once the store's area is gone. */
  dispose(): void {
    this.disposed = true;
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const batch = this.queued;
    this.queued = [];
    for (const item of batch) item.settle(item.outcome.kind === 'scanned' ? { findings: item.outcome.findings.map(plainFinding) } : { findings: [] });
  }

  private track(assetId: string, seq: number, run: () => Promise<SecretFinding[]>): Promise<SecretFinding[]> {
    const done = run().finally(() => {
      if (this.inFlight.get(assetId)?.done === done) this.inFlight.delete(assetId);
    });
    this.inFlight.set(assetId, { seq, done });
    return done;
  }

  /** The asset's current texts scanned (or found to be the texts last scanned, or gone); nothing written. */
  private async examine(assetId: string, priority: ScanPriority): Promise<Outcome> {
    const offThread = await this.scanOffThread(assetId, priority);
    if (offThread?.kind === 'scanned') return { kind: 'scanned', fingerprint: offThread.fingerprint, findings: offThread.findings };
    if (offThread?.kind === 'unchanged') return offThread;
    const texts = offThread?.kind === 'missing' ? undefined : this.source.textsOf(assetId);
    if (texts === undefined) return { kind: 'missing' };
    const fingerprint = this.records.fingerprint(texts);
    if (this.records.scannedFingerprint(assetId) === fingerprint) return { kind: 'unchanged' };
    const found = await this.scanner.scan(texts, priority);
    return { kind: 'scanned', fingerprint, findings: found.map((finding) => ({ ...finding, valueHash: this.records.hash(valueOf(texts, finding)) })) };
  }

  /**
   * Writes an outcome for the note `seq`, inside the caller's transaction; the findings, dismissed
   * ones left out. Derived data: a crash before it reaches the disk loses the findings and keeps
   * the note together.
   */
  private apply(assetId: string, seq: number, outcome: Outcome): SecretFinding[] {
    if (outcome.kind === 'missing') {
      // Deleted since it was noted: its findings went with it (the delete trigger).
      this.records.settle(assetId, seq);
      throw new NotFoundError('asset', assetId);
    }
    if (outcome.kind === 'unchanged') {
      // Written, but not its texts (a score, a flag): the findings stand.
      this.records.settle(assetId, seq);
      return this.records.findings(assetId).map(plainFinding);
    }
    const stored = outcome.findings;
    if (this.disposed) return stored.map(plainFinding);
    // Written again since this note (a newer note), or its note taken by another scan: that scan's
    // findings are the newer ones, and must not be replaced by these.
    if (this.records.pendingSeq(assetId) !== seq || !this.context.database.prepare('SELECT 1 FROM assets WHERE id = ?').get(assetId)) {
      return stored.filter((finding) => !this.records.isDismissed(finding.valueHash)).map(plainFinding);
    }
    const had = this.records.findings(assetId, true).length;
    this.records.replace(assetId, stored, outcome.fingerprint, new Date().toISOString());
    this.records.settle(assetId, seq);
    // Its `sensitives` changed: the asset streams tell their clients (the editor's tree and hovers read them again).
    if (had > 0 || stored.length > 0) this.context.publish({ kind: 'asset', id: assetId });
    this.context.database.onCommit(() => this.recorded(assetId));
    return stored.filter((finding) => !this.records.isDismissed(finding.valueHash)).map(plainFinding);
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
}

/** The value a finding spans in its field. */
export function valueOf(texts: SecretTexts, finding: SecretFinding): string {
  return (texts[finding.field] ?? '').slice(finding.start, finding.end);
}

/** A finding without what the store adds. */
export function plainFinding(finding: SecretFinding): SecretFinding {
  return { ruleId: finding.ruleId, category: finding.category, severity: finding.severity, label: finding.label, field: finding.field, start: finding.start, end: finding.end, line: finding.line };
}
