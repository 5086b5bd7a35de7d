/**
 * One sync with the remote (docs/sync.md), safe to kill at any step:
 *
 *   1. fetch the remote's branch;
 *   2. finish the sync before, if it pushed but was killed before recording it (its commit is on
 *      the remote);
 *   3. plan: the changed records of each kind (snippets, conversations), three-way merged record
 *      by record (syncPlan.ts); a plan that would delete more than a share of the library stops
 *      here and asks;
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
import { DEFAULT_MAX_DELETE_PERCENT, MassDeleteError, tooMany, validDeletePercent } from './massDelete.ts';
import type { Logger } from '../context.ts';
import { abortError } from './git.ts';
import type { VaultRepo } from './vaultRepo.ts';
import { changeCount, changesOf, planSync, type PlanNotice, type SyncPlan } from './syncPlan.ts';
import { commitPlans, readSent, RecordChangedError, type KindSource } from './syncCommits.ts';
import { syncBase, type SyncBase } from './syncBase.ts';
import { noticeText } from './syncNotices.ts';
import { VAULT_FORMAT } from './vaultFormat.ts';
import { validBranch, type PendingSync, type SyncSettings, type SyncState } from './syncState.ts';
import type { FinishOptions, KnownPlan, Skipped, SyncFinisher } from './syncFinish.ts';
import type { SyncKindName } from './syncKinds.ts';
import type { SecretsSent } from '../secrets/doorSecrets.ts';

export type SyncPhase = 'reading' | 'fetching' | 'fetched' | 'scanning' | 'merging' | 'committed' | 'pushing' | 'pushed' | 'applying' | 'done';

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
  /** The share of the library (0-100 %) a sync may delete without asking (default DEFAULT_MAX_DELETE_PERCENT). */
  readonly maxDeletePercent?: number | undefined;
}

export interface SyncSummary {
  readonly remote: string;
  readonly branch: string;
  /** The commit both sides now agree on. */
  readonly commit: string | undefined;
  /** Records (snippets and conversations) this sync changed on the remote, and here. */
  readonly sent: number;
  readonly received: number;
  readonly deletedHere: number;
  readonly deletedThere: number;
  /** Conflicts settled, and records kept because an edit beats a delete. */
  readonly notices: readonly PlanNotice[];
  /** Records of the remote that were not applied here (unreadable, or over a limit), and why. */
  readonly skipped: ReadonlyArray<{ readonly id: string; readonly reason: string }>;
  /** Pushes tried (more than one when another machine pushed first). */
  readonly attempts: number;
  /** The copy of the store taken before this sync deleted much of it here (docs/backups.md). */
  readonly backup?: string | undefined;
  /** Snippets sent with their secrets replaced by placeholders, and those sent with their values by the user's choice (absent: no secrets door). */
  readonly secrets?: SecretsSent | undefined;
  readonly elapsedMs: number;
}

/** Pushes tried before giving up when other machines keep pushing first. */
const MAX_ATTEMPTS = 8;

export type { KindSource } from './syncCommits.ts';

export interface EngineDeps {
  readonly repo: VaultRepo;
  readonly state: SyncState;
  readonly finisher: SyncFinisher;
  /** Each kind's records, snippets first. */
  readonly sources: readonly KindSource[];
  readonly logger: Logger;
  /** Aborted when the store closes: even a sync past its push stops between the batches it applies. */
  readonly closing?: AbortSignal | undefined;
  /**
   * Takes a copy of the store before a sync deletes `deleting` of its `total` records here
   * (backups.ts decides when; `confirmed`: more than the sync's own guard lets through unasked);
   * its name, or undefined when none was taken. Rejects: the sync stops before its push.
   */
  beforeMassDelete?(deleting: number, total: number, confirmed: boolean, signal?: AbortSignal): Promise<string | undefined>;
}

export async function runSync(deps: EngineDeps, settings: SyncSettings, options: SyncOptions = {}): Promise<SyncSummary> {
  const started = performance.now();
  const run = runOf(deps, options);
  await deps.repo.init();
  let backup: string | undefined;
  // Set when a record changed between a plan and its commit: the next try holds what it reads.
  let holdRecords = false;
  for (let attempt = 1; ; attempt++) {
    run.checkAbort();
    const fetched = await fetchRemote(run, settings);
    settings = fetched.settings;
    const { remote } = fetched;
    await finishPushed(run, remote);
    await checkVault(run, settings, remote);
    const start = await startingPoint(run, settings, remote);
    await beforeReading(run);
    run.checkAbort();
    const { plans, skipped, seq } = await planKinds(run, start, remote, holdRecords);
    backup ??= await backUpBeforeDeletes(deps, plans, run.percent, run.signal);
    run.checkAbort();
    let result: PendingSync | undefined;
    try {
      result = await writeCommits(run, plans, start.base, remote);
    } catch (error) {
      if (!(error instanceof RecordChangedError)) throw error;
      deps.logger.info(`sync: ${error.message}; planning again (try ${attempt})`);
      holdRecords = true;
      continue;
    }
    if (result !== undefined && result.merged !== remote) {
      // Recorded before the push: a sync killed after the push finds it and finishes it.
      deps.state.setPending(result);
      run.progress('pushing');
      if ((await deps.repo.push(settings.remote, settings.branch, result.merged, run.signal)) === 'rejected') {
        if (attempt >= MAX_ATTEMPTS) throw new ConflictError(`Other machines kept pushing to ${redacted(settings.remote)} first (${attempt} tries); sync again.`);
        deps.logger.info(`sync: the remote moved while merging (try ${attempt}); fetching again`);
        continue;
      }
      run.progress('pushed');
    }
    const secrets = secretsSent(deps.sources, plans);
    const summary = { ...summarize(settings, plans, result?.merged ?? remote, { notices: start.rewound ? [start.rewound.notice] : [], skipped, attempts: attempt, backup }), ...(secrets ? { secrets } : {}) };
    if (result !== undefined) {
      const known = new Map<SyncKindName, KnownPlan>(plans.map((plan) => [plan.kind.name, plan]));
      // The records the apply could not write join the summary (`skipped` is its list) before it is kept.
      const kept = (applied: Skipped): string => JSON.stringify({ ...summary, skipped: skipped.concat(applied), at: new Date().toISOString() });
      const { skipped: applied } = await deps.finisher.finish(result, { ...run.applying, summary: kept }, { plans: known, seq });
      skipped.push(...applied);
    }
    run.progress('done');
    return { ...summary, elapsedMs: Math.round(performance.now() - started) };
  }
}

/** What every step of one sync shares: its deps and options, the share it may delete, progress and cancel. */
interface Run {
  readonly deps: EngineDeps;
  readonly options: SyncOptions;
  readonly signal: AbortSignal | undefined;
  readonly percent: number;
  readonly applying: FinishOptions;
  progress(phase: SyncPhase, done?: number, total?: number): void;
  checkAbort(): void;
}

function runOf(deps: EngineDeps, options: SyncOptions): Run {
  const percent = options.maxDeletePercent ?? DEFAULT_MAX_DELETE_PERCENT;
  if (!validDeletePercent(percent)) throw new InvalidInputError(`The share of the library a sync may delete without asking is a percentage from 0 to 100, not ${percent}`);
  const signal = options.signal;
  const progress = (phase: SyncPhase, done?: number, total?: number): void => options.onProgress?.({ phase, done, total });
  return {
    deps,
    options,
    signal,
    percent,
    applying: { onProgress: (done, total) => progress('applying', done, total), signal: deps.closing },
    progress,
    checkAbort: () => {
      if (signal?.aborted) throw abortError(signal);
    },
  };
}

/** Step 1: the remote branch's head; with no branch named and none there yet, the branch the remote's HEAD names. */
async function fetchRemote(run: Run, settings: SyncSettings): Promise<{ remote: string | undefined; settings: SyncSettings }> {
  const { repo, state, logger } = run.deps;
  run.progress('fetching');
  let remote = await repo.fetch(settings.remote, settings.branch, run.signal);
  if (remote === undefined && state.synced() === undefined && settings.branchChosen !== true) {
    // So that a `git clone` of it checks the vault out (plain `git init --bare` of many gits names master, GitHub's main).
    const head = await repo.remoteHead(settings.remote, run.signal);
    if (head !== undefined && head !== settings.branch && validBranch(head)) {
      logger.info(`sync: the HEAD of ${redacted(settings.remote)} names ${head}: syncing that branch`);
      state.followBranch(head);
      settings = { ...settings, branch: head };
      remote = await repo.fetch(settings.remote, settings.branch, run.signal);
    }
  }
  run.progress('fetched');
  return { remote, settings };
}

/** Step 2: a sync that pushed and was killed before recording it is finished first (its commit is on the remote); otherwise forgotten. */
async function finishPushed(run: Run, remote: string | undefined): Promise<void> {
  const { repo, state, finisher, logger } = run.deps;
  const pending = state.pending();
  if (pending === undefined) return;
  if (remote !== undefined && (remote === pending.merged || (await repo.isAncestor(pending.merged, remote)))) {
    logger.info('sync: the last sync pushed but did not finish here; finishing it first');
    await finisher.finish(pending, run.applying);
  } else state.setPending(undefined);
}

/** Refuses a branch that is not a Satchel vault, or one of a newer format (a head already synced was checked then). */
async function checkVault(run: Run, settings: SyncSettings, remote: string | undefined): Promise<void> {
  if (remote === undefined || remote === run.deps.state.synced()) return;
  const format = await run.deps.repo.formatOf(remote);
  if (format === 0) throw new InvalidInputError(`The branch ${settings.branch} of ${redacted(settings.remote)} is not a Satchel vault (it has no satchel.json); sync with an empty repository, one Satchel wrote, or another branch of this one (--branch).`);
  if (format > VAULT_FORMAT) throw new UnsupportedError(`The remote holds a vault of format ${format}, written by a newer Satchel; update Satchel to sync with it. Nothing was changed.`);
}

/** The commit the merge starts from (syncBase.ts); a branch gone from the remote stops the sync unless confirmed (then the library is published again). */
async function startingPoint(run: Run, settings: SyncSettings, remote: string | undefined): Promise<SyncBase> {
  const { deps } = run;
  let synced = deps.state.synced();
  if (synced !== undefined && remote === undefined) {
    if (!run.options.confirmDeletes) {
      const library = deps.sources.reduce((sum, source) => sum + source.count(), 0);
      throw new MassDeleteError(library, library, `(the remote no longer has the branch ${settings.branch}: it was emptied or deleted)`, 'records', run.percent);
    }
    synced = undefined;
  }
  run.checkAbort();
  run.progress('reading');
  const start = await syncBase(deps.repo, synced, remote, deps.sources.map((source) => source.kind.root), redacted(settings.remote), run.signal);
  if (start.rewound) deps.logger.warn(`sync: ${noticeText(start.rewound.notice).message}`);
  return start;
}

/** What the sources need done before their records are read: the secrets door's snippets not yet scanned, scanned in batches ('scanning'). */
async function beforeReading(run: Run): Promise<void> {
  for (const source of run.deps.sources) {
    await source.beforeReading?.({ signal: run.signal, onProgress: (done, total) => run.progress('scanning', done, total) });
  }
}

/** Step 3: each kind's plan (syncPlan.ts), stopped by the delete guard unless confirmed; and the seq of the last change the plans saw. */
async function planKinds(run: Run, start: SyncBase, remote: string | undefined, holdRecords: boolean): Promise<{ plans: SyncPlan[]; skipped: Skipped; seq: number }> {
  const { repo, state, sources } = run.deps;
  const { base, rewound } = start;
  // Read before the records are: a change after this seq is one the plan may not have seen.
  const noted = state.dirty();
  const remoteChanged = await repo.changedIds(base, remote, sources.map((source) => source.kind.root), run.signal);
  run.progress('merging');
  const skipped: Skipped = [];
  const plans: SyncPlan[] = [];
  for (const source of sources) {
    const { kind } = source;
    const bases = state.bases(kind.name);
    const since = rewound?.since === 'all' ? undefined : rewound?.since.get(kind.root);
    // What this machine synced since the base counts as changed here; records' own bases are relative to the commit the remote lost.
    const localIds = [...(noted.ids.get(kind.name) ?? []), ...(rewound ? [...bases.keys(), ...(since ?? [])] : [])];
    const plan = await planSync({
      repo,
      kind,
      base,
      remote,
      // A first sync: every id, a page at a time (the plan makes the one set of them it keeps).
      dirty: base === undefined ? everyId(source, localIds) : localIds,
      remoteChanged: remoteChanged.get(kind.root) ?? [],
      bases: rewound ? new Map() : bases,
      history: rewound?.history?.get(kind.root),
      read: (id) => readSent(source, id),
      holdRecords,
      signal: run.signal,
      onBad: (id, reason) => skipped.push({ id, reason }),
      onRead: (done, total) => run.progress('reading', done, total),
    });
    if (!run.options.confirmDeletes) guardDeletes(plan, source.count(), run.percent);
    plans.push(plan);
  }
  return { plans, skipped, seq: noted.seq };
}

function* everyId(source: KindSource, more: readonly string[]): Generator<string> {
  for (const page of source.allIds()) yield* page;
  yield* more;
}

/** Stops a plan that deletes more than the share, weighed against what each side holds now (the remote still has what was deleted here). */
function guardDeletes(plan: SyncPlan, here: number, percent: number): void {
  const there = here + plan.deletesThere;
  const what = plan.kind.plural;
  if (tooMany(plan.deletesHere, here, percent)) throw new MassDeleteError(plan.deletesHere, here, 'on this machine (they were deleted on the remote)', what, percent);
  if (tooMany(plan.deletesThere, there, percent)) throw new MassDeleteError(plan.deletesThere, there, 'on the remote (they were deleted on this machine)', what, percent);
}

/** Step 4: this machine's state on the base and the merge on the remote's head, in one fast-import; what to push and apply (undefined: nothing anywhere). */
async function writeCommits(run: Run, plans: readonly SyncPlan[], base: string | undefined, remote: string | undefined): Promise<PendingSync | undefined> {
  const changedHere = plans.some((plan) => changeCount(plan, 'local') > 0);
  const sending = plans.some((plan) => changeCount(plan, 'sent') > 0) || remote === undefined;
  const commits = commitPlans(plans, run.deps.sources, base, remote, sending);
  const written = changedHere || sending ? await run.deps.repo.commit(commits, run.signal) : [];
  const local = changedHere ? written[0]! : base;
  const merged = sending ? written[1]! : remote;
  run.progress('committed');
  return merged === undefined ? undefined : { base, local: local ?? '', merged };
}

/** The summary of what the plans did (before the apply adds what it skipped). */
function summarize(
  settings: SyncSettings,
  plans: readonly SyncPlan[],
  commit: string | undefined,
  extra: { notices: readonly PlanNotice[]; skipped: Skipped; attempts: number; backup: string | undefined },
): Omit<SyncSummary, 'elapsedMs'> {
  const total = (count: (plan: SyncPlan) => number): number => plans.reduce((sum, plan) => sum + count(plan), 0);
  return {
    remote: settings.remote,
    branch: settings.branch,
    commit,
    sent: total((plan) => changeCount(plan, 'sent')),
    received: total((plan) => plan.received),
    deletedHere: total((plan) => plan.deletesHere),
    deletedThere: total((plan) => plan.deletesThere),
    notices: [...extra.notices, ...plans.flatMap((plan) => plan.notices)],
    skipped: extra.skipped,
    attempts: extra.attempts,
    ...(extra.backup !== undefined ? { backup: extra.backup } : {}),
  };
}

/** What the sources that guard secrets say of the records the plans send (undefined: none guards them). */
function secretsSent(sources: readonly KindSource[], plans: readonly SyncPlan[]): SecretsSent | undefined {
  let total: SecretsSent | undefined;
  for (const source of sources) {
    const plan = plans.find((p) => p.kind.name === source.kind.name);
    if (source.sentSecrets === undefined || plan === undefined) continue;
    const sent = source.sentSecrets(sentIds(plan));
    total = { redacted: (total?.redacted ?? 0) + sent.redacted, withSecrets: [...(total?.withSecrets ?? []), ...sent.withSecrets] };
  }
  return total;
}

/** A copy of the store before the plans delete much of it here: what the backups module counts as a mass delete, or one the sync's guard let through only because it was confirmed. */
async function backUpBeforeDeletes(deps: EngineDeps, plans: readonly SyncPlan[], percent: number, signal: AbortSignal | undefined): Promise<string | undefined> {
  const deleting = plans.reduce((sum, plan) => sum + plan.deletesHere, 0);
  if (deleting === 0 || deps.beforeMassDelete === undefined) return undefined;
  const counts = deps.sources.map((source) => source.count());
  const confirmed = plans.some((plan, index) => tooMany(plan.deletesHere, counts[index]!, Math.min(percent, DEFAULT_MAX_DELETE_PERCENT)));
  return deps.beforeMassDelete(deleting, counts.reduce((sum, count) => sum + count, 0), confirmed, signal);
}

/** A remote's address without the credentials it may carry (https://user:token@host/…). */
export function redacted(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, '$1');
}

/** The ids of the records a plan sends (not deleted). */
function* sentIds(plan: SyncPlan): Generator<string> {
  for (const [id, record] of changesOf(plan, 'sent')) if (record !== undefined) yield id;
}
