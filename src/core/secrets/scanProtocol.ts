/** Messages between SecretScanner and its worker thread (scanWorker.ts). */
import type { SecretFinding } from './findings.ts';
import type { SecretTexts } from './detector.ts';

/**
 * A stored snippet the worker reads itself, through its own read-only connection to the store's file,
 * and scans with its name and description (read by the host, small): a text past the content limit is
 * then never read, hashed or cut into windows on the host's thread (SecretsService.scanNow).
 */
export interface StoredScan {
  /** The store's database file. */
  readonly file: string;
  readonly assetId: string;
  /** The store's hashing key (secret_settings), hex: the worker hashes the texts and the values it finds. */
  readonly key: string;
  readonly description?: string | undefined;
  /** The fingerprint of the texts last scanned: the same texts again are not scanned. */
  readonly scanned?: string | undefined;
}

/** What the worker found of a stored snippet. */
export type StoredScanResult =
  | { readonly kind: 'missing' }
  | { readonly kind: 'unchanged'; readonly fingerprint: string }
  | { readonly kind: 'scanned'; readonly fingerprint: string; readonly findings: ReadonlyArray<SecretFinding & { readonly valueHash: string }> };

export type ScanRequest = { readonly id: number; readonly texts: SecretTexts } | { readonly id: number; readonly stored: StoredScan };

export type ScanReply =
  | { readonly ready: true }
  | { readonly id: number; readonly findings: SecretFinding[] }
  | { readonly id: number; readonly stored: StoredScanResult }
  | { readonly id: number; readonly error: string };
