/**
 * Agents' changes from the client side (Satchel's own operations, src/wire/agentChanges.ts): the
 * list the user reviews, accept (one or all) and revert; and the doors an agent working through
 * this client writes by (the language-model tools), which take its author per call and answer
 * whether the write counted or waits for the user's review. A write on a revision that is no
 * longer current, and an accept of a proposal whose snippet changed since, fail with a ClientError
 * whose `staleRevision` is set.
 */
import type { Author } from '../core/history/authors.ts';
import { agentChangeOperations as op } from '../wire/agentChanges.ts';
import type { AcceptAllResult, AgentChangeDetail, AgentChangeList, AgentEdit, AgentSave, AgentSaveReply, AgentViewReply, AgentWriteReply, AgentWriteResult, ReviewResult, ReviewSetting } from '../wire/agentChanges.ts';
import type { HttpTransport } from './http.ts';
import { writeHeaders } from './history.ts';

export type { AcceptAllResult, AgentChange, AgentChangeDetail, AgentChangeIdentifiers, AgentChangeList, AgentEdit, AgentSave, AgentSaveReply, AgentViewReply, AgentWriteReply, AgentWriteResult, SecretFact, ReviewResult, ReviewSetting } from '../wire/agentChanges.ts';

export class AgentChangesClient {
  private readonly http: HttpTransport;

  constructor(http: HttpTransport) {
    this.http = http;
  }

  /** Newest first (at most 500), with whether agent writes wait for review and the total. */
  list(): Promise<AgentChangeList> {
    return this.http.call(op.list);
  }

  /** Whether agent writes wait for the user's review from now on (kept by the host's store). */
  setReviewing(reviewing: boolean): Promise<ReviewSetting> {
    return this.http.call(op.review, { body: { reviewing } });
  }

  /** One change, with what a proposal would write (`save` or `edit`). */
  get(change: string): Promise<AgentChangeDetail> {
    return this.http.call(op.get, { params: { change } });
  }

  /** Clears a mark, or applies a proposal as its agent's write. */
  accept(change: string): Promise<ReviewResult> {
    return this.http.call(op.accept, { params: { change } });
  }

  acceptAll(): Promise<AcceptAllResult> {
    return this.http.call(op.acceptAll);
  }

  /** Restores the revision before the agent's change (a created snippet deleted, a deleted one restored), or drops a proposal. */
  revert(change: string): Promise<ReviewResult> {
    return this.http.call(op.revert, { params: { change } });
  }

  /** An agent's save (`author`: the agent; the client's own author otherwise, taken as an agent's). */
  save(save: AgentSave, author?: Author): Promise<AgentSaveReply> {
    return this.http.call(op.save, { body: { ...save, tags: save.tags ? [...save.tags] : undefined, websites: save.websites ? [...save.websites] : undefined }, headers: writeHeaders({ author }) });
  }

  /** Texts as an agent may read them: each secret as its placeholder; with a query, which items were found only by a secret. */
  view(items: ReadonlyArray<{ asset?: string; code: string; name?: string; description?: string; websites?: ReadonlyArray<{ url: string; name: string }> }>, query?: string): Promise<AgentViewReply> {
    const body = items.map(({ websites, ...item }) => ({ ...item, ...(websites !== undefined ? { websites: websites.map((site) => ({ url: site.url, name: site.name })) } : {}) }));
    return this.http.call(op.view, { body: { items: body, ...(query !== undefined ? { query } : {}) } });
  }

  /** An agent's edit of a snippet it read at `expectedRevision`. */
  update(asset: string, edit: AgentEdit, condition: { readonly expectedRevision: string; readonly author?: Author | undefined }): Promise<AgentWriteReply> {
    return this.http.call(op.update, {
      params: { asset },
      body: { ...edit, tags: edit.tags ? [...edit.tags] : undefined, expectedRevision: condition.expectedRevision },
      headers: writeHeaders({ author: condition.author }),
    });
  }

  /** An agent's delete of a snippet it read at `expectedRevision`. */
  delete(asset: string, condition: { readonly expectedRevision: string; readonly author?: Author | undefined }): Promise<AgentWriteResult> {
    return this.http.call(op.delete, { params: { asset }, body: { expectedRevision: condition.expectedRevision }, headers: writeHeaders({ author: condition.author }) });
  }
}
