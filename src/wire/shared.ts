/**
 * Fields several areas share: TransferableString and TransferableBytes (asset create and update,
 * connector intention and reaction, messages), MechanismEnum and the score counters. One definition
 * each, so a value one operation refuses is refused by all; each area wraps them in its own object
 * strictness.
 */
import { z } from 'zod';
import { lazy } from './operation.ts';

/** Bytes as the client sends them: integers 0–255 (not 1e300, -5 or 3.7). */
export const byteArray = lazy(() => z.array(z.number().int().min(0).max(255)));

/** MechanismEnum: how a record came to be (assets, conversations, applications). */
export const mechanism = lazy(() => z.enum(['UNKNOWN', 'MANUAL', 'RECOMMENDED', 'AUTOMATIC', 'INTERNAL', 'DELETED', 'EXTERNAL_AGENT']));

/** SeededScoreIncrement's counters (assets and conversations): which to count once. */
export const seededScoreFields = lazy(() => ({
  reuse: z.boolean().optional(),
  update: z.boolean().optional(),
  reference: z.boolean().optional(),
  priority: z.boolean().optional(),
  searched: z.boolean().optional(),
}));

export const transferableStringFields = lazy(() => ({
  raw: z.string().optional(),
  base64: z.string().optional(),
  base64_url: z.string().optional(),
  data_url: z.string().optional(),
}));

export const transferableBytesFields = lazy(() => ({
  raw: byteArray().optional(),
  base64: byteArray().optional(),
  base64_url: byteArray().optional(),
  data_url: byteArray().optional(),
}));
