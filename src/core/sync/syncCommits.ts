/**
 * The two commits of one sync (syncEngine.ts, step 4) as fast-import streams them: this machine's
 * state on the base, and the merge on the remote's head. A record the plan took as it is here
 * (AS_HERE, syncPlan.ts) is read when its change is streamed, once: the local commit reads it and
 * the merged commit names the folder that wrote by its tree. Where a kind's records are read
 * (KindSource) is declared here, beside the commits that read them.
 */
import { LOCAL_REF, MERGED_REF, type CommitPlan, type FolderChange } from './vaultRepo.ts';
import { AS_HERE, changeCount, changesOf, type Planned, type SyncPlan } from './syncPlan.ts';
import { folderOf, type SyncKind, type SyncRecord } from './syncKinds.ts';
import type { ScanBeforeSending, SecretsSent } from '../secrets/doorSecrets.ts';

/** Where the engine reads one kind's records here. */
export interface KindSource<R extends SyncRecord = SyncRecord> {
  readonly kind: SyncKind<R>;
  read(id: string): R | undefined;
  /** Every record's id, a page at a time (a first sync's local changes). */
  allIds(): Iterable<readonly string[]>;
  /** How many there are (what a mass delete is weighed against). */
  count(): number;
  /** The record as it may leave this machine (secretGuard.ts: values replaced by placeholders); `read` when absent. */
  readSent?(id: string): Promise<R | undefined>;
  /** Of the records sent, how many went with values hidden and which with their values (secretGuard.ts). */
  sentSecrets?(sent: Iterable<string>): SecretsSent;
  /** Before the plan reads the records: what the door needs done first (secretGuard.ts: snippets not yet scanned, scanned in batches). */
  beforeReading?(options: ScanBeforeSending): Promise<void>;
}

/** The commits to write; the merged one only when `sending`. */
export function commitPlans(plans: readonly SyncPlan[], sources: readonly KindSource[], base: string | undefined, remote: string | undefined, sending: boolean): CommitPlan[] {
  return [
    { ref: LOCAL_REF, parent: base, message: 'This machine before the sync', changes: folderChanges(plans, (plan) => changesOf(plan, 'local'), (plan, id) => readAgain(sources, plan, id)) },
    // A record sent as it is here is the folder the commit before wrote (or the base had): named by its tree, not read again.
    ...(sending ? [{ ref: MERGED_REF, parent: remote, message: () => commitMessage(plans), changes: folderChanges(plans, (plan) => changesOf(plan, 'sent'), (plan, id) => Promise.resolve(treeHere(plan, id))) }] : []),
  ];
}

/** A record sent as it is here: the folder the local commit wrote or the base had (none: it was deleted before the commit read it). */
function treeHere(plan: SyncPlan, id: string): FolderChange[1] {
  const tree = plan.localOids.get(id);
  return tree === undefined ? undefined : { tree };
}

/** This machine's record as it may leave it (`readSent`, else `read`). */
export function readSent(source: KindSource, id: string): Promise<SyncRecord | undefined> | SyncRecord | undefined {
  return source.readSent ? source.readSent(id) : source.read(id);
}

/** A record changed between the plan and the commit (the plan did not hold the version it read, only its folder id). */
export class RecordChangedError extends Error {}

/** A record the plan took as it is here (AS_HERE), read again for the commit: its files, unless it changed since the plan read it. */
async function readAgain(sources: readonly KindSource[], plan: SyncPlan, id: string): Promise<FolderChange[1]> {
  const source = sources.find((candidate) => candidate.kind.name === plan.kind.name)!;
  const record = await readSent(source, id);
  const folder = record === undefined ? undefined : folderOf(plan.kind, record);
  const oid = folder?.oid;
  if (plan.unread.has(id)) {
    // Read now for the first time: what the commit holds is what the apply compares with.
    plan.localOids.set(id, oid);
  } else if (oid !== plan.localOids.get(id)) throw new RecordChangedError(`${plan.kind.plural.slice(0, -1)} ${id} changed while it was being synced`);
  if (record === undefined || folder === undefined) return undefined;
  // A record the plan read was named then (syncPlan.ts readOurs); one it left unread is named here.
  if (plan.sentNames.length < 3 && plan.unread.has(id)) plan.sentNames.push(plan.kind.label(record));
  return folder.files;
}

/** The folders the plans change in one of their commits, by path; each record's files are made as the commit streams them, AS_HERE's by `here`. */
async function* folderChanges(
  plans: readonly SyncPlan[],
  changes: (plan: SyncPlan) => Iterable<[string, Planned<SyncRecord>]>,
  here: (plan: SyncPlan, id: string) => Promise<FolderChange[1]>,
): AsyncGenerator<FolderChange> {
  for (const plan of plans) {
    for (const [id, record] of changes(plan)) yield [plan.kind.dir(id), record === AS_HERE ? await here(plan, id) : record === undefined ? undefined : plan.kind.files(record)];
  }
}

function commitMessage(plans: readonly SyncPlan[]): string {
  let deleted = 0;
  for (const plan of plans) for (const record of plan.sent.values()) if (record === undefined) deleted++;
  const changed = plans.reduce((sum, plan) => sum + changeCount(plan, 'sent'), 0) - deleted;
  const names = plans.flatMap((plan) => plan.sentNames).slice(0, 3);
  return `Sync: ${changed} changed${deleted > 0 ? `, ${deleted} deleted` : ''}${names.length > 0 ? ` (${names.join(', ')}${changed > names.length ? ', …' : ''})` : ''}`;
}
