/** The shapes the secrets area hands out (secretsService.ts): its source, its options, its counts and views. */
import type { SecretFinding } from './findings.ts';
import type { SecretTexts } from './detector.ts';
import type { SecretScanner } from './secretScanner.ts';

/** What the secrets area reads of an asset. */
export interface SecretSource {
  /** The asset's texts (its original format's text, name and description), or undefined when there is no such asset; '' for binary content. */
  textsOf(assetId: string): SecretTexts | undefined;
  /**
   * The asset's texts with only the first `chars` characters of its code (fewer when that is all a
   * large text's stored head holds), and the characters of its whole code, read without its document;
   * undefined when there is no such asset. Without it, the opening is cut from `textsOf`.
   */
  openingOf?(assetId: string, chars: number): SecretOpening | undefined;
  /**
   * The asset's description when its stored document is larger than `bytes`, read without the document
   * (which the secrets worker then reads itself: storedScan.ts); undefined for a smaller one or none.
   */
  largeDocument?(assetId: string, bytes: number): { readonly description?: string } | undefined;
}

/** An asset's texts with `texts.code` the opening of its code, whose whole length is `chars`. */
export interface SecretOpening {
  readonly texts: SecretTexts;
  readonly chars: number;
}

/** How far the scan of pending assets (the one-off scan of a library after the upgrade, then each write) has come. */
export interface SecretScanProgress {
  /** Assets waiting for a scan. */
  readonly pending: number;
  /** Assets scanned since the host started. */
  readonly scanned: number;
  /** Whether the background scan is running now. */
  readonly running: boolean;
  /** Whether it was stopped (POST /satchel/secrets/scan left, or `pause`) until the next write or `resume`. */
  readonly paused: boolean;
}

export interface SecretsSummary {
  /** Snippets holding at least one finding that is not dismissed. */
  readonly flaggedSnippets: number;
  readonly findings: number;
  readonly byCategory: Readonly<Record<string, number>>;
  /** Flagged snippets the user marked to sync with their secrets. */
  readonly syncingWithSecrets: number;
  readonly scan: SecretScanProgress;
}

/** A finding as views show it: what and where, and the id of its value's Sensitive; never the value. */
export interface DescribedFinding extends SecretFinding {
  /** The id of the value's `Sensitive` (what dismiss and forget take). */
  readonly sensitive: string;
}

export interface FlaggedAsset {
  readonly asset: string;
  /** Whether these are the findings of its current texts (false: a scan is pending). */
  readonly current: boolean;
  readonly findings: readonly DescribedFinding[];
}

export interface SecretsOptions {
  readonly scanner?: SecretScanner;
  /** Whether pending assets are scanned in the background on their own (default true; tests drive `scanPending`). */
  readonly background?: boolean;
}
