/**
 * The secrets area from the client side (Satchel's own operations, src/wire/secrets.ts): "Not a
 * Secret", the per-snippet "sync with its secret" flag, the counts, and the scan of what is pending.
 * The findings themselves come with the asset (`Asset.sensitives` of GET /asset/{id}).
 */
import { resultOf } from './longOperation.ts';
import type { HttpTransport } from './http.ts';
import { secretOperations as op, type DescribedFinding, type FlaggedAsset, type Forgotten, type SecretScanProgress, type SecretsSummary, type SyncSecretsSetting } from '../wire/secrets.ts';

export type { DescribedFinding, FlaggedAsset, Forgotten, SecretScanProgress, SecretsSummary, SyncSecretsSetting } from '../wire/secrets.ts';

export interface SecretScanOptions {
  readonly signal?: AbortSignal | undefined;
  readonly onProgress?: ((progress: SecretScanProgress) => void) | undefined;
}

export class SecretsClient {
  private readonly http: HttpTransport;

  constructor(http: HttpTransport) {
    this.http = http;
  }

  /** What was found in a snippet as it is now (category, label, field, line, span, sensitive id), never the values: for hovers and marks. */
  findings(assetId: string): Promise<DescribedFinding[]> {
    return this.http.call(op.findings, { params: { asset: assetId } });
  }

  /** Every flagged snippet with its findings (never the values): for the tree's icons. */
  flagged(): Promise<FlaggedAsset[]> {
    return this.http.call(op.flagged);
  }

  /** "Not a Secret": the value of sensitive `sensitiveId` (an id from `Asset.sensitives`) is no longer flagged, in any snippet. */
  dismiss(assetId: string, sensitiveId: string): Promise<void> {
    return this.http.call(op.dismiss, { params: { asset: assetId, sensitive: sensitiveId } });
  }

  /**
   * "Forget Secret": the value of `sensitiveId` (every value found, when left out) is removed from the
   * snippet, its revisions and the trash, a backup taken first (its name in the reply). Rewrites history: confirm first.
   */
  forget(assetId: string, sensitiveId?: string): Promise<Forgotten> {
    return this.http.call(op.forget, { params: { asset: assetId }, body: sensitiveId === undefined ? {} : { sensitive: sensitiveId } });
  }

  /** Whether the snippet syncs with its secrets (otherwise each value is replaced by its placeholder on the remote). */
  setSyncWithSecrets(assetId: string, include: boolean): Promise<SyncSecretsSetting> {
    return this.http.call(op.syncSecrets, { params: { asset: assetId }, body: { include } });
  }

  /** Whether the snippet syncs with its secrets now. */
  syncsWithSecrets(assetId: string, signal?: AbortSignal): Promise<SyncSecretsSetting> {
    return this.http.call(op.syncSecretsSetting, { params: { asset: assetId }, ...(signal ? { signal } : {}) });
  }

  summary(): Promise<SecretsSummary> {
    return this.http.call(op.summary);
  }

  /** Scans every pending snippet now, with progress; aborting the signal pauses the scan. */
  async scan(options: SecretScanOptions = {}): Promise<SecretScanProgress> {
    const lines = await this.http.call(op.scan, options.signal ? { signal: options.signal } : {});
    return resultOf(lines, 'scanned', options.onProgress, op.scan.path);
  }
}
