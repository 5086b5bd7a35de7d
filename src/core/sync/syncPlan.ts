/**
 * What one sync does, decided before anything is written: for each record changed on this machine
 * (the dirty list, or the whole library on a first sync), changed on the remote (the two commits'
 * trees compared) or with a base of its own, the base, local and remote versions are compared by
 * their folders' git ids, and only records changed on both sides are read and merged
 * (recordMerge.ts). The plan is the two commits to write: this machine's state on the base, and
 * the merge on the remote's head.
 */
import type { VaultRepo } from './vaultRepo.ts';
import type { MergeNotice } from './recordMerge.ts';
import { oidOf, type SyncKind, type SyncRecord } from './syncKinds.ts';
import type { VaultFile } from './vaultFormat.ts';

/** Records read between turns of the event loop. */
const READ_PAGE = 500;

/**
 * A record the plan takes as this machine has it, without holding it (issue 34: a first sync takes
 * the whole library so, and held it all from reading to the apply): the commit reads it again and
 * refuses it unless its folder id is still the plan's (`localOids`).
 */
export const AS_HERE: unique symbol = Symbol('as here');
/** What the plan puts in a commit for a record: its version, undefined (deleted), or AS_HERE (read again). */
export type Planned<R> = R | undefined | typeof AS_HERE;

export interface PlanInputs<R extends SyncRecord> {
  readonly repo: VaultRepo;
  readonly kind: SyncKind<R>;
  /** The commit last synced, when there is one (and the remote still has the branch). */
  readonly base: string | undefined;
  /** The remote branch's head, when it exists. */
  readonly remote: string | undefined;
  /** Ids changed here since the last sync (every id on a first sync). */
  readonly dirty: Iterable<string>;
  /** Ids whose folders differ between the base and the remote's head. */
  readonly remoteChanged: Iterable<string>;
  /** Records with a base of their own (their folder's id; '' when absent). */
  readonly bases: ReadonlyMap<string, string>;
  /**
   * With no base commit because the remote's history was replaced (syncBase.ts): the versions
   * each side's history held of each folder, so that a record both hold keeps the side whose
   * version the other had before (the other's is older), rather than conflicting.
   */
  readonly history?: VersionHistory | undefined;
  /** This machine's record, read now (as it may leave the machine). */
  read(id: string): R | undefined | Promise<R | undefined>;
  /**
   * Hold every record read, as the commit writes it (a sync run again because a record changed between
   * its plan and its commit: holding them is what makes the second try certain to go through); otherwise
   * only the records merged are held, the others are AS_HERE.
   */
  readonly holdRecords?: boolean | undefined;
  readonly signal?: AbortSignal | undefined;
  /** A record of the remote's that could not be read (reported, and left as it is). */
  onBad?(id: string, reason: string): void;
  /** Records read here so far, of how many (a first sync reads the whole library). */
  onRead?(done: number, total: number): void;
}

/** Every version (folder id) each side's history held, by the folder's path. */
export interface VersionHistory {
  readonly ours: ReadonlyMap<string, ReadonlySet<string>>;
  readonly theirs: ReadonlyMap<string, ReadonlySet<string>>;
}

export interface PlanNotice {
  readonly id: string;
  /** Absent: a snippet. */
  readonly kind?: 'conversation' | undefined;
  readonly name: string;
  /** `remote-rewound`: the remote lost commits this machine had synced (syncBase.ts); `id` is then the commit merged from ('' for none), `name` the remote. */
  readonly notice: MergeNotice | 'remote-rewound';
  /** The conflict copy made of this machine's version. */
  readonly copy?: string | undefined;
  /** This machine's name of it, replaced by the remote's (both renamed it). */
  readonly localName?: string | undefined;
}

export interface SyncPlan<R extends SyncRecord = SyncRecord> {
  readonly kind: SyncKind<R>;
  /** This machine's versions that differ from the base commit's (the local commit's changes), but for `unread` (`changesOf`). */
  readonly local: Map<string, Planned<R>>;
  /** The merge's versions that differ from the remote's (the merged commit's changes: what is sent), but for `unread` (`changesOf`). */
  readonly sent: Map<string, Planned<R>>;
  /** The names of the first records sent (for the commit's message). */
  readonly sentNames: string[];
  /**
   * Records the plan did not read (AS_HERE in both commits): neither the remote nor a base has them,
   * so they are sent as they are here whatever they hold (a first sync to an empty remote sends the
   * whole library so). The commit reads each once and records its folder id in `localOids`, which is
   * also its merged folder. Each is a change of both commits, AS_HERE, held here only (issue 34: not
   * in `local`, `sent` or `mergedOids` too, each a map of 100k ids at a first sync).
   */
  readonly unread: ReadonlySet<string>;
  /** Records the merge deletes here, and there. */
  readonly deletesHere: number;
  readonly deletesThere: number;
  /** Records whose merged version differs from this machine's (what the sync will write here). */
  readonly received: number;
  readonly notices: PlanNotice[];
  /** Every id the plan looked at. */
  readonly ids: ReadonlySet<string>;
  /** Each id's folder here when the plan read it, and in the merge (undefined: absent; `unread`'s merged folder is its `localOids`). */
  readonly localOids: Map<string, string | undefined>;
  readonly mergedOids: Map<string, string | undefined>;
  /** The merge's version of each record it changed on either side, as far as the plan holds it (records taken whole from the remote are read when applied). */
  readonly mergedRecords: ReadonlyMap<string, R | undefined>;
  /** Each record's base as the merge took it (undefined: absent). */
  readonly baseOids: ReadonlyMap<string, string | undefined>;
}

export async function planSync<R extends SyncRecord>(inputs: PlanInputs<R>): Promise<SyncPlan<R>> {
  const { repo, base, remote, kind } = inputs;
  // Added one by one: no array of them first (a first sync's are the whole library).
  const ids = new Set<string>(inputs.dirty);
  for (const id of inputs.remoteChanged) ids.add(id);
  for (const id of inputs.bases.keys()) ids.add(id);
  // Nobody pushed since the last sync: the remote's folders are the base's (one lookup, not two).
  const baseCommit = await repo.folders(base, ids, kind.dir);
  const theirs = base === remote ? baseCommit : await repo.folders(remote, ids, kind.dir);
  const sentNames: string[] = [];
  const { ours, unread } = await readOurs(inputs, ids, baseCommit, theirs, sentNames);
  const draft: Draft<R> = {
    kind,
    ids,
    local: new Map(),
    sent: new Map(),
    sentNames,
    notices: [],
    localOids: new Map(),
    baseOids: new Map(),
    copies: new Map(),
    deletesHere: 0,
    deletesThere: 0,
    received: 0,
  };
  for (const [id, o] of ours) draft.localOids.set(id, o.oid);
  const toMerge = compare(inputs, draft, ours, unread, baseCommit, theirs);
  if (toMerge.length > 0) {
    await mergeBoth(inputs, draft, toMerge, ours, theirs);
    await addCopies(inputs, draft);
  }
  // A record sent as it is here is here already: the apply needs only the versions that differ from this machine's.
  const mergedRecords = new Map<string, R | undefined>(draft.copies);
  for (const [id, record] of draft.sent) if (record !== AS_HERE) mergedRecords.set(id, record);
  const mergedOids = new Map<string, string | undefined>();
  for (const id of ids) {
    // A record the plan did not read is merged as it is here: its localOids once the commit reads it (no second map of 100k ids).
    if (!unread.has(id)) mergedOids.set(id, draft.sent.get(id) === AS_HERE ? draft.localOids.get(id) : mergedRecords.has(id) ? oidOf(kind, mergedRecords.get(id)) : theirs.get(id));
  }
  for (const record of mergedRecords.values()) if (record !== undefined && draft.sentNames.length < SENT_NAMES) draft.sentNames.push(kind.label(record));
  const { local, sent, deletesHere, deletesThere, received, notices, localOids, baseOids } = draft;
  return { kind, local, sent, sentNames, unread, deletesHere, deletesThere, received, notices, ids, localOids, mergedOids, mergedRecords, baseOids };
}

/** Names a commit's message gives. */
const SENT_NAMES = 3;

/** This machine's version of each record the plan read (held only when it is merged, or all held: `holdRecords`), and its folder id. */
type Ours<R> = Map<string, { readonly record: R | undefined; readonly oid: string | undefined }>;

/** The plan as it is being made. */
interface Draft<R extends SyncRecord> {
  readonly kind: SyncKind<R>;
  readonly ids: Set<string>;
  readonly local: Map<string, Planned<R>>;
  readonly sent: Map<string, Planned<R>>;
  readonly sentNames: string[];
  readonly notices: PlanNotice[];
  readonly localOids: Map<string, string | undefined>;
  readonly baseOids: Map<string, string | undefined>;
  /** Conflict copies made of this machine's versions, by their ids. */
  readonly copies: Map<string, R>;
  deletesHere: number;
  deletesThere: number;
  received: number;
}

/**
 * Reads this machine's records, a page between turns of the event loop (a first sync reads the whole
 * library: the host answers between pages). Only the records changed on both sides (merged) are kept,
 * unless `holdRecords`: the others go to the commits as AS_HERE, read again there. A record neither
 * side's history has is not read at all (`unread`); when that is every record (a first sync to an
 * empty remote), `unread` is the plan's own set of ids, not a second set of them (issue 34: 100k ids,
 * and a map of them besides); nothing is added to `ids` after then (conflict copies come of records read).
 */
async function readOurs<R extends SyncRecord>(
  inputs: PlanInputs<R>,
  ids: ReadonlySet<string>,
  baseCommit: ReadonlyMap<string, string>,
  theirs: ReadonlyMap<string, string>,
  sentNames: string[],
): Promise<{ ours: Ours<R>; unread: ReadonlySet<string> }> {
  // Neither side's history has it: sent as it is here, whatever it holds (read once, by the commit).
  const isUnread = (id: string): boolean => inputs.holdRecords !== true && inputs.history === undefined && !theirs.has(id) && !baseCommit.has(id) && !inputs.bases.get(id);
  const ours: Ours<R> = new Map();
  let unreadCount = 0;
  for (const id of ids) if (isUnread(id)) unreadCount++;
  if (unreadCount === ids.size) return { ours, unread: ids };
  const unread = new Set<string>();
  let seen = 0;
  for (const id of ids) {
    seen++;
    if (isUnread(id)) {
      unread.add(id);
      continue;
    }
    const record = await inputs.read(id);
    const oid = oidOf(inputs.kind, record);
    const t = theirs.get(id);
    const b = baseOf(inputs, baseCommit, id, oid, t);
    const merged = oid !== t && oid !== b && t !== b;
    if (record !== undefined && oid !== t && oid !== b && t === b && sentNames.length < SENT_NAMES) sentNames.push(inputs.kind.label(record));
    ours.set(id, { record: inputs.holdRecords === true || merged ? record : undefined, oid });
    if (ours.size % READ_PAGE === 0) {
      inputs.onRead?.(seen, ids.size);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  return { ours, unread };
}

/** The base of a record: its own, else the base commit's, else (no common history: syncBase.ts) a version one side had before the other's. */
function baseOf<R extends SyncRecord>(inputs: PlanInputs<R>, baseCommit: ReadonlyMap<string, string>, id: string, ours: string | undefined, theirs: string | undefined): string | undefined {
  const own = inputs.bases.get(id);
  if (own !== undefined) return own || undefined;
  const inCommit = baseCommit.get(id);
  const history = inputs.history;
  if (inCommit !== undefined || history === undefined || ours === undefined || theirs === undefined) return inCommit;
  const dir = inputs.kind.dir(id);
  if (history.ours.get(dir)?.has(theirs)) return theirs;
  if (history.theirs.get(dir)?.has(ours)) return ours;
  return undefined;
}

/** What the commits take of this machine's record: the record when held, AS_HERE when not (read again). */
function plannedOf<R>(o: { readonly record: R | undefined; readonly oid: string | undefined }): Planned<R> {
  return o.record ?? (o.oid === undefined ? undefined : AS_HERE);
}

/** Compares each record's three folder ids: one side changed it, that side's version; both, returned to be merged. */
function compare<R extends SyncRecord>(
  inputs: PlanInputs<R>,
  draft: Draft<R>,
  ours: Ours<R>,
  unread: ReadonlySet<string>,
  baseCommit: ReadonlyMap<string, string>,
  theirs: ReadonlyMap<string, string>,
): string[] {
  const toMerge: string[] = [];
  for (const id of draft.ids) {
    // A change of both commits, AS_HERE, named by `unread` only; no base (absent from baseOids reads the same).
    if (unread.has(id)) continue;
    const o = ours.get(id)!;
    const planned = plannedOf(o);
    if (o.oid !== baseCommit.get(id)) draft.local.set(id, planned);
    const t = theirs.get(id);
    const b = baseOf(inputs, baseCommit, id, o.oid, t);
    draft.baseOids.set(id, b);
    if (o.oid === t) continue;
    if (o.oid === b) {
      draft.received++;
      if (t === undefined) draft.deletesHere++;
    } else if (t === b) {
      draft.sent.set(id, planned);
      if (o.oid === undefined) draft.deletesThere++;
    } else toMerge.push(id);
  }
  return toMerge;
}

/** Reads the base's and the remote's versions of the records changed on both sides, and merges each (recordMerge.ts). */
async function mergeBoth<R extends SyncRecord>(inputs: PlanInputs<R>, draft: Draft<R>, toMerge: readonly string[], ours: Ours<R>, theirs: ReadonlyMap<string, string>): Promise<void> {
  const { repo, kind } = inputs;
  const foldersOf = (pick: (id: string) => string | undefined): Map<string, string> => new Map(toMerge.flatMap((id) => (pick(id) !== undefined ? [[id, pick(id)!] as const] : [])));
  const parse = (id: string, files: readonly VaultFile[]): R => kind.parse(id, files);
  const [baseRecords, theirRecords] = await Promise.all([repo.records(foldersOf((id) => draft.baseOids.get(id)), parse), repo.records(foldersOf((id) => theirs.get(id)), parse, inputs.onBad)]);
  for (const id of toMerge) {
    // The remote's version cannot be read (reported): nothing is merged or sent; the apply keeps it pending.
    if (theirs.has(id) && !theirRecords.has(id)) continue;
    const o = ours.get(id)!;
    const result = await kind.merge(baseRecords.get(id), o.record, theirRecords.get(id), o.oid, (b, x, y) => repo.mergeText(b, x, y));
    const mergedOid = oidOf(kind, result.merged);
    if (mergedOid !== theirs.get(id)) draft.sent.set(id, result.merged);
    if (mergedOid !== o.oid) draft.received++;
    if (result.merged === undefined) {
      if (o.record !== undefined) draft.deletesHere++;
      if (theirs.has(id)) draft.deletesThere++;
    }
    if (result.copy) draft.copies.set(result.copy.id, result.copy);
    const shown = result.merged ?? o.record;
    if (result.notice) {
      draft.notices.push({ id, ...(kind.name === 'conversation' ? { kind: kind.name } : {}), name: shown ? kind.label(shown) : id, notice: result.notice, ...(result.copy ? { copy: result.copy.id } : {}), ...(result.localName !== undefined ? { localName: result.localName } : {}) });
    }
  }
}

/** The conflict copies join the plan; a copy made before (a sync run again after a crash) is already on the remote: not sent twice. */
async function addCopies<R extends SyncRecord>(inputs: PlanInputs<R>, draft: Draft<R>): Promise<void> {
  const { kind } = inputs;
  const copiesThere = await inputs.repo.folders(inputs.remote, draft.copies.keys(), kind.dir);
  for (const [id, copy] of draft.copies) {
    draft.ids.add(id);
    const here = oidOf(kind, await inputs.read(id));
    draft.localOids.set(id, here);
    const oid = oidOf(kind, copy);
    if (copiesThere.get(id) !== oid) draft.sent.set(id, copy);
    if (here !== oid) draft.received++;
  }
}

/** One of a plan's commits' changes: its map's, then every record it did not read (AS_HERE in both). */
export function* changesOf<R extends SyncRecord>(plan: SyncPlan<R>, commit: 'local' | 'sent'): Generator<[string, Planned<R>]> {
  yield* plan[commit];
  for (const id of plan.unread) yield [id, AS_HERE];
}

/** How many records one of a plan's commits changes. */
export function changeCount(plan: SyncPlan, commit: 'local' | 'sent'): number {
  return plan[commit].size + plan.unread.size;
}
