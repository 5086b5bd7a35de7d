/**
 * What a sync merges from: the commit both sides last agreed on. That is the last synced commit
 * while the remote's head descends from it. A remote that lost commits this machine had synced (a
 * force-push, a backup restored, a repository recreated and published again by a machine that was
 * behind) does not contain it: taking it as the base then would read everything this machine sent
 * since as the remote's deletes and reverts. So the merge starts from the true merge base, with
 * everything this machine has since then as its local changes; with no common history at all the
 * remote is met as a fresh one (a union: nothing is deleted here), a record both hold keeping the
 * side whose version the other side had before.
 */
import type { VaultRepo } from './vaultRepo.ts';
import type { PlanNotice, VersionHistory } from './syncPlan.ts';

export interface SyncBase {
  /** The commit the merge is made from. */
  readonly base: string | undefined;
  /** Set when the remote lost commits: each kind root's ids this machine changed since the base (beyond its noted changes), the folders' histories when there is no base, and what to tell. */
  readonly rewound?:
    | {
        readonly since: ReadonlyMap<string, readonly string[]> | 'all';
        readonly history: ReadonlyMap<string, VersionHistory> | undefined;
        readonly notice: PlanNotice;
      }
    | undefined;
}

export async function syncBase(repo: VaultRepo, synced: string | undefined, remote: string | undefined, roots: readonly string[], remoteName: string, signal?: AbortSignal): Promise<SyncBase> {
  if (synced === undefined || remote === undefined || synced === remote || (await repo.isAncestor(synced, remote))) return { base: synced };
  const base = await repo.mergeBase(synced, remote);
  const notice: PlanNotice = { id: base ?? '', name: remoteName, notice: 'remote-rewound' };
  if (base !== undefined) return { base, rewound: { since: await repo.changedIds(base, synced, roots, signal), history: undefined, notice } };
  const history = new Map<string, VersionHistory>();
  for (const root of roots) {
    const [ours, theirs] = await Promise.all([repo.folderHistory(synced, root, signal), repo.folderHistory(remote, root, signal)]);
    history.set(root, { ours, theirs });
  }
  return { base, rewound: { since: 'all', history, notice } };
}
