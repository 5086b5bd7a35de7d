/**
 * The HTTP status each domain error answers with. The server answers with it; the client gives an
 * error that arrives inside a 200 reply (the closing line of a long operation) the status the same
 * error would have had as a reply of its own, so callers branch on one field either way.
 */
import type { DomainErrorCode } from '../core/errors.ts';

export const statusOfDomainError: Readonly<Record<DomainErrorCode, number>> = {
  invalid_input: 400,
  not_found: 404,
  conflict: 409,
  // A conditional write (If-Match, expectedRevision) found the asset at another revision.
  stale_revision: 412,
  too_large: 413,
  forbidden: 403,
  unsupported: 422,
  insufficient_resources: 507,
  unavailable: 503,
  // The interface states this case answers 500 (GET /assets/search with neither query nor tags).
  search_unspecified: 500,
  store_unusable: 503,
};

/** The status of an error code read off the wire; 500 for one this build does not know (`internal`, a newer host's). */
export function statusOfErrorCode(code: string): number {
  const table: Readonly<Record<string, number>> = statusOfDomainError;
  return (Object.hasOwn(table, code) ? table[code] : undefined) ?? 500;
}
