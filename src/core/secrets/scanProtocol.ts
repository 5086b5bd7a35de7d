/** Messages between SecretScanner and its worker thread (scanWorker.ts). */
import type { SecretFinding } from './findings.ts';
import type { SecretTexts } from './detector.ts';

export interface ScanRequest {
  readonly id: number;
  readonly texts: SecretTexts;
}

export type ScanReply =
  | { readonly ready: true }
  | { readonly id: number; readonly findings: SecretFinding[] }
  | { readonly id: number; readonly error: string };
