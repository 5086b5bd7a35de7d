/**
 * The domain, composed: one store context and the service of each API area. Built by the CLI and
 * by the extension's host role; knows nothing of HTTP, WebSockets or VS Code.
 */
import { StoreContext, silentLogger, type Logger } from './context.ts';
import { baseMigrations } from './store/baseSchema.ts';
import { assetMigrations } from './assets/schema.ts';
import { applicationMigrations } from './applications/schema.ts';
import { connectorMigrations } from './connector/schema.ts';
import { conversationMigrations } from './conversations/schema.ts';
import { modelMigrations } from './models/schema.ts';
import { vectorMigrations } from './search/vectorSchema.ts';
import { snippetMigrations } from './snippets/schema.ts';
import { SnippetService } from './snippets/snippetService.ts';
import { historyMigrations } from './history/schema.ts';
import { RevisionLog } from './history/revisionLog.ts';
import { HistoryService } from './history/historyService.ts';
import type { TrackedWrite } from './history/revisionTracker.ts';
import type { CompactorOptions } from './history/compaction.ts';
import { SemanticRecall, type RecallSettings } from './search/semanticRecall.ts';
import { AssetService } from './assets/assetService.ts';
import { ApplicationService } from './applications/applicationService.ts';
import { ConnectorService, type ConnectorSettings } from './connector/connectorService.ts';
import { FingerprintIndex } from './connector/fingerprintIndex.ts';
import { ConversationService } from './conversations/conversationService.ts';
import { ModelService, type ModelSettings } from './models/modelService.ts';
import { disposeAll, toDisposable, type Disposable } from './lifecycle.ts';
import type { Event } from './events.ts';
import { LanguageClassifier } from './classify/languageClassifier.ts';
import { LocalUser } from './user/localUser.ts';
import { Copilot } from './conversations/copilot.ts';
import { BulkWriter } from './assets/bulkWriter.ts';
import { SnippetImporter } from './import/importer.ts';
import { BatchPreparer } from './import/batchPreparer.ts';
import { ImportProcess } from './import/importProcess.ts';
import { ImportSpool } from './import/importSpool.ts';
import { ImportOrigins } from './import/importOrigins.ts';
import { importMigrations } from './import/schema.ts';
import { syncMigrations } from './sync/schema.ts';
import { SyncService, type SyncServiceOptions } from './sync/syncService.ts';
import type { DoorSecrets } from './secrets/doorSecrets.ts';
import { StoredDoorSecrets } from './secrets/storedDoors.ts';
import { ConversationRecords } from './sync/conversationRecords.ts';
import type { ClassificationSpecific } from './piecesTypes.ts';
import { Backups } from './backups/backups.ts';
import { DEFAULT_KEEP } from './backups/backupFiles.ts';
import { agentChangeMigrations } from './agents/schema.ts';
import { AgentChanges } from './agents/agentChanges.ts';
import { AgentWrites } from './agents/agentWrites.ts';
import { trashMigrations } from './trash/schema.ts';
import { TrashStore } from './trash/trashStore.ts';
import { TrashService, type TrashOptions } from './trash/trashService.ts';
import type { LinkEnd } from './store/links.ts';
import { secretMigrations } from './secrets/schema.ts';
import { SecretForgetter } from './secrets/forgetSecret.ts';
import { memoryMigrations } from './memories/schema.ts';
import { Memories, type MemoriesOptions } from './memories/memories.ts';

export const allMigrations = [
  ...baseMigrations,
  ...assetMigrations,
  ...applicationMigrations,
  ...connectorMigrations,
  ...conversationMigrations,
  ...modelMigrations,
  ...vectorMigrations,
  ...snippetMigrations,
  ...historyMigrations,
  ...importMigrations,
  ...syncMigrations,
  ...agentChangeMigrations,
  ...trashMigrations,
  ...secretMigrations,
  ...memoryMigrations,
];

export interface CoreOptions {
  readonly dataDir: string;
  readonly logger?: Logger;
  readonly connector?: Partial<ConnectorSettings>;
  readonly models?: Partial<ModelSettings>;
  readonly recall?: Partial<RecallSettings>;
  /** How revisions are kept and compacted (docs/history.md); tests and the bench set their own. */
  readonly history?: CompactorOptions;
  /**
   * Whether imports run in a child process, which prepares batches on a worker thread (default
   * true; false imports in this process, on its thread, as where the child cannot start).
   */
  readonly importWorker?: boolean;
  /** Copies kept of each kind of backup (default DEFAULT_KEEP; 0 takes no automatic ones). */
  readonly keepBackups?: number;
  /** How sync runs git (tests name a git that is not there). */
  readonly sync?: Omit<SyncServiceOptions, 'dataDir' | 'backups' | 'secrets'>;
  /** The secrets detector as the doors that leave the machine ask it (doorSecrets.ts); tests give their own. */
  readonly secrets?: DoorSecrets;
  /** How agents' writes are taken (docs/agents.md). */
  readonly agents?: {
    /**
     * Agents' writes wait for the user's review before they count. Given, it is kept in the store
     * as the user's choice; left out, the store's last choice stands (off when never made).
     */
    readonly reviewChanges?: boolean | undefined;
  };
  /** How long deleted assets and conversations stay in the trash (docs/trash.md). */
  readonly trash?: TrashOptions;
  /** Whether pending assets are scanned for secrets in the background (default true; doors scan what they send either way). */
  readonly secretsScan?: boolean;
  /** How memories' cited files are checked (docs/mcp.md). */
  readonly memories?: MemoriesOptions;
}

export class Satchel implements Disposable {
  readonly dataDir: string;
  readonly context: StoreContext;
  /** The last bulk work under way (a sync, an import session, a back-fill, a compaction pass) ended. */
  readonly onDidEndBulkWork: Event<void>;
  /** Bulk work began when none was under way (true), or the last under way ended (false): `bulkWorkActive` says which now. */
  readonly onDidChangeBulkWork: Event<boolean>;
  readonly assets: AssetService;
  /** Every asset's revisions: listed, read and restored. */
  readonly history: HistoryService;
  readonly applications: ApplicationService;
  readonly connector: ConnectorService;
  readonly conversations: ConversationService;
  readonly models: ModelService;
  /** Hybrid search while an embedding model is loaded: `recall.prepare(query)` before a search. */
  readonly recall: SemanticRecall;
  readonly classifier: LanguageClassifier;
  readonly user: LocalUser;
  /** Questions asked through /qgpt/stream, answered by the loaded local model. */
  readonly copilot: Copilot;
  /** Snippet files from other tools, written a batch per transaction in a child process. */
  readonly imports: ImportProcess;
  /** Assets as editor snippets: snippet syntax and prefixes, completion, `.code-snippets` export. */
  readonly snippets: SnippetService;
  /** Copies of the store: on request, and before imports, migrations and mass deletes. */
  readonly backups: Backups;
  /** The library synced with a git remote (docs/sync.md). */
  readonly sync: SyncService;
  /** What agents changed that the user has not reviewed: listed, accepted, reverted. */
  readonly agentChanges: AgentChanges;
  /** Agents' saves, updates and deletes (marked, or proposals while agent writes wait for review). */
  readonly agentWrites: AgentWrites;
  /** Deleted assets and conversations: listed, restored whole, deleted for good. */
  readonly trash: TrashService;
  /** "Forget Secret": a value removed from a snippet, its revisions and the trash, a backup first (the secrets themselves: `assets.secrets`). */
  readonly secretForgetter: SecretForgetter;
  /** The secrets detector as every door that leaves the machine asks it (issue 32). */
  readonly doorSecrets: () => DoorSecrets;
  /** Notes agents keep about the user's work: assets marked as memories, checked against the files they cite. */
  readonly memories: Memories;

  /** The back-fill counted as bulk work while it runs (composeRecall). */
  private readonly backfillWork: Disposable;

  /** Whether bulk work is under way now (the secrets scan of a library left pending may start as the store opens). */
  get bulkWorkActive(): boolean {
    return this.context.bulkWork.active;
  }

  private constructor(options: CoreOptions, context: StoreContext) {
    this.dataDir = options.dataDir;
    this.onDidEndBulkWork = context.bulkWork.onDidEnd;
    this.onDidChangeBulkWork = context.bulkWork.onDidChangeActive;
    this.context = context;
    this.classifier = new LanguageClassifier();
    this.user = new LocalUser(context);
    this.backups = new Backups({ source: context.database, dataDir: options.dataDir, keep: options.keepBackups ?? DEFAULT_KEEP, logger: context.logger });
    this.applications = new ApplicationService(context);
    this.models = new ModelService(context, options.dataDir, this.classifier, options.models ?? {});
    // Deletes of assets and conversations keep what they remove here, in their own transactions.
    const trashStore = new TrashStore(context.database);
    // Conversations link to assets (asked only when a link is made) and an asset's reply embeds its
    // conversations: the conversations area is built first and handed to the assets area.
    this.conversations = new ConversationService(
      context,
      this.models,
      (id) => this.assets.exists(id),
      (asset, by, change) => this.assets.writes.changeLinked(asset, by, { description: true }, change),
      trashStore,
    );
    // The indexes written inside every asset write transaction are listed here where assets are
    // composed; semantic recall registers its own below.
    const fingerprints = new FingerprintIndex(context.database);
    // Every asset write keeps its revision in the same transaction; the history area lists,
    // restores and compacts them (restores are asset writes, made through the assets area).
    const revisionLog = new RevisionLog(context.database);
    // Agents' writes are marked inside each write's transaction (the agent changes area hears of every write).
    const history = { log: revisionLog, onRevision: (id: string) => this.history.compactor.note(id), onWrite: (write: TrackedWrite) => this.agentChanges.written(write) };
    this.assets = new AssetService(context, this.classifier, history, [fingerprints], this.conversations, trashStore);
    // The revision an unreviewed agent change was made on stays until the user accepts or reverts it (Revert restores it).
    const pinned = (assetId: string): ReadonlySet<string> => this.agentChanges.changeLog.revisionsOf(assetId);
    this.history = new HistoryService(context, revisionLog, this.assets.historyTarget(), { pinned, ...options.history });
    // Reverting an agent's delete brings the snippet back from the trash (built below; called only later).
    this.agentChanges = new AgentChanges(context, this.assets, this.history, {
      review: options.agents?.reviewChanges,
      restoreDeleted: (id, by) => void this.trash.restore(id, by),
    });
    this.agentWrites = new AgentWrites(context, this.agentChanges, this.assets, this.history);
    this.memories = new Memories(context, this.agentWrites, this.assets, options.memories);
    this.copilot = new Copilot(
      this.conversations,
      (model) => {
        if (model) this.models.checkChatModel(model);
        return this.models.textGenerator();
      },
      (id) => this.assets.text(id),
      {},
      context.logger,
    );
    // The doors' detector: the caller's (tests), else the store's findings (assets.secrets), fresh for what each door sends.
    const stored = options.secrets ?? new StoredDoorSecrets(this.assets.secrets);
    const secrets = (): DoorSecrets => stored;
    this.doorSecrets = secrets;
    this.snippets = new SnippetService(context, this.assets, secrets);
    this.sync = new SyncService(context, this.assets, this.conversations, { ...options.sync, secrets, dataDir: options.dataDir, backups: this.backups }, () => ({
      has: (id) => trashStore.has(id),
      restore: (id, by) => this.trash.restore(id, by),
    }));
    this.trash = this.composeTrash(options, trashStore);
    this.connector = new ConnectorService(context, this.assets, this.applications, fingerprints, options.connector ?? {}, secrets);
    this.recall = this.composeRecall(options);
    // A back-fill is bulk work from its first batch to its end (or cancel).
    this.backfillWork = context.bulkWork.whileBusy(this.recall.onDidChangeStatus, (status) => status.state === 'indexing');
    this.imports = this.composeImports(options, fingerprints);
    this.secretForgetter = new SecretForgetter({
      context,
      secrets: this.assets.secrets,
      backups: this.backups,
      texts: (id) => this.assets.secrets.textsOf(id),
      edit: (id, edit, by) => void this.assets.writes.edit(id, edit, by),
    });
    // Scans what is pending: after the upgrade, the whole library once; then each write.
    if (options.secretsScan !== false) this.assets.secrets.start();
  }

  /** The trash: what deletes of assets and conversations kept, restored through each area or forgotten for good. */
  private composeTrash(options: CoreOptions, trashStore: TrashStore): TrashService {
    const { context } = this;
    const exists = (end: LinkEnd): boolean =>
      end.kind === 'asset' ? this.assets.exists(end.id) : end.kind === 'message' ? this.conversations.hasMessage(end.id) : context.records.has(end.kind, end.id);
    return new TrashService(
      context,
      trashStore,
      {
        targets: {
          asset: {
            live: (id) => this.assets.exists(id),
            restore: (entry, by) => this.assets.restoreTrashed(entry, by),
            // Gone for good: its revisions, its snippet facts and memory facts (kept while it could come back).
            forget: (id) => {
              this.snippets.forget(id);
              this.memories.facts.put(id, undefined);
              return this.history.purge(id);
            },
          },
          conversation: {
            live: (id) => this.conversations.trashedLive(id),
            restore: (entry) => {
              this.conversations.restoreTrashed(entry);
              return undefined;
            },
            forget: () => 0,
          },
        },
        exists,
        liveAssets: () => this.assets.count(),
        backups: this.backups,
      },
      { logger: context.logger, ...options.trash },
    );
  }

  /** Search by meaning: vectors of the assets' texts kept by an indexer it registers with the assets area. */
  private composeRecall(options: CoreOptions): SemanticRecall {
    return new SemanticRecall(
      this.context,
      {
        embedder: () => this.models.embedder(),
        textOf: (id) => this.assets.text(id),
        tagsOf: (id) => this.assets.labels.tagsOfAsset(id).map((tag) => tag.text),
        registerIndexer: (indexer) => this.assets.registerIndexer(indexer),
      },
      options.recall ?? {},
    );
  }

  /** Imports: in a child process, or here (`importWorker: false`, or where the child cannot start). */
  private composeImports(options: CoreOptions, fingerprints: FingerprintIndex): ImportProcess {
    const { context } = this;
    // An import's snippets wait behind creates and agents' saves for the classifier (bulk).
    const classify = async (text: string): Promise<ClassificationSpecific> => (await this.classifier.classify(text, { priority: 'bulk' })).specific;
    const importHere = options.importWorker === false;
    const origins = new ImportOrigins(context.database);
    // Emptied when the store opens: what a host stopped mid-import left is read by no one.
    const spool = new ImportSpool(options.dataDir);
    spool.clear();
    const inProcess = new SnippetImporter({
      writer: new BulkWriter(context, { ...this.assets.bulkTargets(), origins }),
      originOf: (source) => origins.assetOf(source),
      exists: (id) => this.assets.exists(id),
      putConversations: (list, fail) => new ConversationRecords(context, (id) => this.assets.exists(id)).putMany(list, fail),
      // Exact duplicates: the connector's index finds the candidates, whole texts decide.
      isSaved: (text) => fingerprints.hasText(text, (id) => this.assets.text(id)),
      classify,
      preparer: importHere ? new BatchPreparer(false) : undefined,
    });
    return new ImportProcess({
      child: { path: context.database.path, schemaVersion: context.database.schemaVersion },
      inProcess,
      session: () => {
        const held = [this.assets.deferMerging(), context.database.expectWriter(), this.history.compactor.defer(), this.trash.retention.defer(), this.assets.secrets.defer(), context.bulkWork.begin()];
        return toDisposable(() => {
          disposeAll(held);
          // An import may have grown the store many times over: statistics taken before it would mislead the planner.
          context.database.statistics?.refresh();
        });
      },
      // The session's own deferral is the one held: a bulk write of this process (or a test) holding another merges here afterwards.
      mergeInChild: () => this.assets.mergeDeferrals() === 1,
      classify,
      beforeSession: (signal) => this.backups.beforeImport(signal),
      spool,
      adopt: (changes) => {
        this.assets.adoptWritten(changes.filter((change) => change.kind === 'asset').map((change) => change.id));
        for (const change of changes) context.publish(change);
      },
      script: importHere ? false : undefined,
      logger: context.logger,
    });
  }

  /** Opens (and migrates) the store of `dataDir`; throws StoreUnusableError and touches nothing if it cannot. */
  static open(options: CoreOptions): Satchel {
    const context = StoreContext.open(options.dataDir, allMigrations, options.logger ?? silentLogger, options.keepBackups ?? DEFAULT_KEEP);
    return new Satchel(options, context);
  }

  async close(): Promise<void> {
    // A sync under way stops (or, past its push, finishes) before the store it writes closes.
    await this.sync.close();
    // A copy under way stops (its partial file removed) before anything it reads closes.
    await this.backups.close();
    // The import process's connection closes first (its batch under way finished or dropped).
    await this.imports.close();
    // Writes already answered are durable; the ones still flushing are answered before the store closes.
    await this.context.database.settled();
    this.backfillWork.dispose();
    this.recall.dispose();
    this.trash.dispose();
    this.snippets.dispose();
    this.history.dispose();
    await this.models.close();
    await this.classifier.unload();
    this.assets.dispose();
    // Its connection closes first, so the store's own is the last and empties the WAL.
    await this.context.database.stopCheckpoints();
    this.context.dispose();
  }

  dispose(): void {
    void this.close();
  }
}
