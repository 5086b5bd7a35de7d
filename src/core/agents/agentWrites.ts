/**
 * The writes agents make (the MCP tools, the language-model tools through the host's agent
 * routes): save a snippet, update one, delete one. An update or a delete names the revision the
 * agent last read and is refused (RevisionConflictError) when the snippet changed since, so an
 * agent never overwrites what it has not seen. While agent writes wait for review, each is
 * recorded as a proposal instead (agentChanges.ts) and counts for nothing until the user accepts
 * it: a proposed edit leaves the snippet as it is, a proposed create makes no snippet, a proposed
 * delete deletes nothing. Otherwise it is written at once, and marked as the agent's.
 */
import type { StoreContext } from '../context.ts';
import { InvalidInputError, NotFoundError, RevisionConflictError } from '../errors.ts';
import { LIMITS, LimitExceededError } from '../limits.ts';
import { isAgent, type Author } from '../history/authors.ts';
import type { HistoryService } from '../history/historyService.ts';
import type { AssetService } from '../assets/assetService.ts';
import { suggestName } from '../assets/content.ts';
import type { Asset } from '../piecesTypes.ts';
import { newOrderedId } from '../time.ts';
import type { AgentChanges } from './agentChanges.ts';
import { assetEditOf, checkedEdit, checkedSave, mergedEdit, memoryWrite, seedOf, type AgentEdit, type AgentSave } from './agentInputs.ts';

/** An agent's conditional write: by whom, on the revision it last read. */
export interface AgentWriteOptions {
  readonly author: Author;
  readonly expectedRevision: string;
}

export interface AgentWriteResult {
  /**
   * `applied`: written (and marked as the agent's); `unchanged`: the snippet already was as asked,
   * nothing written; `proposed`: waits for the user's review and counts for nothing yet.
   */
  readonly status: 'applied' | 'unchanged' | 'proposed';
  /** The snippet; absent for a proposed create. */
  readonly asset?: string;
  readonly name: string;
  /** The snippet's revision after the write (absent for a delete and for proposals). */
  readonly revision?: string;
  /** The agent change listing it (a mark or a proposal). */
  readonly change?: string;
  /** A proposal's: the revision it was proposed against. */
  readonly base?: string;
}

export interface AgentSaveResult extends AgentWriteResult {
  /** The snippet saved (when applied). */
  readonly saved?: Asset;
}

export class AgentWrites {
  private readonly context: StoreContext;
  private readonly changes: AgentChanges;
  private readonly assets: AssetService;
  private readonly history: HistoryService;

  constructor(context: StoreContext, changes: AgentChanges, assets: AssetService, history: HistoryService) {
    this.context = context;
    this.changes = changes;
    this.assets = assets;
    this.history = history;
  }

  /** Saves a new snippet (or proposes it). */
  async save(input: AgentSave, author: Author): Promise<AgentSaveResult> {
    requireAgent(author);
    const save = checkedSave(input);
    if (!this.changes.reviewing) {
      const saved = await this.assets.writes.create(seedOf(save), { author, within: memoryWrite(this.context.database, save) });
      const revision = this.history.current(saved.id);
      const change = this.changes.changeLog.markEndingAt(saved.id, revision, author)?.id;
      return { status: 'applied', asset: saved.id, name: saved.name ?? '', revision, saved, ...(change !== undefined ? { change } : {}) };
    }
    const name = save.name ?? suggestName(save.content);
    const id = newOrderedId();
    this.context.transaction(() =>
      this.changes.proposed({ id, assetId: null, kind: 'created', proposed: true, author, name, base: null, after: null, proposal: JSON.stringify(save), created: Date.now() }),
    );
    return { status: 'proposed', name, change: id };
  }

  /** Changes a snippet's content, name, language, tags or description (or proposes it), if it is still at `by.expectedRevision`. */
  update(id: string, input: AgentEdit, by: AgentWriteOptions): AgentWriteResult {
    requireConditional(by);
    this.checkEditable(id);
    const edit = checkedEdit(input);
    if (!this.changes.reviewing) {
      const { asset, revision } = this.assets.writes.edit(id, assetEditOf(edit), by);
      const name = asset.name ?? '';
      if (revision === by.expectedRevision) return { status: 'unchanged', asset: id, name, revision };
      const change = this.changes.changeLog.markEndingAt(id, revision, by.author)?.id;
      return { status: 'applied', asset: id, name, revision, ...(change !== undefined ? { change } : {}) };
    }
    return this.context.transaction(() => {
      const current = this.currentRevision(id, by.expectedRevision);
      const log = this.changes.changeLog;
      const now = Date.now();
      // The agent's next edit of the same revision refines its proposal rather than competing with it.
      const earlier = log.proposalOf(id, 'changed', current, by.author);
      if (earlier !== undefined) {
        const merged = mergedEdit(JSON.parse(log.proposal(earlier.id) ?? '{}') as AgentEdit, edit);
        const name = merged.name ?? this.nameOf(id);
        log.replaceProposal(earlier.id, { proposal: JSON.stringify(merged), name, updated: now });
        this.changes.published(earlier.id);
        return { status: 'proposed', asset: id, name, change: earlier.id, base: current };
      }
      const name = edit.name ?? this.nameOf(id);
      const change = newOrderedId();
      this.changes.proposed({ id: change, assetId: id, kind: 'changed', proposed: true, author: by.author, name, base: current, after: null, proposal: JSON.stringify(edit), created: now });
      return { status: 'proposed', asset: id, name, change, base: current };
    });
  }

  /**
   * Refuses (LimitExceededError) an agent's edit of a snippet whose text is over the content limit, one
   * an older store holds (a 60 MB paste): agents read only its opening (every MCP door cuts it there),
   * so an edit of it would be made blind to the rest, and putting back the values it wrote as
   * placeholders, then writing the record, held the host's event loop 0.5–1.5 s. Its length is read
   * from the text's stored head, not its document. The user's own doors still edit it (limits.ts).
   */
  checkEditable(id: string): void {
    if (!this.assets.exists(id)) return;
    const chars = this.assets.opening(id, 0).chars;
    if (chars > LIMITS.contentChars) {
      throw new LimitExceededError('contentChars', chars, false, 'It was stored before that limit: agents read only its opening and do not change it (the user can, in Satchel)');
    }
  }

  /** Deletes a snippet (or proposes it), if it is still at `by.expectedRevision`. */
  delete(id: string, by: AgentWriteOptions): AgentWriteResult {
    requireConditional(by);
    return this.context.transaction(() => {
      const current = this.currentRevision(id, by.expectedRevision);
      const name = this.nameOf(id);
      if (!this.changes.reviewing) {
        this.assets.writes.delete(id, by);
        const change = this.changes.changeLog.markOf(id, by.author)?.id;
        return { status: 'applied', asset: id, name, ...(change !== undefined ? { change } : {}) };
      }
      const log = this.changes.changeLog;
      const earlier = log.proposalOf(id, 'deleted', current, by.author);
      if (earlier !== undefined) return { status: 'proposed', asset: id, name, change: earlier.id, base: current };
      const change = newOrderedId();
      this.changes.proposed({ id: change, assetId: id, kind: 'deleted', proposed: true, author: by.author, name, base: current, after: null, proposal: null, created: Date.now() });
      return { status: 'proposed', asset: id, name, change, base: current };
    });
  }

  /** The snippet's revision now, if it is the one expected (a deleted snippet's revisions are kept, but it is gone). */
  private currentRevision(id: string, expected: string): string {
    if (!this.assets.exists(id)) throw new NotFoundError('asset', id);
    const current = this.history.current(id);
    if (current !== expected) throw new RevisionConflictError(id, expected, current);
    return current;
  }

  private nameOf(id: string): string {
    return this.assets.summaries([id])[0]?.name ?? '';
  }
}

function requireAgent(author: Author): void {
  if (!isAgent(author)) throw new InvalidInputError(`An agent's write needs an agent as its author, not ${author.kind}`);
}

function requireConditional(by: AgentWriteOptions): void {
  requireAgent(by.author);
  if (!by.expectedRevision) throw new InvalidInputError('An agent must name the revision it last read (expected_revision) to change or delete a snippet');
}
