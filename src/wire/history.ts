/**
 * Satchel's history operations (not part of the Pieces interface): an asset's revisions listed,
 * read and restored, and the edit that changes what a revision keeps in one conditional write.
 * Also the two headers of conditional writes and authorship every client of Satchel uses:
 *   ETag / If-Match   an asset's current revision (GET /asset/{id} and these routes send it;
 *                     POST /asset/update, /assets/{id}/delete and these writes honour it)
 *   Satchel-Author    who Satchel's own client is ("vscode; name=Satchel%20for%20VS%20Code")
 */
import { z } from 'zod';
import { authorOf, isAuthorKind, type Author } from '../core/history/authors.ts';
import type { RevisionList, RevisionSummary } from '../core/history/historyService.ts';
import type { Asset } from '../core/piecesTypes.ts';
import { lazy, get, json, post } from './operation.ts';

/** The header Satchel's own client names itself in (a Pieces client never sends it). */
export const AUTHOR_HEADER = 'satchel-author';

/** `kind; name=<percent-encoded name>`: header values are ASCII, names need not be. */
export function authorHeader(author: Author): string {
  return `${author.kind}; name=${encodeURIComponent(author.name)}`;
}

/** The author a header names; undefined for a value that is not one (the request is then treated as any client's). */
export function parseAuthorHeader(value: string | undefined): Author | undefined {
  if (value === undefined) return undefined;
  const [kind = '', ...params] = value.split(';').map((part) => part.trim());
  if (!isAuthorKind(kind)) return undefined;
  const name = params.find((param) => param.startsWith('name='))?.slice('name='.length);
  try {
    return authorOf(kind, name === undefined ? undefined : decodeURIComponent(name));
  } catch {
    return authorOf(kind);
  }
}

/** An entity tag for a revision (strong, quoted). */
export function etagOf(revision: string): string {
  return `"${revision}"`;
}

/** The revisions an If-Match header names (`W/` and quotes dropped); `*` stands for any and yields none. */
export function revisionsOfIfMatch(value: string | undefined): string[] {
  if (value === undefined) return [];
  return value
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, '').replace(/^"(.*)"$/, '$1'))
    .filter((tag) => tag !== '' && tag !== '*');
}

const expectedRevision = lazy(() => z.string().min(1).max(64).optional());

const editRequest = lazy(() => z
  .object({
    content: z.string().optional(),
    name: z.string().max(4096).optional(),
    language: z.string().max(64).optional(),
    tags: z.array(z.string().max(4096)).max(10_000).optional(),
    /** '' removes the description. */
    description: z.string().optional(),
    /** The revision the edit is based on (If-Match says the same). */
    expectedRevision: expectedRevision(),
  })
  .refine((edit) => edit.content !== undefined || edit.name !== undefined || edit.language !== undefined || edit.tags !== undefined || edit.description !== undefined, {
    message: 'give at least one of content, name, language, tags, description',
  }));

const restoreRequest = lazy(() => z.object({ expectedRevision: expectedRevision() }).optional());

export const historyOperations = {
  /** Newest first, with the current revision. */
  list: get('/satchel/assets/:asset/revisions', json<RevisionList>()),
  /** One revision whole. */
  get: get('/satchel/assets/:asset/revisions/:revision', json<RevisionReply>()),
  /** Makes a revision current, itself a new revision: the asset's current revision after it. */
  restore: post('/satchel/assets/:asset/revisions/:revision/restore', json<RevisionSummary>(), 'restore request', restoreRequest),
  /** Content, name, language, tags and description in one write and one revision; `?transferables=false` answers the asset without its formats' content. */
  edit: post('/satchel/assets/:asset/edit', json<EditReply>(), 'asset edit', editRequest),
} as const;

export type { RevisionList, RevisionSummary };

/** A revision's content on the wire: text, or base64 for binary content. */
export type RevisionContentReply = { readonly text: string } | { readonly base64: string };

/** GET …/revisions/{revision}. */
export interface RevisionReply extends RevisionSummary {
  readonly asset: string;
  readonly current: boolean;
  readonly content: RevisionContentReply;
  readonly tags: readonly string[];
  /** null when the asset had none. */
  readonly description: string | null;
}

/** POST …/edit: the asset after the edit and its current revision (also its ETag). */
export interface EditReply {
  readonly asset: Asset;
  readonly revision: string;
}
