/**
 * What a request's writes carry into core: who made them (Satchel's own client names itself in the
 * Satchel-Author header; any other caller is a client of the Pieces interface, named by the
 * application its body names or its User-Agent) and, for conditional writes, the revision the
 * caller last read (If-Match, or `expectedRevision` in a Satchel body). Replies to reads and writes
 * of an asset carry its current revision as the ETag.
 */
import type { Context } from 'koa';
import { authorOf, type Author, type WriteOptions } from '../core/history/authors.ts';
import { AUTHOR_HEADER, etagOf, parseAuthorHeader, revisionsOfIfMatch } from '../wire/history.ts';
import { InvalidInputError } from '../core/errors.ts';

/**
 * The author of a request's writes. `application` is the application the request names itself
 * (a Seed's `asset.application.name`), which names a Pieces client better than its User-Agent.
 */
export function requestAuthor(ctx: Context, application?: string): Author {
  const own = parseAuthorHeader(ctx.get(AUTHOR_HEADER) || undefined);
  if (own) return own;
  return authorOf('pieces-app', application || ctx.get('user-agent') || undefined);
}

/**
 * How a request writes: its author, and the revision its If-Match names (or `expected`, a body's
 * own field). A header naming several revisions is answered by the one that is current, if any
 * (`current` reads it; core checks it again inside the write, so a change in between still fails).
 */
export function writeOptions(ctx: Context, options: { application?: string | undefined; expected?: string | undefined; current?: () => string } = {}): WriteOptions {
  const named = revisionsOfIfMatch(ctx.get('if-match') || undefined);
  if (named.length > 0 && options.expected !== undefined && !named.includes(options.expected)) {
    throw new InvalidInputError('If-Match and expectedRevision name different revisions');
  }
  let expectedRevision = options.expected ?? named[0];
  if (named.length > 1 && options.current) {
    const current = options.current();
    if (named.includes(current)) expectedRevision = current;
  }
  return { author: requestAuthor(ctx, options.application), ...(expectedRevision !== undefined ? { expectedRevision } : {}) };
}

/** Sends the asset's current revision as the reply's ETag. */
export function sendRevision(ctx: Context, revision: string): void {
  ctx.set('ETag', etagOf(revision));
}
