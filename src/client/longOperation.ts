/**
 * Reads the reply of long work (wire/longOperation.ts) as it arrives: each progress line to the
 * caller, then the result the closing line carries, or the error it reports thrown with the status
 * that error has as a reply of its own.
 */
import { ClientError } from './errors.ts';
import { statusOfErrorCode } from '../wire/errorStatus.ts';
import type { LongOperationLine } from '../wire/longOperation.ts';

export async function resultOf<Progress, Key extends string, Result>(
  lines: AsyncIterable<LongOperationLine<Progress, Key, Result>>,
  key: Key,
  onProgress: ((progress: Progress) => void) | undefined,
  what: string,
): Promise<Result> {
  for await (const line of lines) {
    if ('progress' in line) onProgress?.(line.progress);
    else if ('error' in line) throw new ClientError(statusOfErrorCode(line.error.code), line.error.code, line.error.message);
    else if (key in line) return line[key];
  }
  throw new ClientError(502, 'bad_reply', `${what} ended without its ${key}`);
}
