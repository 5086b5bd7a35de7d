/**
 * The history area: an asset's revisions listed, read whole and restored. Revisions are written by
 * the assets area inside each of its writes (revisionTracker.ts); restoring one is such a write,
 * made through the assets area (HistoryTarget), so it is itself a revision and is refused, like any
 * conditional write, when the asset moved on from the revision the caller expected.
 */
import type { StoreContext } from '../context.ts';
import { NotFoundError, StoreUnusableError } from '../errors.ts';
import type { Disposable } from '../lifecycle.ts';
import { BEFORE_HISTORY, type Author, type WriteOptions } from './authors.ts';
import { baselineId, RevisionLog, type RevisionRow } from './revisionLog.ts';
import { RevisionCompactor, type CompactorOptions } from './compaction.ts';
import { CHANGE_BITS, changeKinds, contentHash, contentSize, type AssetState, type ChangeKind, type RevisionContent } from './state.ts';

/** A revision as lists show it. */
export interface RevisionSummary {
  readonly id: string;
  /** ISO-8601 UTC. */
  readonly created: string;
  readonly author: Author;
  readonly name: string;
  readonly language: string;
  /** Content size in bytes. */
  readonly size: number;
  /** What it changed from the revision before ('created' for an asset's first). */
  readonly changes: readonly ChangeKind[];
  /** The revision it restored, when it was a restore. */
  readonly restoredFrom?: string;
}

export interface RevisionList {
  readonly asset: string;
  /** The asset's current revision (the first listed). */
  readonly current: string;
  /** The asset was deleted; its revisions are kept until it is purged. */
  readonly deleted: boolean;
  /** Newest first. */
  readonly revisions: readonly RevisionSummary[];
}

/** One revision whole: the state the asset had. */
export interface Revision extends RevisionSummary {
  readonly asset: string;
  readonly current: boolean;
  readonly content: RevisionContent;
  readonly tags: readonly string[];
  readonly description: string | undefined;
}

/** An asset's state now and when it last changed (ms since the epoch). */
export interface CurrentState {
  readonly state: AssetState;
  readonly updated: number;
}

/** What the history area asks of the assets area. */
export interface HistoryTarget {
  /** Whether the asset exists (one index probe). */
  exists(assetId: string): boolean;
  /** The asset's state now; undefined when there is no such asset (never created, or deleted). */
  current(assetId: string): CurrentState | undefined;
  /** Makes `state` the asset's state in one write (a revision unless nothing changes); returns its current revision. */
  restore(assetId: string, state: AssetState, by: WriteOptions, restoredFrom: string): string;
}

export class HistoryService implements Disposable {
  private readonly context: StoreContext;
  private readonly log: RevisionLog;
  private readonly target: HistoryTarget;
  readonly compactor: RevisionCompactor;

  constructor(context: StoreContext, log: RevisionLog, target: HistoryTarget, compaction: CompactorOptions = {}) {
    this.context = context;
    this.log = log;
    this.target = target;
    this.compactor = new RevisionCompactor(context.database, log, { logger: context.logger, bulkWork: context.bulkWork, ...compaction });
  }

  /** The asset's current revision id: one index lookup (an asset from before revisions has a fixed first id). */
  current(assetId: string): string {
    const head = this.log.headId(assetId);
    if (head !== undefined) return head;
    if (!this.target.exists(assetId)) throw new NotFoundError('asset', assetId);
    return baselineId(assetId);
  }

  list(assetId: string): RevisionList {
    const rows = this.log.list(assetId);
    const now = this.target.current(assetId);
    if (rows.length === 0) {
      if (now === undefined) throw new NotFoundError('asset', assetId);
      const baseline = summaryOf(baselineOf(assetId, now));
      return { asset: assetId, current: baseline.id, deleted: false, revisions: [baseline] };
    }
    return { asset: assetId, current: rows[0]!.id, deleted: now === undefined, revisions: rows.map(summaryOf) };
  }

  get(assetId: string, revisionId: string): Revision {
    const row = this.log.get(assetId, revisionId);
    if (row === undefined) return this.baseline(assetId, revisionId);
    const description = row.descriptionHash === null ? undefined : this.log.text(row.descriptionHash);
    return this.revisionOf(row, this.contentOf(row), description);
  }

  /**
   * `get` with its kept texts inflated on libuv's thread pool (GET of a revision): inflating a
   * 4 Mi-character text on the event loop held it 70–90 ms a read, and 100 concurrent reads
   * seconds.
   */
  async read(assetId: string, revisionId: string): Promise<Revision> {
    const row = this.log.get(assetId, revisionId);
    if (row === undefined) return this.baseline(assetId, revisionId);
    const [content, description] = await Promise.all([
      this.log.contentOffLoop(row.contentHash),
      row.descriptionHash === null ? undefined : this.log.contentOffLoop(row.descriptionHash),
    ]);
    // A text not kept is the asset's current one (or was purged meanwhile): read as `get` does.
    return this.revisionOf(row, content ?? this.contentOf(row), description?.text);
  }

  private baseline(assetId: string, revisionId: string): Revision {
    const now = revisionId === baselineId(assetId) && this.log.headId(assetId) === undefined ? this.target.current(assetId) : undefined;
    if (now === undefined) throw new NotFoundError('revision', revisionId);
    return { ...summaryOf(baselineOf(assetId, now)), asset: assetId, current: true, ...now.state };
  }

  private revisionOf(row: RevisionRow, content: RevisionContent, description: string | undefined): Revision {
    return { ...summaryOf(row), asset: row.assetId, current: this.log.headId(row.assetId) === row.id, content, tags: row.tags, description };
  }

  /**
   * Makes an earlier revision current again: one write, itself a new revision naming the one it
   * restored (none when the asset is already in that state). Returns the asset's current revision.
   */
  restore(assetId: string, revisionId: string, by: WriteOptions): RevisionSummary {
    return this.context.transaction(() => {
      const revision = this.get(assetId, revisionId);
      const state: AssetState = {
        name: revision.name,
        language: revision.language,
        content: revision.content,
        tags: revision.tags,
        description: revision.description,
      };
      const current = this.target.restore(assetId, state, by, revision.id);
      return summaryOf(this.log.get(assetId, current)!);
    });
  }

  /** Deletes every revision of an asset (the trash's purge); returns how many. */
  purge(assetId: string): number {
    return this.context.transaction(() => this.log.purge(assetId));
  }

  dispose(): void {
    this.compactor.dispose();
  }

  /** A revision's content: kept by hash once replaced, else still the asset's own. */
  private contentOf(row: RevisionRow): RevisionContent {
    const kept = this.log.content(row.contentHash);
    if (kept !== undefined) return kept;
    const now = this.target.current(row.assetId)?.state.content;
    if (now !== undefined && contentHash(now) === row.contentHash) return now;
    throw new StoreUnusableError(`The content of revision ${row.id} of asset ${row.assetId} is missing from the store.`);
  }
}

function summaryOf(row: RevisionRow): RevisionSummary {
  return {
    id: row.id,
    created: new Date(row.created).toISOString(),
    author: row.author,
    name: row.name,
    language: row.language,
    size: row.size,
    changes: changeKinds(row.changes),
    ...(row.restoredFrom !== null ? { restoredFrom: row.restoredFrom } : {}),
  };
}

/** The first revision an asset from before revisions will get, as it would be stored now. */
function baselineOf(assetId: string, now: CurrentState): RevisionRow {
  return {
    seq: 0,
    id: baselineId(assetId),
    assetId,
    created: now.updated,
    author: BEFORE_HISTORY,
    changes: CHANGE_BITS.created,
    name: now.state.name,
    language: now.state.language,
    tags: now.state.tags,
    contentHash: '',
    size: contentSize(now.state.content),
    descriptionHash: null,
    restoredFrom: null,
  };
}
