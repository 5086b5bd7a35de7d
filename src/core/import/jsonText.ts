/**
 * A file's text that arrived as the bytes of a JSON string (an import request's `content`, left
 * undecoded by the host that received it: ImportSource's `jsonText`), decoded where the import runs.
 */
import { InvalidInputError } from '../errors.ts';

const decoder = new TextDecoder('utf-8', { fatal: true });

/** The string the bytes spell; a file error (InvalidInputError) when they are not one JSON string. */
export function textOfJsonString(bytes: Uint8Array): string {
  let value: unknown;
  try {
    value = JSON.parse(decoder.decode(bytes));
  } catch {
    value = undefined;
  }
  if (typeof value !== 'string') throw new InvalidInputError('The file\'s text is not a JSON string in UTF-8.');
  return value;
}
