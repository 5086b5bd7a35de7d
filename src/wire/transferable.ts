/**
 * The fields of TransferableString and TransferableBytes, one definition for every operation that
 * takes content (asset create and update, connector intention and reaction, messages), so a value
 * one of them refuses is refused by all. Each area wraps them in its own object strictness.
 */
import { z } from 'zod';

/** Bytes as the client sends them: integers 0–255 (not 1e300, -5 or 3.7). */
export const byteArray = z.array(z.number().int().min(0).max(255));

/** MechanismEnum: how a record came to be (assets, conversations, applications). */
export const mechanism = z.enum(['UNKNOWN', 'MANUAL', 'RECOMMENDED', 'AUTOMATIC', 'INTERNAL', 'DELETED', 'EXTERNAL_AGENT']);

export const transferableStringFields = {
  raw: z.string().optional(),
  base64: z.string().optional(),
  base64_url: z.string().optional(),
  data_url: z.string().optional(),
};

export const transferableBytesFields = {
  raw: byteArray.optional(),
  base64: byteArray.optional(),
  base64_url: byteArray.optional(),
  data_url: byteArray.optional(),
};
