/**
 * The assets area, composed: one object the server routes, the connector and the conversations
 * area hold. Each responsibility lives in its own module; this builds them, reads, and hands out
 * its writes (`assets.writes`), searches (`assets.searches`) and recommendations
 * (`assets.recommendations`) as members:
 *   assetStore.ts           SQL of the assets and asset_formats tables
 *   assetWrites.ts          every change, in one transaction with its indexes and activities
 *   seeds.ts                what a Seed becomes before it is stored (language, name, content)
 *   assetIndexers.ts        the search index and the derived indexers kept in step with writes
 *   assetRendering.ts       stored documents rendered as wire Assets
 *   assetSearch.ts          query, tag, code and filtered search
 *   assetRecommendations.ts related and recommended assets
 *   assetActivities.ts      activity records
 *   tombstones.ts           the last state of deleted assets
 *   assetRevisions.ts       what each write's revision reads of an asset (the history area keeps them)
 *   assetEdits.ts           the edit of content, name, language, tags and description (save, agents, restore)
 *   descriptions.ts         the DESCRIPTION annotation an asset's description is
 * and the secrets found in each asset (`assets.secrets`, ../secrets/secretsService.ts), shown in its `sensitives`.
 */
import type { StoreContext } from '../context.ts';
import type { Disposable, Event } from '../events.ts';
import type { LanguageClassifier } from '../classify/languageClassifier.ts';
import type { Activities, Activity, Asset, ClassificationSpecific, ExportedAsset, Format, Formats, Seed } from '../piecesTypes.ts';
import { NotFoundError, UnsupportedError } from '../errors.ts';
import { SearchIndex } from '../search/searchIndex.ts';
import { AssetSimilarity } from './similarity.ts';
import { renderFormat, renderFormats } from './storedAsset.ts';
import { exportAsset, type ExportType } from './exporter.ts';
import { Labels } from './labels.ts';
import { AssetStore, CONTENT_FREE_DATA, PAGE_BYTES } from './assetStore.ts';
import { SIMILARITY_CHARS } from '../search/related.ts';
import { summariesOf, type AssetSummary } from './summaries.ts';
import { originalContent } from './assetHeads.ts';
import { AssetIndexing, type AssetIndexer } from './assetIndexers.ts';
import { AssetRenderer, type LinkedConversations } from './assetRendering.ts';
import { AssetActivities } from './assetActivities.ts';
import { Tombstones } from './tombstones.ts';
import { AssetWrites } from './assetWrites.ts';
import { AssetSearch } from './assetSearch.ts';
import { AssetRecommendations } from './assetRecommendations.ts';
import { draftSeed } from './seeds.ts';
import type { SeedInput } from './inputs.ts';
import { SATCHEL_APPLICATION, LOCAL_CREATOR } from './origin.ts';
import type { BulkTargets } from './bulkWriter.ts';
import type { WriteOptions } from '../history/authors.ts';
import type { RevisionLog } from '../history/revisionLog.ts';
import { RevisionTracker, type RevisionTracking, type TrackedWrite } from '../history/revisionTracker.ts';
import type { AssetState } from '../history/state.ts';
import type { CurrentState, HistoryTarget } from '../history/historyService.ts';
import { AssetLinkedState } from './assetRevisions.ts';
import { AssetTrash } from './assetTrash.ts';
import type { TrashEntry, TrashStore } from '../trash/trashStore.ts';
import { SecretsService, type SecretsOptions } from '../secrets/secretsService.ts';
import { AssetSecretTexts } from './assetSecretTexts.ts';
import { sensitivesOf } from '../secrets/sensitives.ts';
import type { Sensitives } from '../piecesTypes.ts';
import { flattened, type StoredAsset } from './storedAsset.ts';
import { AssetGroups } from './assetGroups.ts';

export type { AssetIndexer } from './assetIndexers.ts';
export type { LinkedConversations } from './assetRendering.ts';
export type { SearchedPages, SearchOptions } from './assetSearch.ts';

/**
 * Where the assets area keeps revisions (the history area's log) and whom it tells of a new one;
 * or, instead, what its writes keep revisions through (the bench's baseline keeps none).
 */
export type AssetHistory =
  | {
      readonly log: RevisionLog;
      /** A revision was appended to the asset (compaction queues it). */
      readonly onRevision?: (assetId: string) => void;
      /** A write was made, told inside its transaction (the agent changes area marks an agent's). */
      readonly onWrite?: (write: TrackedWrite) => void;
    }
  | { readonly tracking: RevisionTracking };
export type { AssetSummary } from './summaries.ts';

export interface ListOptions {
  readonly transferables?: boolean;
  readonly pseudo?: boolean;
  readonly suggested?: boolean;
}

/** Assets and the records hanging off them (formats, tags, websites, activities). */
export class AssetService implements Disposable {
  private readonly classifier: LanguageClassifier;
  private readonly store: AssetStore;
  private readonly indexing: AssetIndexing;
  private readonly similarity: AssetSimilarity;
  private readonly renderer: AssetRenderer;
  private readonly activityRecords: AssetActivities;
  private readonly tombstones = new Tombstones();
  /** Every change to an asset and the records hanging off it (create, update, edit, delete, tags, websites). */
  readonly writes: AssetWrites;
  /** Query, tag, code and filtered search. */
  readonly searches: AssetSearch;
  /** Related and recommended assets. */
  readonly recommendations: AssetRecommendations;
  private readonly linkedState: AssetLinkedState;
  private readonly secretTexts: AssetSecretTexts;
  private readonly revisions: RevisionTracking;
  /** Where deletes go (undefined: a delete is for good, as where no trash is composed). */
  private readonly trashed: AssetTrash | undefined;
  readonly labels: Labels;
  /** The Assets tree's group counts and pages (an editor holds only what it shows). */
  readonly groups: AssetGroups;
  /** The secrets found in each asset, kept current with every write (doors read them with `findingsNow`). */
  readonly secrets: SecretsService;
  /** Fires after commit with the last state of a deleted asset (content-free). */
  readonly onDidDelete: Event<Asset> = this.tombstones.onDidDelete;

  /**
   * `indexers` are kept in step with every asset write, `conversations` renders the conversations
   * an asset's reply embeds, `history` keeps each write's revision and `trash` keeps what a delete
   * removes (the composition root hands them in).
   */
  constructor(
    context: StoreContext,
    classifier: LanguageClassifier,
    history: AssetHistory,
    indexers: readonly AssetIndexer[] = [],
    conversations?: LinkedConversations,
    trash?: TrashStore,
    secrets: SecretsOptions = {},
  ) {
    this.classifier = classifier;
    this.store = new AssetStore(context);
    this.labels = new Labels(context);
    this.groups = new AssetGroups(context);
    this.linkedState = new AssetLinkedState(context);
    this.secretTexts = new AssetSecretTexts(this.store, this.linkedState.descriptions);
    this.secrets = new SecretsService(context, this.secretTexts, secrets);
    const index = new SearchIndex(context.database);
    this.similarity = new AssetSimilarity(context, index, {
      ordinaryIds: () => this.store.listing.ordinaryIds(),
      // What similarity counts of a text is its opening: a large one's head, not its document.
      texts: (column, keys) => this.store.heads.of(column, keys, SIMILARITY_CHARS + 1).map((head) => ({ id: head.id, text: head.text })),
    });
    this.indexing = new AssetIndexing(index, this.store, this.labels, [...indexers, this.similarity]);
    this.renderer = new AssetRenderer(context, conversations, (doc) => this.sensitivesOf(doc));
    this.activityRecords = new AssetActivities(context);
    this.revisions = 'tracking' in history ? history.tracking : new RevisionTracker(history.log, this.linkedState, history);
    const { store, labels, indexing, renderer, tombstones, revisions } = this;
    const descriptions = this.linkedState.descriptions;
    this.trashed = trash ? new AssetTrash({ context, store, indexing, revisions, trash }) : undefined;
    this.writes = new AssetWrites({ context, classifier, store, labels, indexing, renderer, activities: this.activityRecords, tombstones, revisions, descriptions, trash: this.trashed });
    this.searches = new AssetSearch(store, index, labels, renderer);
    this.recommendations = new AssetRecommendations(store, this.similarity, renderer);
  }

  /** What the import path (bulkWriter.ts) writes through and keeps in step. */
  bulkTargets(): BulkTargets {
    return {
      store: this.store,
      indexing: this.indexing,
      labels: this.labels,
      revisions: this.revisions,
      descriptions: this.linkedState.descriptions,
      application: SATCHEL_APPLICATION,
      creator: LOCAL_CREATOR,
    };
  }

  /**
   * Assets another connection wrote and committed (the import process, importStore.ts): the
   * in-memory title index and the indexers that keep state in memory are brought in step.
   */
  adoptWritten(assetIds: readonly string[]): void {
    this.indexing.written(assetIds);
  }

  /** The search index's merging is deferred until this is disposed (imports: segmentMerger.ts). */
  deferMerging(): Disposable {
    return this.indexing.search.deferMerging();
  }

  /** How many deferrals of the search index's merging are held now. */
  mergeDeferrals(): number {
    return this.indexing.search.merging?.deferrals ?? 0;
  }

  /** Adds a derived index after composition (semantic recall, tests); its upsert/remove run inside every asset write transaction. */
  registerIndexer(indexer: AssetIndexer): Disposable {
    return this.indexing.register(indexer);
  }

  // ---------------------------------------------------------------- reads

  exists(id: string): boolean {
    return this.store.exists(id);
  }

  /** How many assets are stored (suggested and pseudo ones included). */
  count(): number {
    return this.store.count();
  }

  /**
   * The first `chars` characters of an asset's text, its length and whether it is binary, read
   * without its document when that is large (a 60 MB one is not parsed to show 256 KiB of it).
   */
  opening(id: string, chars: number): { text: string; chars: number; binary: boolean } {
    const head = this.store.heads.of('id', [id], chars, true)[0];
    if (head) return head;
    // A suggested asset: its document, read whole.
    const { text, binary } = originalContent(this.store.doc(id));
    return { text: text.slice(0, chars), chars: text.length, binary };
  }

  /** The text of an asset's original format (fragment or file), or undefined when there is no such asset. */
  text(id: string): string | undefined {
    return this.store.text(id);
  }

  /** One asset; without transferables its content is not read (a 60 MB document is not parsed to be dropped). */
  get(id: string, options: { transferables?: boolean } = {}): Asset {
    const transferables = options.transferables ?? true;
    return this.renderer.render(this.store.doc(id, transferables ? 'data' : CONTENT_FREE_DATA), transferables);
  }

  /**
   * The assets among `ids` that exist, in that order, rendered together (linked records read in one
   * statement); an id of no asset is left out. What a view asks for when a change names many assets,
   * so it never reads the whole store for them. Without transferables no content is read, but the
   * secrets found in each (`sensitives`, values included) are: the editor counts and marks them.
   */
  some(ids: readonly string[], options: { transferables?: boolean } = {}): Asset[] {
    const transferables = options.transferables ?? true;
    const docs: StoredAsset[] = [];
    for (const id of new Set(ids)) {
      try {
        docs.push(this.store.doc(id, transferables ? 'data' : CONTENT_FREE_DATA));
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error;
      }
    }
    return this.renderer.renderAll(docs, transferables, true);
  }

  /**
   * What a listing shows of each ordinary asset among `ids` (in that order; others left out):
   * name, language, its first tags and the opening of its text, read without its document when
   * that is large. A summary of a 60 MB snippet costs what one of a small snippet does.
   */
  summaries(ids: readonly string[]): AssetSummary[] {
    return summariesOf(this.store, this.labels, ids);
  }

  list(options: ListOptions = {}): Asset[] {
    return [...this.pages(options)].flat();
  }

  /**
   * The same assets as `list`, in pages read when asked for: a reply can be sent page by page
   * instead of holding every asset (540 MB at 9 × 60 MB) at once. A page holds at most `pageSize`
   * assets and `pageBytes` of stored documents, or one larger asset (see `AssetStore.storedPages`).
   * The set is fixed when the first page is read; an asset deleted meanwhile is left out, a changed
   * one is shown as it is when its page is read.
   */
  *pages(options: ListOptions = {}, pageSize = 64, pageBytes = PAGE_BYTES): Generator<Asset[]> {
    const transferables = options.transferables ?? true;
    const rows = this.store.listing.listed({ suggested: options.suggested ?? false, pseudo: options.pseudo ?? false });
    for (const docs of this.store.storedPages(rows, transferables ? 'data' : CONTENT_FREE_DATA, pageSize, pageBytes)) {
      yield this.renderer.renderAll(docs, transferables);
    }
  }

  /** Ids of the newest ordinary assets, of one language when given. */
  newest(limit: number, language?: ClassificationSpecific): string[] {
    return this.store.listing.newest(limit, language);
  }

  /** Ids of ordinary assets (and pseudo ones when asked, or only pseudo ones), newest first, all at once (for small stores). */
  identifiers(options: { pseudo?: boolean; onlyPseudo?: boolean } = {}): string[] {
    return [...this.store.listing.identifierPages(options)].flat();
  }

  /** `identifiers`, a page at a time: what a reply of a store of any size is made from. */
  identifierPages(options: { pseudo?: boolean; onlyPseudo?: boolean } = {}): Generator<string[]> {
    return this.store.listing.identifierPages(options);
  }

  /** How many ordinary assets (neither suggested nor pseudo) there are. */
  ordinaryCount(): number {
    return this.store.listing.ordinaryCount();
  }

  /** Whether an asset appears in ordinary snapshots and streams (neither pseudo nor suggested). */
  isOrdinary(id: string): boolean {
    return this.store.isOrdinary(id);
  }

  /** The last state of a recently deleted asset, for streams announcing the deletion. */
  tombstone(id: string): Asset | undefined {
    return this.tombstones.get(id);
  }

  formats(id: string, transferables: boolean): Formats {
    return renderFormats(this.store.doc(id), transferables);
  }

  /** The formats of every ordinary asset, newest asset first, read a page of assets at a time as `pages` reads them. */
  *formatPages(transferables: boolean): Generator<Format[]> {
    for (const docs of this.store.storedPages(this.store.listing.listed(), transferables ? 'data' : CONTENT_FREE_DATA)) {
      yield docs.flatMap((doc) => renderFormats(doc, transferables).iterable);
    }
  }

  format(formatId: string, transferable: boolean): Format {
    const doc = this.store.docOfFormat(formatId);
    const format = doc.formats.iterable.find((f) => f.id === formatId);
    if (!format) throw new NotFoundError('format', formatId);
    return renderFormat(format, doc, transferable);
  }

  activities(id: string): Activities {
    return this.activityRecords.of(this.store.doc(id));
  }

  /** Every activity of every asset, a page at a time (GET /activities). */
  allActivities(): Iterable<Activity[]> {
    return this.activityRecords.pages((id) => (this.store.exists(id) ? this.store.doc(id, CONTENT_FREE_DATA) : undefined));
  }

  /** A read: it records no activity (a GET never writes). */
  exportAs(id: string, type: ExportType): ExportedAsset {
    return exportAsset(this.get(id), type);
  }

  /**
   * Assets whose name or tags an editor completes `typed` to, best first, by rowid with their
   * lower-cased title (the title index's `completions`; `weigh` refuses or weighs each by rowid).
   */
  titleCompletions(typed: string, weigh: (rowid: number) => number, limit: number): Array<{ readonly rowid: number; readonly title: string }> {
    return this.indexing.search.completions(typed, weigh, limit);
  }

  /** The title (lower-cased name and tags) of the asset at `rowid`, as the title index holds it. */
  titleOf(rowid: number): string | undefined {
    return this.indexing.search.titleOf(rowid);
  }

  /** Loads what search keeps in memory, between other work, so the first search after start does not pay for it. */
  warmUp(): Promise<void> {
    return this.indexing.search.warm();
  }

  // ---------------------------------------------------------------- writes (the rest: `writes`, assetWrites.ts)

  /** A preprocessed Seed (language, name); persists nothing. Images come back as given. */
  draft(seed: SeedInput, transferables: boolean): Promise<Seed | SeedInput> {
    return draftSeed(seed, this.classifier, transferables);
  }

  /** Puts a trashed asset back (the trash area's restore, its links made again first); returns its current revision. */
  restoreTrashed(entry: TrashEntry, by: WriteOptions): string {
    if (!this.trashed) throw new UnsupportedError('This assets area keeps no trash');
    return this.trashed.restore(entry, by);
  }

  /** What the history area reads and writes through: an asset's state now, and a restore of an earlier one. */
  historyTarget(): HistoryTarget {
    return {
      exists: (assetId: string): boolean => this.store.exists(assetId),
      current: (assetId: string): CurrentState | undefined => {
        if (!this.store.exists(assetId)) return undefined;
        const doc = this.store.doc(assetId);
        return { state: this.linkedState.state(doc), updated: Date.parse(doc.updated.value) };
      },
      restore: (assetId: string, state: AssetState, by: WriteOptions, restoredFrom: string): string =>
        this.writes.edit(assetId, { ...state, description: state.description ?? '' }, by, restoredFrom).revision,
    };
  }

  /** An asset's Sensitives, when it has findings and they are current (a pending asset's spans may not fit its text). */
  private sensitivesOf(doc: StoredAsset): Sensitives | undefined {
    const findings = this.secrets.storedFindings(doc.id);
    if (findings.length === 0 || !this.secrets.isCurrent(doc.id)) return undefined;
    const texts = this.secretTexts.textsOf(doc.id);
    if (!texts) return undefined;
    return sensitivesOf(flattened(doc), findings, { code: texts.code, name: texts.name, description: texts.description });
  }

  dispose(): void {
    this.secrets.dispose();
    this.similarity.dispose();
    this.indexing.dispose();
    this.tombstones.dispose();
  }
}
