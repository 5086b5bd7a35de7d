/**
 * Keeps an asset's revisions in step with its writes, inside each write's transaction: a write
 * begins a turn before it changes anything (the expected revision is checked there, and an asset
 * written before revisions were kept gets its first one), and finishes it with the state it left;
 * a revision is appended only when the content, name, language, tags or description changed.
 *
 * Storage: a revision names its content by hash. The asset's current content lives in the asset's
 * row; it is kept in `revision_texts` once a write replaces it (or the asset is deleted), so a
 * create stores no second copy, and a rename stores no content at all.
 */
import { RevisionConflictError } from '../errors.ts';
import { newOrderedId } from '../time.ts';
import { BEFORE_HISTORY, type Author, type WriteOptions } from './authors.ts';
import { baselineId, type RevisionLog, type RevisionRow } from './revisionLog.ts';
import { CHANGE_BITS, contentHash, contentSize, sameContent, sameTags, textHash, type RevisionContent } from './state.ts';

/** What a revision reads of the asset document being written (the assets area makes it). */
export interface TrackedAsset {
  readonly id: string;
  /** When the asset last changed, ms since the epoch: the time of an older asset's first revision. */
  readonly updated: number;
  readonly name: string;
  readonly language: string;
  readonly content: RevisionContent;
}

/** The linked parts of an asset's state, read from the store when a write touched them. */
export interface LinkedState {
  tags(assetId: string): string[];
  description(assetId: string): string | undefined;
}

/** Which linked parts a write changed (the others are taken from the current revision, unread). */
export interface Touched {
  readonly tags?: boolean;
  readonly description?: boolean;
}

/** One write's turn (RevisionTurn), as writers use it. */
export interface Turn {
  readonly head: { readonly id: string };
  finish(after: TrackedAsset, touched?: Touched, restoredFrom?: string): string;
  retire(): void;
}

/** What asset writes keep their revisions through (RevisionTracker; the bench measures writes without one). */
export interface RevisionTracking {
  created(asset: TrackedAsset, tags: readonly string[], description: string | undefined, author: Author, acceptedChange?: string): string;
  begin(before: TrackedAsset, by: WriteOptions): Turn;
  /** The asset came back from the trash (inside the restore's transaction): a revision by `author`; returns its id. */
  restored(asset: TrackedAsset, author: Author): string;
}

/**
 * One write of an asset as its revisions saw it, told inside the write's transaction (the agent
 * changes area marks an agent's writes; a listener that throws refuses the write). Writes that
 * changed none of what a revision keeps are not told.
 */
export interface TrackedWrite {
  readonly assetId: string;
  readonly kind: 'created' | 'changed' | 'deleted';
  /** The asset's name after the write (before it, for a delete). */
  readonly name: string;
  readonly author: Author;
  /** The accepted agent change the write applies (WriteOptions.acceptedChange). */
  readonly acceptedChange: string | undefined;
  /** The asset's revision before the write; undefined for a create. */
  readonly before: string | undefined;
  /** Its revision after the write; undefined for a delete. */
  readonly after: string | undefined;
}

export interface TrackerListeners {
  /** A revision was appended to the asset (compaction queues it). */
  readonly onRevision?: (assetId: string) => void;
  /** A write was made (see TrackedWrite). */
  readonly onWrite?: (write: TrackedWrite) => void;
}

export class RevisionTracker implements RevisionTracking {
  private readonly log: RevisionLog;
  private readonly linked: LinkedState;
  private readonly onRevision: (assetId: string) => void;
  private readonly onWrite: (write: TrackedWrite) => void;

  constructor(log: RevisionLog, linked: LinkedState, listeners: TrackerListeners = {}) {
    this.log = log;
    this.linked = linked;
    this.onRevision = listeners.onRevision ?? (() => {});
    this.onWrite = listeners.onWrite ?? (() => {});
  }

  /** A new asset's first revision (inside the create's transaction); returns its id. */
  created(asset: TrackedAsset, tags: readonly string[], description: string | undefined, author: Author, acceptedChange?: string): string {
    const id = newOrderedId();
    this.log.append({
      id,
      assetId: asset.id,
      created: Date.now(),
      author,
      changes: CHANGE_BITS.created,
      ...stateColumns(asset),
      tags,
      descriptionHash: this.keepDescription(description),
      restoredFrom: null,
    });
    this.onWrite({ assetId: asset.id, kind: 'created', name: asset.name, author, acceptedChange, before: undefined, after: id });
    return id;
  }

  /**
   * Before a write changes `before` (inside its transaction): refuses it if the writer expected
   * another revision, and records the state of an asset that has no revision yet.
   */
  begin(before: TrackedAsset, by: WriteOptions): RevisionTurn {
    const head = this.log.head(before.id);
    const current = head?.id ?? baselineId(before.id);
    if (by.expectedRevision !== undefined && by.expectedRevision !== current) throw new RevisionConflictError(before.id, by.expectedRevision, current);
    return new RevisionTurn(this, before, by, head ?? this.baseline(before));
  }

  /** The first revision of an asset written before revisions were kept: its state now, before the write. */
  private baseline(asset: TrackedAsset): RevisionRow {
    const description = this.linked.description(asset.id);
    this.log.append({
      id: baselineId(asset.id),
      assetId: asset.id,
      created: asset.updated,
      author: BEFORE_HISTORY,
      changes: CHANGE_BITS.created,
      ...stateColumns(asset),
      tags: this.linked.tags(asset.id),
      descriptionHash: this.keepDescription(description),
      restoredFrom: null,
    });
    return this.log.head(asset.id)!;
  }

  /** @internal The write's end (RevisionTurn.finish). */
  finish(turn: RevisionTurn, after: TrackedAsset, touched: Touched, restoredFrom: string | undefined): string {
    const { head, before } = turn;
    const contentChanged = !sameContent(before.content, after.content);
    const afterHash = contentChanged ? contentHash(after.content) : head.contentHash;
    const tags = touched.tags ? this.linked.tags(after.id) : head.tags;
    const description = touched.description ? this.linked.description(after.id) : undefined;
    const descriptionHash = touched.description ? (description === undefined ? null : textHash(description)) : head.descriptionHash;
    let changes = 0;
    if (afterHash !== head.contentHash) changes |= CHANGE_BITS.content;
    if (after.name !== head.name) changes |= CHANGE_BITS.name;
    if (after.language !== head.language) changes |= CHANGE_BITS.language;
    if (!sameTags(tags, head.tags)) changes |= CHANGE_BITS.tags;
    if (descriptionHash !== head.descriptionHash) changes |= CHANGE_BITS.description;
    if (changes === 0) return head.id;
    if (contentChanged) this.keepReplaced(head, before.content);
    if (description !== undefined) this.log.keepText(descriptionHash!, description);
    const id = newOrderedId();
    this.log.append({
      id,
      assetId: after.id,
      created: Date.now(),
      author: turn.by.author,
      changes,
      name: after.name,
      language: after.language,
      contentHash: afterHash,
      size: contentChanged ? contentSize(after.content) : head.size,
      tags,
      descriptionHash,
      restoredFrom: restoredFrom ?? null,
    });
    this.onRevision(after.id);
    this.onWrite({ assetId: after.id, kind: 'changed', name: after.name, author: turn.by.author, acceptedChange: turn.by.acceptedChange, before: head.id, after: id });
    return id;
  }

  /** @internal The asset is being deleted (RevisionTurn.retire): its content outlives it with its revisions. */
  retire(turn: RevisionTurn): void {
    this.keepReplaced(turn.head, turn.before.content);
    this.onWrite({ assetId: turn.before.id, kind: 'deleted', name: turn.before.name, author: turn.by.author, acceptedChange: turn.by.acceptedChange, before: turn.head.id, after: undefined });
  }

  /**
   * An asset brought back from the trash: its last revision's state again (the one it was deleted
   * in), as a new revision by whoever restored it. An asset whose revisions were lost gets a first one.
   */
  restored(asset: TrackedAsset, author: Author): string {
    const head = this.log.head(asset.id);
    if (head === undefined) return this.created(asset, this.linked.tags(asset.id), this.linked.description(asset.id), author);
    const { seq: _seq, ...state } = head;
    const id = newOrderedId();
    this.log.append({ ...state, id, created: Date.now(), author, changes: CHANGE_BITS.restored, restoredFrom: null });
    this.onRevision(asset.id);
    return id;
  }

  /**
   * Keeps the content the current revision names before the asset stops holding it. The hash is
   * made from the content itself: should the revision name another (a change no revision
   * recorded), it is corrected, so a revision's hash always finds what the asset really held.
   */
  private keepReplaced(head: RevisionRow, content: RevisionContent): void {
    const hash = contentHash(content);
    if (hash !== head.contentHash) this.log.correctContent(head.seq, hash, contentSize(content));
    this.log.keepContent(hash, content);
  }

  private keepDescription(description: string | undefined): string | null {
    if (description === undefined) return null;
    const hash = textHash(description);
    this.log.keepText(hash, description);
    return hash;
  }
}

/** One write's turn: begun before the write changed anything, finished (or retired) once it has. */
export class RevisionTurn implements Turn {
  private readonly tracker: RevisionTracker;
  readonly before: TrackedAsset;
  /** Who makes the write (and the agent change it applies, if any). */
  readonly by: WriteOptions;
  /** The asset's revision when the write began. */
  readonly head: RevisionRow;

  constructor(tracker: RevisionTracker, before: TrackedAsset, by: WriteOptions, head: RevisionRow) {
    this.tracker = tracker;
    this.before = before;
    this.by = by;
    this.head = head;
  }

  /** Appends a revision if the state changed; returns the asset's current revision id either way. */
  finish(after: TrackedAsset, touched: Touched = {}, restoredFrom?: string): string {
    return this.tracker.finish(this, after, touched, restoredFrom);
  }

  /** The asset is being deleted: its revisions are kept whole. */
  retire(): void {
    this.tracker.retire(this);
  }
}

function stateColumns(asset: TrackedAsset): { name: string; language: string; contentHash: string; size: number } {
  return { name: asset.name, language: asset.language, contentHash: contentHash(asset.content), size: contentSize(asset.content) };
}
