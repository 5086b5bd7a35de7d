/**
 * Satchel's secrets operations (not part of the Pieces interface; docs/secrets.md). The findings
 * themselves travel as `Asset.sensitives` in GET /asset/{id}; these are the user's choices and counts.
 *
 *   POST /satchel/assets/{asset}/sensitives/{sensitive}/dismiss   204: "Not a Secret" (that value, everywhere)
 *   POST /satchel/assets/{asset}/sensitives/forget  {sensitive?}  Forgotten: the value(s) removed from the snippet, its revisions and the trash (a backup first)
 *   PUT  /satchel/assets/{asset}/sync-secrets  {include}          SyncSecretsSetting: the snippet syncs with its secrets, or not
 *   GET  /satchel/assets/{asset}/sync-secrets                     SyncSecretsSetting: whether it does (the editor's toggle and hover)
 *   GET  /satchel/assets/{asset}/sensitives                       DescribedFinding[]: what was found (scanned first when pending), never the values
 *   GET  /satchel/secrets/flagged                                 FlaggedAsset[]: every flagged snippet and its findings, never the values
 *   GET  /satchel/secrets/summary                                 SecretsSummary: flagged snippets, findings by category, scan progress
 *   POST /satchel/secrets/scan                                    NDJSON: progress lines, then `scanned` or `error`
 */
import { z } from 'zod';
import type { DescribedFinding, FlaggedAsset, SecretScanProgress, SecretsSummary } from '../core/secrets/secretsService.ts';
import type { Forgotten } from '../core/secrets/forgetSecret.ts';
import { lazy, get, json, ndjson, none, post, put } from './operation.ts';
import type { LongOperationLine } from './longOperation.ts';

export type { DescribedFinding, FlaggedAsset, SecretScanProgress, SecretsSummary } from '../core/secrets/secretsService.ts';
export type { Forgotten } from '../core/secrets/forgetSecret.ts';

export const forgetSchema = lazy(() => z.strictObject({ sensitive: z.string().min(1).max(128).optional() }));

export const syncSecretsSchema = lazy(() => z.strictObject({ include: z.boolean() }));

export interface SyncSecretsSetting {
  readonly asset: string;
  readonly include: boolean;
}

/** A line of POST /satchel/secrets/scan's reply. */
export type SecretScanLine = LongOperationLine<SecretScanProgress, 'scanned', SecretScanProgress>;

export const secretOperations = {
  findings: get('/satchel/assets/:asset/sensitives', json<DescribedFinding[]>()),
  flagged: get('/satchel/secrets/flagged', json<FlaggedAsset[]>()),
  dismiss: post('/satchel/assets/:asset/sensitives/:sensitive/dismiss', none),
  /** Rewrites history (the snippet's revisions, the trash): the editor confirms first. */
  forget: post('/satchel/assets/:asset/sensitives/forget', json<Forgotten>(), 'ForgetSecret', forgetSchema),
  syncSecrets: put('/satchel/assets/:asset/sync-secrets', json<SyncSecretsSetting>(), 'SyncSecrets', syncSecretsSchema),
  syncSecretsSetting: get('/satchel/assets/:asset/sync-secrets', json<SyncSecretsSetting>()),
  summary: get('/satchel/secrets/summary', json<SecretsSummary>()),
  /** Scans what is pending (the one-off scan of a library after the upgrade), reporting progress; a client that leaves pauses it. */
  scan: post('/satchel/secrets/scan', ndjson<SecretScanLine>()),
} as const;
