/**
 * One sync with the remote (docs/sync.md), safe to kill at any step:
 *
 *   1. fetch the remote's branch;
 *   2. finish the sync before, if it pushed but was killed before recording it (its commit is on
 *      the remote);
 *   3. plan: the changed records, three-way merged record by record (syncPlan.ts); a plan that
 *      would delete more than a share of the library stops here and asks;
 *   4. write two commits with one fast-import: this machine's state on the base, and the merge on
 *      the remote's head (so history stays linear);
 *   5. record them as pending (durably), then push, fast-forward only; a rejected push (another
 *      machine pushed first) goes back to 1;
 *   6. apply the merge here and record it as the new base (syncFinish.ts).
 *
 * Killed before 5, nothing changed anywhere but unreferenced objects in the private repository;
 * killed after the push, the next run finds its commit on the remote and does 6 first. Nothing here
 * changes the store before 6, and 6 is idempotent.
 */
import { ConflictError, InvalidInputError, UnsupportedError } from '../errors.ts';
import type { Logger } from '../context.ts';
import { abortError } from './git.ts';
import { LOCAL_REF, MERGED_REF, type VaultRepo } from './vaultRepo.ts';
import { planSync, type PlanNotice } from './syncPlan.ts';
import { VAULT_FORMAT, type VaultAsset } from './vaultFormat.ts';
import type { PendingSync, SyncSettings, SyncState } from './syncState.ts';
import type { SyncFinisher } from './syncFinish.ts';

export type SyncPhase = 'reading' | 'fetching' | 'fetched' | 'merging' | 'committed' | 'pushing' | 'pushed' | 'applying' | 'done';

export interface SyncProgress {
  readonly phase: SyncPhase;
  /** Records applied here so far (while applying), and how many there are to apply. */
  readonly done?: number | undefined;
  readonly total?: number | undefined;
}

export interface SyncOptions {
  readonly signal?: AbortSignal | undefined;
  readonly onProgress?: ((progress: SyncProgress) => void) | undefined;
  /** Go ahead with a sync that deletes more than the share of the library that stops it otherwise. */
  readonly confirmDeletes?: boolean | undefined;
}

export interface SyncSummary {
  readonly remote: string;
  readonly branch: string;
  /** The commit both sides now agree on. */
  readonly commit: string | undefined;
  /** Records this sync changed on the remote, and here. */
  readonly sent: number;
  readonly received: number;
  readonly deletedHere: number;
  readonly deletedThere: number;
  /** Conflict copies made, and records kept because an edit beats a delete. */
  readonly notices: readonly PlanNotice[];
  /** Records of the remote that were not applied here (unreadable, or over a limit), and why. */
  readonly skipped: ReadonlyArray<{ readonly id: string; readonly reason: string }>;
  /** Pushes tried (more than one when another machine pushed first). */
  readonly attempts: number;
  readonly elapsedMs: number;
}

/** A sync would delete more than its share of the library: it stopped before changing anything. */
export class MassDeleteError extends ConflictError {
  readonly deletes: number;
  readonly library: number;
  constructor(deletes: number, library: number, where: string) {
    super(
      `This sync would delete ${deletes} of ${library} snippets ${where}, so it stopped and changed nothing. ` +
        'If that is what you want, sync again confirming the deletes (satchel sync --confirm-deletes).',
    );
    this.deletes = deletes;
    this.library = library;
  }
}

/** Share of the library a sync may delete without asking (and the least it may always delete). */
export const MAX_DELETE_SHARE = 0.5;
const ALWAYS_ALLOWED_DELETES = 4;
/** Pushes tried before giving up when other machines keep pushing first. */
const MAX_ATTEMPTS = 8;

export interface EngineDeps {
  readonly repo: VaultRepo;
  readonly state: SyncState;
  readonly finisher: SyncFinisher;
  read(id: string): VaultAsset | undefined;
  /** Every ordinary asset's id, a page at a time (a first sync's local changes). */
  allIds(): Iterable<readonly string[]>;
  /** How many ordinary assets there are (what a mass delete is weighed against). */
  libraryCount(): number;
  readonly logger: Logger;
  /** Aborted when the store closes: even a sync past its push stops between the batches it applies. */
  readonly closing?: AbortSignal | undefined;
}

function tooMany(deletes: number, library: number): boolean {
  return deletes > ALWAYS_ALLOWED_DELETES && deletes > MAX_DELETE_SHARE * library;
}

export async function runSync(deps: EngineDeps, settings: SyncSettings, options: SyncOptions = {}): Promise<SyncSummary> {
  const started = performance.now();
  const { repo, state } = deps;
  const signal = options.signal;
  const progress = (phase: SyncPhase, done?: number, total?: number): void => options.onProgress?.({ phase, done, total });
  const checkAbort = (): void => {
    if (signal?.aborted) throw abortError(signal);
  };
  await repo.init();
  for (let attempt = 1; ; attempt++) {
    checkAbort();
    progress('fetching');
    const remote = await repo.fetch(settings.remote, settings.branch, signal);
    progress('fetched');
    const pending = state.pending();
    if (pending !== undefined) {
      if (remote !== undefined && (remote === pending.merged || (await repo.isAncestor(pending.merged, remote)))) {
        deps.logger.info('sync: the last sync pushed but did not finish here; finishing it first');
        await deps.finisher.finish(pending, { onProgress: (done, total) => progress('applying', done, total), signal: deps.closing });
      } else state.setPending(undefined);
    }
    // A remote head already synced was checked then.
    if (remote !== undefined && remote !== state.synced()) {
      const format = await repo.formatOf(remote);
      if (format === 0) throw new InvalidInputError(`The branch ${settings.branch} of ${redacted(settings.remote)} is not a Satchel vault (it has no satchel.json); sync with an empty repository or one Satchel wrote.`);
      if (format > VAULT_FORMAT) throw new UnsupportedError(`The remote holds a vault of format ${format}, written by a newer Satchel; update Satchel to sync with it. Nothing was changed.`);
    }
    let synced = state.synced();
    if (synced !== undefined && remote === undefined) {
      if (!options.confirmDeletes) {
        throw new MassDeleteError(deps.libraryCount(), deps.libraryCount(), `(the remote no longer has the branch ${settings.branch}: it was emptied or deleted)`);
      }
      // Confirmed: the library is published again as it is here.
      synced = undefined;
    }
    checkAbort();
    progress('reading');
    // Read before the records are: a change after this seq is one the plan may not have seen.
    const noted = state.dirty();
    const dirty = synced === undefined ? [...new Set([...[...deps.allIds()].flat(), ...noted.ids])] : noted.ids;
    progress('merging');
    const skipped: Array<{ id: string; reason: string }> = [];
    const plan = await planSync({
      repo,
      base: synced,
      remote,
      dirty,
      bases: state.bases(),
      read: (id) => deps.read(id),
      signal,
      onBad: (id, reason) => skipped.push({ id, reason }),
      onRead: (done, total) => progress('reading', done, total),
    });
    const library = deps.libraryCount();
    if (!options.confirmDeletes) {
      if (tooMany(plan.deletesHere, library)) throw new MassDeleteError(plan.deletesHere, library, 'on this machine (they were deleted on the remote)');
      if (tooMany(plan.deletesThere, library)) throw new MassDeleteError(plan.deletesThere, library, 'on the remote (they were deleted on this machine)');
    }
    checkAbort();
    const plans = [
      { ref: LOCAL_REF, parent: synced, message: 'This machine before the sync', changes: plan.local },
      ...(plan.sent.size > 0 || remote === undefined ? [{ ref: MERGED_REF, parent: remote, message: commitMessage(plan.sent), changes: plan.sent }] : []),
    ];
    const written = plan.local.size > 0 || plans.length > 1 ? await repo.commit(plans, signal) : [];
    const local = plan.local.size > 0 ? written[0]! : synced;
    const merged = plans.length > 1 ? written[1]! : remote;
    progress('committed');
    const result: PendingSync | undefined = merged === undefined ? undefined : { base: synced, local: local ?? '', merged };
    if (result !== undefined && merged !== remote) {
      // Recorded before the push: a sync killed after the push finds it and finishes it.
      state.setPending(result);
      progress('pushing');
      if ((await repo.push(settings.remote, settings.branch, result.merged, signal)) === 'rejected') {
        if (attempt >= MAX_ATTEMPTS) throw new ConflictError(`Other machines kept pushing to ${redacted(settings.remote)} first (${attempt} tries); sync again.`);
        deps.logger.info(`sync: the remote moved while merging (try ${attempt}); fetching again`);
        continue;
      }
      progress('pushed');
    }
    const summary = {
      remote: settings.remote,
      branch: settings.branch,
      commit: merged,
      sent: plan.sent.size,
      received: plan.received,
      deletedHere: plan.deletesHere,
      deletedThere: plan.deletesThere,
      notices: plan.notices,
      skipped,
      attempts: attempt,
    };
    if (result !== undefined) {
      const applied = await deps.finisher.finish(
        result,
        { onProgress: (done, total) => progress('applying', done, total), signal: deps.closing, summary: JSON.stringify({ ...summary, at: new Date().toISOString() }) },
        { ...plan, seq: noted.seq },
      );
      skipped.push(...applied.skipped);
    }
    progress('done');
    return { ...summary, elapsedMs: Math.round(performance.now() - started) };
  }
}

function commitMessage(sent: ReadonlyMap<string, VaultAsset | undefined>): string {
  const deleted = [...sent.values()].filter((record) => record === undefined).length;
  const changed = sent.size - deleted;
  const names = [...sent.values()].flatMap((record) => (record ? [record.name] : [])).slice(0, 3);
  return `Sync: ${changed} changed${deleted > 0 ? `, ${deleted} deleted` : ''}${names.length > 0 ? ` (${names.join(', ')}${changed > names.length ? ', …' : ''})` : ''}`;
}

/** A remote's address without the credentials it may carry (https://user:token@host/…). */
export function redacted(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, '$1');
}
