/**
 * Typed domain errors. Core throws these and never knows about HTTP; the server maps `code` to a
 * status in one place (src/server/errors.ts). Never match on message text.
 */
export type DomainErrorCode =
  | 'invalid_input'
  | 'not_found'
  | 'conflict'
  | 'stale_revision'
  | 'too_large'
  | 'forbidden'
  | 'unsupported'
  | 'insufficient_resources'
  | 'unavailable'
  | 'search_unspecified'
  | 'store_unusable';

export abstract class DomainError extends Error {
  abstract readonly code: DomainErrorCode;
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** The request's content is well-formed JSON but not acceptable (wrong shape, bad enum, …). */
export class InvalidInputError extends DomainError {
  readonly code = 'invalid_input';
}

/** A record named by the request does not exist. */
export class NotFoundError extends DomainError {
  readonly code = 'not_found';
  readonly kind: string;
  readonly id: string;
  constructor(kind: string, id: string) {
    super(`${kind} ${JSON.stringify(id)} was not found`);
    this.kind = kind;
    this.id = id;
  }
}

/** The request conflicts with the current state (e.g. a second import of the same file). */
export class ConflictError extends DomainError {
  readonly code = 'conflict';
}

/**
 * A conditional write (update, edit, delete or restore given the revision its writer last read)
 * found the asset at another revision: someone else changed it since. Nothing was written.
 */
export class RevisionConflictError extends DomainError {
  readonly code = 'stale_revision';
  readonly assetId: string;
  readonly expected: string;
  /** The asset's revision now: the writer reads it again, merges, and retries with this one. */
  readonly current: string;
  constructor(assetId: string, expected: string, current: string) {
    super(`asset ${JSON.stringify(assetId)} changed since revision ${expected}: its current revision is ${current}`);
    this.assetId = assetId;
    this.expected = expected;
    this.current = current;
  }
}

/** An input is larger than the operation takes (an import file, say). */
export class TooLargeError extends DomainError {
  readonly code = 'too_large';
}

/** The operation is not allowed on this record (e.g. deleting a built-in model). */
export class ForbiddenError extends DomainError {
  readonly code = 'forbidden';
}

/** The operation is valid but not supported for this record kind (e.g. delete cache of a non-LLM). */
export class UnsupportedError extends DomainError {
  readonly code = 'unsupported';
}

/** Not enough disk or memory to do the work. */
export class InsufficientResourcesError extends DomainError {
  readonly code = 'insufficient_resources';
}

/** A dependency (model runtime, download source) is not available right now. */
export class UnavailableError extends DomainError {
  readonly code = 'unavailable';
}

/** GET /assets/search with neither query nor tags: the interface itself says this answers 500. */
export class SearchUnspecifiedError extends DomainError {
  readonly code = 'search_unspecified';
}

/** The database cannot be used (corrupt, from a newer version, read-only…); nothing was touched. */
export class StoreUnusableError extends DomainError {
  readonly code = 'store_unusable';
}

/** This Node.js runtime has no node:sqlite (too old, or an Electron build without it), so no store can open here. */
export class SqliteUnavailableError extends StoreUnusableError {}
