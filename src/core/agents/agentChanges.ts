/**
 * What agents did that the user has not reviewed: every write an agent made (an MCP client, an
 * agent inside VS Code) is marked, and, while agent writes wait for review, an agent's write is a
 * proposal that does not count until the user accepts it. The user accepts a change (its mark
 * goes; a proposal is applied as the agent's write) or reverts it (the revision before comes back,
 * as the user's own write; a proposal is dropped). Schema and rows: schema.ts, changeLog.ts.
 *
 * Marks are recorded inside each write's transaction (the assets area tells `written` of every
 * write it makes, agents' or not), so an acknowledged agent write is always listed, and a write
 * that failed is not.
 */
import type { StoreContext } from '../context.ts';
import { ConflictError, DomainError, ForbiddenError, NotFoundError, RevisionConflictError, UnsupportedError, type DomainErrorCode } from '../errors.ts';
import { isAgent, type Author, type WriteOptions } from '../history/authors.ts';
import type { TrackedWrite } from '../history/revisionTracker.ts';
import type { HistoryService } from '../history/historyService.ts';
import type { AssetService } from '../assets/assetService.ts';
import { newOrderedId } from '../time.ts';
import { ChangeLog, type AgentChangeKind, type ChangeRow, type NewChange } from './changeLog.ts';
import { assetEditOf, memoryWrite, seedOf, type AgentEdit, type AgentSave } from './agentInputs.ts';

export type { AgentChangeKind } from './changeLog.ts';

/** Changes a list answers at most (accepting all of them takes every one). */
export const LISTED_CHANGES = 500;

/** One change as lists show it. */
export interface AgentChange {
  readonly id: string;
  /** The snippet; null for a proposed create (no snippet exists until it is accepted). */
  readonly asset: string | null;
  readonly kind: AgentChangeKind;
  /** `applied`: the write counted, and is marked until reviewed; `proposed`: it waits for review and counts for nothing yet. */
  readonly status: 'applied' | 'proposed';
  readonly agent: Author;
  /** The snippet's name now (as proposed, for a proposal; its last, once deleted). */
  readonly name: string;
  /** Applied: the revision before the agent's first write (null for a create). Proposed: the revision it was proposed against. */
  readonly before: string | null;
  /** Applied: the revision the agent's last write left (null for a delete, and for proposals). */
  readonly after: string | null;
  /** The agent's writes this change covers: consecutive writes of one agent to one snippet share one change. */
  readonly writes: number;
  /** ISO-8601 UTC. */
  readonly created: string;
  readonly updated: string;
}

export interface AgentChangeList {
  /** Whether agent writes wait for review now. */
  readonly reviewing: boolean;
  /** Every change, listed or not. */
  readonly total: number;
  /** Newest first, at most LISTED_CHANGES. */
  readonly changes: readonly AgentChange[];
}

/** One change with what a proposal would write. */
export interface AgentChangeDetail extends AgentChange {
  /** A proposed create: the snippet it would save. */
  readonly save?: AgentSave;
  /** A proposed edit: what it would change. */
  readonly edit?: AgentEdit;
}

export interface ReviewResult {
  readonly change: string;
  /** `accepted`; `reverted` (the revision before is back); `rejected` (a proposal dropped). */
  readonly status: 'accepted' | 'reverted' | 'rejected';
  readonly asset?: string;
  /** The snippet's revision after a write the review made (a proposal applied, a change reverted). */
  readonly revision?: string;
}

export interface AcceptAllResult {
  readonly accepted: readonly string[];
  /** Proposals that could not be applied (the snippet changed or was deleted since): they stay listed. */
  readonly failed: ReadonlyArray<{ readonly change: string; readonly code: DomainErrorCode; readonly message: string; readonly currentRevision?: string }>;
}

/** Brings a deleted asset back from the trash, whole, as `by`'s write (the trash area). */
export type RestoreDeleted = (assetId: string, by: WriteOptions) => void;

export interface AgentChangesOptions {
  /**
   * Agent writes wait for review (proposals) instead of counting at once. Given, it is kept in the
   * store as the user's choice; left out, the store's last choice stands (off when never made).
   */
  readonly review?: boolean | undefined;
  /** How a deleted asset comes back (the trash); without it, reverting a delete is refused. */
  readonly restoreDeleted?: RestoreDeleted;
}

/** A review of an agent's change found its snippet changed since, by someone else: nothing was written. */
export class ChangedSinceError extends RevisionConflictError {
  constructor(conflict: RevisionConflictError, what: string) {
    super(conflict.assetId, conflict.expected, conflict.current);
    this.message = `The snippet ${JSON.stringify(conflict.assetId)} changed since ${what} (its current revision is ${conflict.current}); nothing was written. ${
      what.startsWith('the agent proposed') ? 'Reject the proposal, or have the agent propose it again on the current revision.' : "Open the snippet's history to restore a revision yourself, or accept the change."
    }`;
  }
}

export class AgentChanges {
  private readonly context: StoreContext;
  private readonly log: ChangeLog;
  private readonly assets: AssetService;
  private readonly history: HistoryService;
  private readonly restoreDeleted: RestoreDeleted | undefined;
  /** Proposals being applied (a create awaits its language): a second accept of one is refused. */
  private readonly accepting = new Set<string>();
  private review: boolean;

  constructor(context: StoreContext, assets: AssetService, history: HistoryService, options: AgentChangesOptions = {}) {
    this.context = context;
    this.log = new ChangeLog(context.database);
    this.assets = assets;
    this.history = history;
    this.restoreDeleted = options.restoreDeleted;
    const stored = this.log.reviewSetting();
    this.review = options.review ?? stored ?? false;
    if (options.review !== undefined && options.review !== stored) context.transaction(() => this.log.saveReviewSetting(this.review));
  }

  /** Whether agent writes wait for review now. */
  get reviewing(): boolean {
    return this.review;
  }

  /**
   * The user turns review on or off: kept in the store, so a host started later (the CLI, another
   * window) honours it. Proposals already made stay listed either way. Refused to an agent.
   */
  setReviewing(on: boolean, by: Author): boolean {
    refuseAgent(by, 'change whether agent writes wait for review');
    this.context.transaction(() => this.log.saveReviewSetting(on));
    this.review = on;
    return on;
  }

  /** @internal The rows, for the agent doors (agentWrites.ts). */
  get changeLog(): ChangeLog {
    return this.log;
  }

  // ---------------------------------------------------------------- recording (inside each write)

  /** Told of every asset write, inside its transaction (the assets area's onWrite). */
  written(write: TrackedWrite): void {
    if (write.acceptedChange !== undefined) {
      // A proposal the user accepted, applied now: consumed with the write, so accepting one twice at once applies it once.
      if (!this.log.remove(write.acceptedChange)) throw new ConflictError(`The agent change ${write.acceptedChange} was already accepted or rejected`);
      this.published(write.acceptedChange, true);
      return;
    }
    if (!isAgent(write.author)) {
      // Deleting a snippet is the user's answer to what agents did to it.
      if (write.kind === 'deleted') for (const id of this.log.removeMarks(write.assetId)) this.published(id, true);
      return;
    }
    const now = Date.now();
    const continued = write.before === undefined ? undefined : this.log.markEndingAt(write.assetId, write.before, write.author);
    if (continued === undefined) {
      const id = newOrderedId();
      this.log.insert({ id, assetId: write.assetId, kind: write.kind, proposed: false, author: write.author, name: write.name, base: write.before ?? null, after: write.after ?? null, proposal: null, created: now });
      this.published(id);
      return;
    }
    if (write.kind === 'deleted' && continued.kind === 'created') {
      // Made and removed by the same agent: nothing of the user's changed.
      this.log.remove(continued.id);
      this.published(continued.id, true);
      return;
    }
    this.log.extendMark(continued.id, { kind: write.kind === 'deleted' ? 'deleted' : continued.kind, after: write.after ?? null, name: write.name, updated: now });
    this.published(continued.id);
  }

  /** @internal A proposal recorded by the agent doors (agentWrites.ts), inside their transaction. */
  proposed(change: NewChange): void {
    this.log.insert(change);
    this.published(change.id);
  }

  /** @internal Announces a change of the list once the transaction commits. */
  published(id: string, removed = false): void {
    this.context.publish({ kind: 'agent_change', id, ...(removed ? { deleted: true } : {}) });
  }

  // ---------------------------------------------------------------- reads

  list(limit = LISTED_CHANGES): AgentChangeList {
    const rows = this.log.list(Math.max(0, Math.min(limit, LISTED_CHANGES)));
    const names = new Map(this.assets.summaries(rows.filter((row) => !row.proposed && row.assetId !== null).map((row) => row.assetId!)).map((s) => [s.id, s.name]));
    return { reviewing: this.review, total: this.log.count(), changes: rows.map((row) => changeOf(row, names.get(row.assetId ?? ''))) };
  }

  /** Ids of the listed changes, newest first (the stream's connect frame). */
  ids(): string[] {
    return this.log.ids(LISTED_CHANGES);
  }

  get(id: string): AgentChangeDetail {
    const row = this.row(id);
    const name = !row.proposed && row.assetId !== null ? this.assets.summaries([row.assetId])[0]?.name : undefined;
    const change = changeOf(row, name);
    const proposal = row.proposed ? this.log.proposal(id) : null;
    if (proposal === null) return change;
    return row.kind === 'created' ? { ...change, save: JSON.parse(proposal) as AgentSave } : { ...change, edit: JSON.parse(proposal) as AgentEdit };
  }

  // ---------------------------------------------------------------- review (the user's)

  /**
   * Accepts a change: a mark goes (the write stays as it is); a proposal is applied as the agent's
   * write, conditional on the revision it was proposed against (refused with a ChangedSinceError
   * when the snippet changed meanwhile; the proposal stays listed).
   */
  async accept(id: string, by: Author): Promise<ReviewResult> {
    refuseAgent(by, 'accept');
    const row = this.row(id);
    if (!row.proposed) {
      this.context.transaction(() => this.log.remove(id) && this.published(id, true));
      return { change: id, status: 'accepted', ...(row.assetId !== null ? { asset: row.assetId } : {}) };
    }
    if (this.accepting.has(id)) throw new ConflictError(`The agent change ${id} is being accepted already`);
    this.accepting.add(id);
    try {
      return await this.apply(row);
    } finally {
      this.accepting.delete(id);
    }
  }

  /** Accepts every change: marks at once, then each proposal oldest first (one that cannot be applied stays, with the reason). */
  async acceptAll(by: Author): Promise<AcceptAllResult> {
    refuseAgent(by, 'accept');
    const accepted = this.context.transaction(() => {
      const removed = this.log.removeAllMarks();
      for (const id of removed) this.published(id, true);
      return removed;
    });
    const failed: Array<AcceptAllResult['failed'][number]> = [];
    for (const id of this.log.proposalIds()) {
      try {
        await this.accept(id, by);
        accepted.push(id);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        failed.push({ change: id, code: error.code, message: error.message, ...(error instanceof RevisionConflictError ? { currentRevision: error.current } : {}) });
      }
    }
    return { accepted, failed };
  }

  /**
   * Reverts a change as `by`'s own write: a changed snippet gets the revision before the agent's
   * first write back (itself a new revision), a created one goes to the trash, a deleted one comes
   * back from it; a proposal is dropped. Refused (ChangedSinceError) when the snippet changed since
   * the agent's write: reverting would undo that change too.
   */
  revert(id: string, by: Author): ReviewResult {
    refuseAgent(by, 'revert');
    const row = this.row(id);
    if (row.proposed) {
      if (this.accepting.has(id)) throw new ConflictError(`The agent change ${id} is being accepted`);
      this.context.transaction(() => this.log.remove(id) && this.published(id, true));
      return { change: id, status: 'rejected', ...(row.assetId !== null ? { asset: row.assetId } : {}) };
    }
    const asset = row.assetId!;
    return this.context.transaction(() => {
      let revision: string | undefined;
      try {
        if (row.kind === 'changed') revision = this.history.restore(asset, row.base!, { author: by, expectedRevision: row.after! }).id;
        else if (row.kind === 'created') this.assets.writes.delete(asset, { author: by, expectedRevision: row.after! });
        else revision = this.undelete(asset, row.base, by);
      } catch (error) {
        if (error instanceof RevisionConflictError) throw new ChangedSinceError(error, `the agent's change (by ${row.author.name})`);
        throw error;
      }
      if (this.log.remove(id)) this.published(id, true);
      return { change: id, status: 'reverted', asset, ...(revision !== undefined ? { revision } : {}) };
    });
  }

  // ---------------------------------------------------------------- internals

  private row(id: string): ChangeRow {
    const row = this.log.get(id);
    if (row === undefined) throw new NotFoundError('agent change', id);
    return row;
  }

  /** Applies a proposal as its agent's write (the write consumes it: WriteOptions.acceptedChange). */
  private async apply(row: ChangeRow): Promise<ReviewResult> {
    const proposal = this.log.proposal(row.id);
    const by: WriteOptions = { author: row.author, acceptedChange: row.id, ...(row.base !== null ? { expectedRevision: row.base } : {}) };
    if (row.kind === 'created') {
      const save = JSON.parse(proposal!) as AgentSave;
      const asset = await this.assets.writes.create(seedOf(save), { author: row.author, acceptedChange: row.id, within: memoryWrite(this.context.database, save) });
      return { change: row.id, status: 'accepted', asset: asset.id, revision: this.history.current(asset.id) };
    }
    const asset = row.assetId!;
    try {
      return this.context.transaction(() => {
        let revision: string | undefined;
        if (row.kind === 'changed') revision = this.assets.writes.edit(asset, assetEditOf(JSON.parse(proposal!) as AgentEdit), by).revision;
        else this.assets.writes.delete(asset, by);
        // An edit that changes nothing writes nothing, and consumed nothing.
        if (this.log.remove(row.id)) this.published(row.id, true);
        return { change: row.id, status: 'accepted', asset, ...(revision !== undefined ? { revision } : {}) };
      });
    } catch (error) {
      if (error instanceof RevisionConflictError) throw new ChangedSinceError(error, `the agent proposed this change on revision ${row.base}`);
      throw error;
    }
  }

  /** A deleted snippet back from the trash, then at the revision before the agent's first write; its revision. */
  private undelete(asset: string, before: string | null, by: Author): string {
    if (!this.assets.exists(asset)) {
      if (this.restoreDeleted === undefined) throw new UnsupportedError('A deleted snippet cannot be brought back: this store has no trash to restore it from');
      this.restoreDeleted(asset, { author: by });
    }
    const current = this.history.current(asset);
    if (before === null || before === current) return current;
    return this.history.restore(asset, before, { author: by, expectedRevision: current }).id;
  }
}

/** Agents do not review agents' changes: that is what the review is for. */
function refuseAgent(by: Author, what: string): void {
  if (isAgent(by)) throw new ForbiddenError(`An agent (${by.name}) cannot ${what} agent changes; the user reviews them`);
}

function changeOf(row: ChangeRow, currentName: string | undefined): AgentChange {
  return {
    id: row.id,
    asset: row.assetId,
    kind: row.kind,
    status: row.proposed ? 'proposed' : 'applied',
    agent: row.author,
    name: currentName ?? row.name,
    before: row.base,
    after: row.after,
    writes: row.writes,
    created: new Date(row.created).toISOString(),
    updated: new Date(row.updated).toISOString(),
  };
}
