/**
 * The secrets area: what the detector found in each asset, kept current with every write, read by
 * every door that leaves the machine (docs/secrets.md).
 *
 * When findings are current. Every write of an asset's row or description, from any door and any
 * connection, notes the asset as pending in its own transaction (schema.ts). A background scan takes
 * the notes oldest first and records findings; until it has, the asset's stored findings may be
 * stale. So:
 *   - `findingsNow(id)` is what a door that sends an asset's texts out MUST use: it returns the
 *     findings of the asset as it is when asked, scanning it first when it is pending. A door never
 *     goes on with a value a scan has not seen.
 *   - `findingsFor(id)` (SecretFindingsReader) is the synchronous read of what is recorded, for
 *     views (the tree's icon, hovers, counts); it may lag a write by one scan (`isCurrent` tells).
 *   - `scanTexts(texts)` scans texts that are not stored (a copy, an agent's input before it saves).
 * Dismissed values ("Not a Secret") are left out of all three.
 */
import type { StoreContext } from '../context.ts';
import { Emitter, type Disposable, type Event } from '../events.ts';
import { toDisposable } from '../lifecycle.ts';
import { NotFoundError } from '../errors.ts';
import type { SecretFinding, SecretFindingsReader } from './findings.ts';
import { DETECTOR_VERSION, type SecretTexts } from './detector.ts';
import { SecretScanner } from './secretScanner.ts';
import { AssetScans, plainFinding, valueOf } from './assetScans.ts';
import { SecretRecords, type StoredFinding } from './secretRecords.ts';
import { sensitiveId } from './sensitives.ts';
import type { ScanBeforeSending } from './doorSecrets.ts';

import type { DescribedFinding, FlaggedAsset, SecretOpening, SecretScanProgress, SecretSource, SecretsOptions, SecretsSummary } from './secretTypes.ts';

export type { SecretTexts } from './detector.ts';
export type { DescribedFinding, FlaggedAsset, SecretScanProgress, SecretSource, SecretsOptions, SecretsSummary } from './secretTypes.ts';

/** Assets read per batch of the background scan. */
const BATCH = 32;
/** Pending snippets from which a background run counts as bulk work (an import's, a sync's; not a save's). */
const BULK_SCAN = 256;
/** Rescans of an asset written again while it was scanned, before findingsNow answers with the latest texts it scanned. */
const MAX_ROUNDS = 3;
/**
 * How often a run counts what is pending (a COUNT over every note: 1 ms at 100k); between two counts
 * each asset's progress is the last count less the assets taken since. Counting after every asset
 * cost more than the scan itself on a library left wholly pending (1.3 ms an asset at 100k).
 */
const RECOUNT_MS = 250;

export class SecretsService implements SecretFindingsReader, Disposable {
  private readonly context: StoreContext;
  private readonly source: SecretSource;
  private readonly records: SecretRecords;
  private readonly scanner: SecretScanner;
  private readonly scans: AssetScans;
  private readonly ownsScanner: boolean;
  private readonly background: boolean;
  private readonly changed = new Emitter<string>();
  /** An asset's findings were recorded anew (or dismissed, or its sync flag changed). */
  readonly onDidChange: Event<string> = this.changed.event;
  private readonly chose = new Emitter<readonly string[]>();
  /**
   * The user changed what a door sends of these snippets (Not a Secret, sync with its secret), in the
   * transaction that records the choice: sync marks them changed there, so the next push sends them as
   * now chosen rather than at their next edit.
   */
  readonly onDidChoose: Event<readonly string[]> = this.chose.event;
  private readonly progressed = new Emitter<SecretScanProgress>();
  readonly onDidProgress: Event<SecretScanProgress> = this.progressed.event;
  private running: Promise<void> | undefined;
  private paused = false;
  /** Set by start(): until then only doors scan (an assets area built alone, as in tests, scans nothing by itself). */
  private started = false;
  /** Holds taken by `defer`. */
  private deferred = 0;
  /** Assets the last run could not scan: a run that left only those is not started again by itself. */
  private lastRunFailed = 0;
  private scanned = 0;
  private disposed = false;
  private readonly subscription: Disposable;

  constructor(context: StoreContext, source: SecretSource, options: SecretsOptions = {}) {
    this.context = context;
    this.source = source;
    this.records = new SecretRecords(context.database);
    this.records.readAgainFor(DETECTOR_VERSION, (fn) => context.transaction(fn));
    this.ownsScanner = options.scanner === undefined;
    this.scanner = options.scanner ?? new SecretScanner({ logger: context.logger });
    this.background = options.background ?? true;
    this.scans = new AssetScans(context, source, this.records, this.scanner, (assetId) => {
      this.scanned++;
      this.changed.fire(assetId);
    });
    // Any committed change of an asset (or its description) may have left a note: scan soon.
    this.subscription = context.onDidChange((change) => {
      if (change.kind === 'asset' || change.kind === 'annotation') this.wake();
    });
  }

  // ------------------------------------------------------------------ reads for the doors

  /** What is recorded for the asset (dismissed values left out); may lag a write by one scan: doors use findingsNow. */
  findingsFor(assetId: string): readonly SecretFinding[] {
    return this.records.findings(assetId).map(plainFinding);
  }

  /** Whether the asset's recorded findings are those of its current texts. */
  isCurrent(assetId: string): boolean {
    return this.records.pendingSeq(assetId) === undefined;
  }

  /**
   * The findings of the asset as it is now (dismissed values left out), scanning it first when it
   * is pending. What every door that sends an asset's texts out must use. Throws NotFoundError when
   * there is no such asset.
   */
  async findingsNow(assetId: string): Promise<readonly SecretFinding[]> {
    let latest: SecretFinding[] | undefined;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const seq = this.records.pendingSeq(assetId);
      if (seq === undefined) {
        if (!this.context.database.prepare('SELECT 1 FROM assets WHERE id = ?').get(assetId)) throw new NotFoundError('asset', assetId);
        return this.findingsFor(assetId);
      }
      latest = await this.scans.scan(assetId, seq, 'interactive');
    }
    // Written again during each scan: the findings of the latest texts read are the freshest there are.
    return latest ?? [];
  }

  /** The findings of texts that are not stored (dismissed values left out). */
  async scanTexts(texts: SecretTexts): Promise<readonly SecretFinding[]> {
    const found = await this.scanner.scan(texts, 'interactive');
    return found.filter((finding) => !this.records.isDismissed(this.records.hash(valueOf(texts, finding))));
  }

  /**
   * Whether the asset's recorded findings were made from exactly `texts` (told by their keyed hash,
   * without reading the stored texts): with `isCurrent`, a door holding a stored text past a head's
   * length knows the recorded findings are its texts'.
   */
  recordedFor(assetId: string, texts: SecretTexts): boolean {
    const scanned = this.records.scannedFingerprint(assetId);
    return scanned !== undefined && scanned === this.records.fingerprint(texts);
  }

  /** The asset's texts as the detector reads them (its original format's text, name, description), or undefined when there is no such asset. */
  textsOf(assetId: string): SecretTexts | undefined {
    return this.source.textsOf(assetId);
  }

  /** The asset's texts with the first `chars` characters of its code and the length of the whole (see SecretSource.openingOf). */
  openingOf(assetId: string, chars: number): SecretOpening | undefined {
    if (this.source.openingOf) return this.source.openingOf(assetId, chars);
    const texts = this.source.textsOf(assetId);
    return texts === undefined ? undefined : { texts: { ...texts, code: texts.code.slice(0, chars) }, chars: texts.code.length };
  }

  /**
   * Whether `text` (a search query, a tool's argument) names a value the detector found in some
   * snippet, whole or as one of its words: a door answers such a search for an agent with nothing.
   * Reads at most 256 words; each is looked up by its keyed hash (an index search).
   */
  holdsKnownValue(text: string): boolean {
    const words = new Set([text.trim(), ...text.split(/[\s"'`]+/, 256)].filter((word) => word.length >= 8));
    const known = this.context.database.prepare('SELECT 1 FROM secret_findings WHERE value_hash = ? LIMIT 1');
    for (const word of words) if (known.get(this.records.hash(word)) !== undefined) return true;
    return false;
  }

  /** Whether the user marked the snippet to sync with its secrets (the one exception to redaction on sync). */
  syncsWithSecrets(assetId: string): boolean {
    return this.records.isIncluded(assetId);
  }

  /** The stored findings with their value hashes and the sensitive id of each (the wire's `Sensitive`s: sensitives.ts). */
  storedFindings(assetId: string): Array<StoredFinding & { readonly sensitiveId: string }> {
    return this.records.findings(assetId).map((finding) => ({ ...finding, sensitiveId: sensitiveId(assetId, finding.valueHash) }));
  }

  /** Every asset with findings that are not dismissed, and what was found (never the values): the tree's icons and hovers. */
  flagged(): FlaggedAsset[] {
    const ids = (this.context.database
      .prepare('SELECT DISTINCT asset_id FROM secret_findings f WHERE NOT EXISTS (SELECT 1 FROM secret_dismissed d WHERE d.value_hash = f.value_hash) ORDER BY asset_id')
      .all() as Array<{ asset_id: string }>).map((row) => row.asset_id);
    return ids.map((id) => ({ asset: id, current: this.isCurrent(id), findings: this.described(id) }));
  }

  /** What was found in an asset as it is now (scanned first when pending), without the values. */
  async describedNow(assetId: string): Promise<DescribedFinding[]> {
    await this.findingsNow(assetId);
    return this.described(assetId);
  }

  private described(assetId: string): DescribedFinding[] {
    return this.storedFindings(assetId).map((f) => ({
      sensitive: f.sensitiveId,
      ruleId: f.ruleId,
      category: f.category,
      severity: f.severity,
      label: f.label,
      field: f.field,
      start: f.start,
      end: f.end,
      line: f.line,
    }));
  }

  // ------------------------------------------------------------------ the user's choices

  /** "Not a Secret": the value of that sensitive is never flagged again, in any snippet, by any door. */
  dismiss(assetId: string, id: string): void {
    const finding = this.storedFindings(assetId).find((f) => f.sensitiveId === id);
    if (!finding) throw new NotFoundError('sensitive', id);
    this.context.transaction(() => {
      this.records.dismiss(finding.valueHash, new Date().toISOString());
      // Every snippet holding the value shows it no longer.
      const holding = (this.context.database.prepare('SELECT DISTINCT asset_id FROM secret_findings WHERE value_hash = ?').all(finding.valueHash) as Array<{ asset_id: string }>).map((row) => row.asset_id);
      for (const id of holding) this.context.publish({ kind: 'asset', id });
      this.chose.fire(holding);
    });
    this.changed.fire(assetId);
  }

  /** Marks (or unmarks) the snippet to sync with its secrets. */
  setSyncWithSecrets(assetId: string, include: boolean): void {
    this.context.transaction(() => {
      if (!this.context.database.prepare('SELECT 1 FROM assets WHERE id = ?').get(assetId)) throw new NotFoundError('asset', assetId);
      this.records.setIncluded(assetId, include, new Date().toISOString());
      this.chose.fire([assetId]);
    });
    this.changed.fire(assetId);
  }

  summary(): SecretsSummary {
    const counts = this.records.counts();
    return { flaggedSnippets: counts.flagged, findings: counts.findings, byCategory: counts.byCategory, syncingWithSecrets: counts.syncingWithSecrets, scan: this.progress() };
  }

  progress(): SecretScanProgress {
    // Scanned assets whose records wait for their batch count as done.
    return { pending: Math.max(0, this.records.pendingCount() - this.scans.queuedCount), scanned: this.scanned, running: this.running !== undefined, paused: this.paused };
  }

  // ------------------------------------------------------------------ the background scan

  /** Starts scanning what is pending (the one-off scan of a library after the upgrade, then each write). */
  start(): void {
    this.started = true;
    this.paused = false;
    this.wake();
  }

  /** Holds the background scan until disposed (an import under way: its snippets are scanned after it). */
  defer(): Disposable {
    this.deferred++;
    return toDisposable(() => {
      this.deferred--;
      this.wake();
    });
  }

  /** Stops the background scan after the asset under way; doors still scan what they send (findingsNow). */
  pause(): void {
    this.paused = true;
  }

  /**
   * Scans every pending asset now, a batch at a time, reporting progress; `signal` stops it (and
   * pauses the background scan) between two assets. Resolves with the progress when nothing is pending.
   */
  async scanPending(options: { readonly signal?: AbortSignal; readonly onProgress?: (progress: SecretScanProgress) => void } = {}): Promise<SecretScanProgress> {
    this.paused = false;
    if (await this.runNotes(options)) this.paused = true;
    return this.progress();
  }

  /**
   * For a door about to send many snippets (a sync): what is pending scanned now, a batch at a time,
   * so that each read then answers from what is recorded; a pending snippet read by the door is
   * scanned on its own, in a transaction of its own (a first sync of 100k pending took twice as long
   * so). `signal` stops it between two snippets, the background scan left as it was; `onProgress`
   * hears how many of those pending at the start are done.
   */
  async scanBeforeSending(options: ScanBeforeSending = {}): Promise<void> {
    const total = this.progress().pending;
    if (total === 0) return;
    const report = options.onProgress;
    await this.runNotes({
      ...(options.signal ? { signal: options.signal } : {}),
      ...(report ? { onProgress: (progress: SecretScanProgress) => report(Math.max(0, total - progress.pending), total) } : {}),
    });
  }

  /** Every pending note once, oldest first, a batch at a time; true when `signal` stopped it. */
  private async runNotes(options: { readonly signal?: AbortSignal; readonly onProgress?: (progress: SecretScanProgress) => void }): Promise<boolean> {
    const listener = options.onProgress ? this.onDidProgress(options.onProgress) : undefined;
    // An asset whose scan failed stays pending (doors scan it again when they send it) and is not
    // retried in this run: the run reads the notes in the order they were taken, each once.
    const failed = new Set<string>();
    let after = 0;
    let counted: { readonly at: number; readonly progress: SecretScanProgress } | undefined;
    let takenSince = 0;
    let stopped = false;
    try {
      while (!this.disposed) {
        if (options.signal?.aborted) {
          stopped = true;
          break;
        }
        const batch = this.records.pendingAfter(after, BATCH);
        if (batch.length === 0) break;
        for (const { assetId, seq } of batch) {
          if (options.signal?.aborted || this.disposed) break;
          after = seq;
          try {
            await this.scans.scanQueued(assetId, seq);
          } catch (error) {
            // Deleted meanwhile: its note went with it. Anything else is logged, and left pending.
            if (!(error instanceof NotFoundError)) {
              failed.add(assetId);
              this.context.logger.error(`The secrets scan of asset ${assetId} failed; it stays pending`, error);
            }
          }
          takenSince++;
          if (counted === undefined || Date.now() - counted.at >= RECOUNT_MS) {
            counted = { at: Date.now(), progress: this.progress() };
            takenSince = 0;
          }
          this.progressed.fire({ ...counted.progress, pending: Math.max(0, counted.progress.pending - takenSince), scanned: this.scanned });
          // Between two assets the loop answers others (a batch of small snippets is scanned on this thread).
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
    } finally {
      this.scans.flush();
      for (const assetId of this.scans.takeUnwritten()) failed.add(assetId);
      listener?.dispose();
    }
    this.lastRunFailed = failed.size;
    return stopped;
  }

  /** Resolves once nothing is pending but what could not be scanned (the background scan ran out of notes). */
  async settled(): Promise<void> {
    while (this.records.pendingCount() > 0 && !this.disposed) {
      await this.scanPending();
      if (this.lastRunFailed > 0) return;
    }
  }

  dispose(): void {
    this.disposed = true;
    this.scans.dispose();
    this.subscription.dispose();
    this.changed.dispose();
    this.chose.dispose();
    this.progressed.dispose();
    if (this.ownsScanner) this.scanner.dispose();
  }

  private wake(): void {
    if (!this.background || !this.started || this.deferred > 0 || this.paused || this.disposed || this.running) return;
    // A run over many snippets (those an import or a sync wrote) is bulk work: the data host gives
    // back what it left once it ends (bulkWork.ts).
    const work = this.records.pendingCount() >= BULK_SCAN ? this.context.bulkWork.begin() : undefined;
    this.running = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.scanPending())
      .then(
        () => undefined,
        (error: unknown) => this.context.logger.error('The secrets scan stopped', error),
      )
      .finally(() => {
        work?.dispose();
        this.running = undefined;
        // A note taken while the last batch was read is scanned too (not the ones that failed: the next write wakes them).
        if (!this.paused && !this.disposed && this.records.pendingCount() > this.lastRunFailed) this.wake();
      });
  }
}
