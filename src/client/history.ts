/**
 * An asset's history from the client side (Satchel's own operations, src/wire/history.ts): its
 * revisions listed and read whole, one restored, and the edit of content, name, language, tags and
 * description in one write. Writes may be conditional: given the revision the caller last read,
 * they fail with a ClientError whose `staleRevision` is set (and `currentRevision` names the
 * asset's revision now) when someone else changed the asset since; nothing is written then.
 */
import type { Author } from '../core/history/authors.ts';
import { AUTHOR_HEADER, authorHeader, etagOf, historyOperations as op } from '../wire/history.ts';
import type { EditReply, RevisionList, RevisionReply, RevisionSummary } from '../wire/history.ts';
import type { BodyIn } from '../wire/operation.ts';
import type { HttpTransport } from './http.ts';

export type { EditReply, RevisionList, RevisionReply, RevisionSummary } from '../wire/history.ts';

/** What an edit changes (each field left out stays); `description: ''` removes it. */
export type AssetEdit = Omit<NonNullable<BodyIn<typeof op.edit>>, 'expectedRevision'>;

/** How a write is made: on which revision it is based, and (for one call) by whom, when not the client's own author. */
export interface WriteCondition {
  /** The revision the caller last read (a GET's ETag, a list's `current`): sent as If-Match. */
  readonly expectedRevision?: string | undefined;
  /** Another author for this write only: an agent working through the extension's client. */
  readonly author?: Author | undefined;
}

/** The headers of a conditional write (If-Match) by another author. */
export function writeHeaders(condition: WriteCondition = {}): Record<string, string> {
  return {
    ...(condition.expectedRevision !== undefined ? { 'if-match': etagOf(condition.expectedRevision) } : {}),
    ...(condition.author !== undefined ? { [AUTHOR_HEADER]: authorHeader(condition.author) } : {}),
  };
}

export class HistoryClient {
  private readonly http: HttpTransport;

  constructor(http: HttpTransport) {
    this.http = http;
  }

  /** The asset's revisions, newest first, and its current one (a deleted asset's, until purged). */
  list(asset: string): Promise<RevisionList> {
    return this.http.call(op.list, { params: { asset } });
  }

  /** One revision whole: content (text, or base64 for binary content), name, language, tags, description. */
  get(asset: string, revision: string): Promise<RevisionReply> {
    return this.http.call(op.get, { params: { asset, revision } });
  }

  /** Makes `revision` the asset's state again, itself a new revision; returns the asset's current revision after it. */
  restore(asset: string, revision: string, condition?: WriteCondition): Promise<RevisionSummary> {
    return this.http.call(op.restore, { params: { asset, revision }, headers: writeHeaders(condition) });
  }

  /**
   * Changes what a revision keeps in one write; returns the asset and its current revision.
   * `transferables: false` leaves the formats' content out of the reply (a large snippet's text
   * need not come back to the writer that sent it).
   */
  edit(asset: string, edit: AssetEdit, condition?: WriteCondition, options: { transferables?: boolean } = {}): Promise<EditReply> {
    return this.http.call(op.edit, { params: { asset }, body: edit, headers: writeHeaders(condition), query: { transferables: options.transferables } });
  }
}
