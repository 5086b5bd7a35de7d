/**
 * The sync area (docs/sync.md), composed over the store: the remote's settings, one sync at a
 * time (a second request waits for the first), and what the last one did. The sync itself is
 * syncEngine.ts; writes it makes are by the author `sync` (named by the remote, without credentials).
 */
import { join } from 'node:path';
import type { StoreContext } from '../context.ts';
import type { AssetService } from '../assets/assetService.ts';
import { BulkWriter } from '../assets/bulkWriter.ts';
import { InvalidInputError, UnavailableError } from '../errors.ts';
import { authorOf, type WriteOptions } from '../history/authors.ts';
import type { Disposable } from '../lifecycle.ts';
import { LibraryRecords } from './libraryRecords.ts';
import { ConversationRecords } from './conversationRecords.ts';
import { mergeRecord } from './recordMerge.ts';
import { ConflictCopies, machineId, type ConflictChoice, type ConflictField, type ConflictSides, type SyncConflict } from './conflictCopies.ts';
import { VaultRepo } from './vaultRepo.ts';
import { SyncState, validBranch, type SyncSettings } from './syncState.ts';
import { SyncFinisher } from './syncFinish.ts';
import { assetTarget, conversationTarget } from './syncTargets.ts';
import { ASSET_KIND, type SyncKind } from './syncKinds.ts';
import type { VaultAsset } from './vaultFormat.ts';
import type { DoorSecrets } from '../secrets/doorSecrets.ts';
import { GuardedAssets } from './secretGuard.ts';
import { GuardedConversations } from './conversationGuard.ts';
import { redacted, runSync, type SyncOptions, type SyncSummary } from './syncEngine.ts';

/** The trash, as a sync brings a snippet or conversation back from it (satchel.ts hands it in). */
export interface TrashedRecords {
  has(id: string): boolean;
  restore(id: string, by: WriteOptions): unknown;
}

/** The conversations area, as a sync deletes a conversation (into the trash). */
export interface SyncedConversations {
  delete(id: string, by: WriteOptions): void;
}

export interface SyncServiceOptions {
  readonly dataDir: string;
  /** The git to run (default `git` on PATH). */
  readonly gitExecutable?: string | undefined;
  /** The store's backups: a copy before a sync deletes much of the library here. */
  readonly backups?: MassDeleteBackups | undefined;
  /** The secrets detector as the sync's door asks it (secretGuard.ts); absent, snippets are sent as they are. */
  readonly secrets?: (() => DoorSecrets | undefined) | undefined;
}

/** What a sync asks of the backups (backups.ts). */
export interface MassDeleteBackups {
  beforeMassDelete(what: string, deleting: number, total: number, signal?: AbortSignal, confirmed?: boolean): Promise<{ readonly name: string } | undefined>;
}

export interface SyncStatus {
  /** The remote (without credentials) and branch; undefined when sync is not set up. */
  readonly remote?: string | undefined;
  readonly branch?: string | undefined;
  readonly running: boolean;
  /** Records (snippets and conversations) changed here since the last sync. */
  readonly changed: number;
  /** Conflict copies waiting to be looked at. */
  readonly conflicts: number;
  /** The last sync's summary and when it ended. */
  readonly last?: (Omit<SyncSummary, 'elapsedMs'> & { readonly at: string }) | undefined;
}

export { CONFLICT_CHOICES, CONFLICT_FIELDS, type ConflictChoice, type ConflictField, type ConflictSides, type ConflictVersion, type SyncConflict } from './conflictCopies.ts';

export class SyncService implements Disposable {
  private readonly context: StoreContext;
  private readonly assets: AssetService;
  private readonly options: SyncServiceOptions;
  readonly state: SyncState;
  readonly records: LibraryRecords;
  private queue: Promise<unknown> = Promise.resolve();
  private running = 0;
  private readonly closing = new AbortController();

  private readonly trash: (() => TrashedRecords | undefined) | undefined;
  private readonly conversations: SyncedConversations;
  private readonly conversationRecords: ConversationRecords;
  private readonly conflictCopies: ConflictCopies;
  private readonly choices: Disposable;

  constructor(context: StoreContext, assets: AssetService, conversations: SyncedConversations, options: SyncServiceOptions, trash?: () => TrashedRecords | undefined) {
    this.context = context;
    this.assets = assets;
    this.options = options;
    this.trash = trash;
    this.conversations = conversations;
    this.state = new SyncState(context.database);
    this.records = new LibraryRecords({ database: context.database, ...assets.bulkTargets() });
    this.conversationRecords = new ConversationRecords(context, (id) => assets.exists(id));
    this.conflictCopies = new ConflictCopies(context, assets, this.records);
    // Not a Secret or sync with its secret changes what a snippet sends, not the snippet: it is sent again.
    this.choices = assets.secrets.onDidChoose((ids) => this.state.touch('asset', ids));
  }

  settings(): SyncSettings | undefined {
    return this.state.settings();
  }

  /** Sets the remote (a URL or path git can push to) and branch; a new remote starts over (its first sync merges everything). */
  configure(remote: string, branch?: string): SyncSettings {
    const url = remote.trim();
    if (url === '' || url.startsWith('-') || /[\0\n\r]/.test(url)) throw new InvalidInputError('A sync remote is a URL or path git can reach (https://…, git@host:repo.git, /path/to/repo.git)');
    if (branch !== undefined && !validBranch(branch)) throw new InvalidInputError(`${JSON.stringify(branch)} is not a branch name`);
    return this.state.configure(url, branch);
  }

  /** Syncs with the remote; one sync at a time (a second waits for the first). */
  sync(options: SyncOptions = {}): Promise<SyncSummary> {
    const run = this.queue.then(async () => {
      const settings = this.state.settings();
      if (settings === undefined) throw new InvalidInputError('No sync remote is set: give one first (satchel sync --remote URL, or the satchel.sync.remote setting)');
      if (this.closing.signal.aborted) throw new UnavailableError('Satchel is closing; sync again when it runs');
      this.running++;
      const work = this.context.bulkWork.begin();
      // The caller's cancel, or the store closing: either stops the sync (before its push; after, it finishes).
      const signal = options.signal ? AbortSignal.any([options.signal, this.closing.signal]) : this.closing.signal;
      try {
        return await runSync(this.engine(settings), settings, { ...options, signal });
      } finally {
        this.running--;
        work.dispose();
      }
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  status(): SyncStatus {
    const settings = this.state.settings();
    const last = this.state.last();
    return {
      ...(settings ? { remote: redacted(settings.remote), branch: settings.branch } : {}),
      running: this.running > 0,
      changed: settings ? this.state.dirtyCount() : 0,
      conflicts: this.conflicts().length,
      ...(last ? { last: JSON.parse(last) as SyncStatus['last'] } : {}),
    };
  }

  /** Conflict copies, newest first: the copy's id and name, the id of the asset whose other version won, and which of the two is this machine's. */
  conflicts(): SyncConflict[] {
    return this.conflictCopies.list();
  }

  /** A conflict's two versions as this machine names them (mine, theirs), and the fields they differ in. */
  conflict(copy: string): ConflictSides {
    return this.conflictCopies.sides(copy);
  }

  /** Settles a conflict (conflictCopies.ts): `mine` and `theirs` as this machine names its sides, or `both`. */
  resolve(copy: string, keep: ConflictChoice, by: WriteOptions, fields?: readonly ConflictField[]): void {
    this.conflictCopies.resolve(copy, keep, by, fields);
  }

  private engine(settings: SyncSettings): Parameters<typeof runSync>[0] {
    const repo = new VaultRepo(join(this.options.dataDir, 'sync'), this.options.gitExecutable);
    const author = authorOf('sync', redacted(settings.remote));
    const writer = new BulkWriter(this.context, this.assets.bulkTargets());
    const restoreTrashed = (id: string, by: typeof author): boolean => {
      const trash = this.trash?.();
      if (trash === undefined || !trash.has(id)) return false;
      trash.restore(id, { author: by });
      return true;
    };
    const labels = this.assets.bulkTargets().labels;
    const machine = machineId(this.context);
    // A conflict copy made here names this machine (conflictCopies.ts).
    const assetKind: SyncKind<VaultAsset> = { ...ASSET_KIND, merge: (base, ours, theirs, oursOid, mergeText) => mergeRecord(base, ours, theirs, oursOid, mergeText, machine) };
    // Snippets first: a conversation links to snippets that arrive in the same sync.
    const assets = {
      ...assetTarget({
        author,
        labels,
        restoreTrashed,
        records: this.records,
        writer,
        exists: (id) => this.assets.exists(id),
        deleteAsset: (id, by) => void this.assets.writes.delete(id, { author: by }),
        allIds: () => this.assets.identifierPages(),
        count: () => this.assets.ordinaryCount(),
      }),
      kind: assetKind,
    };
    // Every sync's snippets go through the secrets door when there is a detector (issue 32).
    const secrets = this.options.secrets?.();
    const conversations = conversationTarget({
      author,
      labels,
      restoreTrashed,
      records: this.conversationRecords,
      exists: (id) => this.context.records.has('conversation', id),
      deleteConversation: (id, by) => this.conversations.delete(id, { author: by }),
    });
    const kinds = [
      secrets !== undefined ? new GuardedAssets(assets, secrets) : assets,
      secrets !== undefined ? new GuardedConversations(conversations, secrets) : conversations,
    ];
    const finisher = new SyncFinisher({ repo, state: this.state, targets: kinds, transaction: (fn) => this.context.transaction(fn), bulk: () => writer.begin() });
    return {
      repo,
      state: this.state,
      finisher,
      sources: kinds,
      closing: this.closing.signal,
      logger: this.context.logger,
      beforeMassDelete: async (deleting, total, confirmed, signal) => (await this.options.backups?.beforeMassDelete('sync', deleting, total, signal, confirmed))?.name,
    };
  }

  /** Stops a sync under way (before its push; one past it finishes) and resolves once none runs. */
  async close(): Promise<void> {
    this.closing.abort();
    await this.queue;
  }

  dispose(): void {
    this.choices.dispose();
    void this.close();
  }
}
