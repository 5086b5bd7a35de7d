import type { StoreContext } from '../context.ts';
import { Emitter, type Disposable, type Event } from '../events.ts';
import type { LanguageClassifier } from '../classify/languageClassifier.ts';
import type {
  Conversation,
  Activities,
  Activity,
  Application,
  Asset,
  Assets,
  AssetsSearchWithFiltersInput,
  AssetsSearchWithFiltersOutput,
  Classification,
  ClassificationSpecific,
  Format,
  Formats,
  SearchedAsset,
  SearchedAssets,
  Seed,
  SeededAssetsRecommendation,
  SeededConnectorTracking,
  SeededFormat,
  SeededScoreIncrement,
  SeededTag,
  SeededWebsite,
  Tag,
  Website,
  ExportedAsset,
} from '../wire.ts';
import { InvalidInputError, NotFoundError, SearchUnspecifiedError } from '../errors.ts';
import { newId, stamp } from '../time.ts';
import { SearchIndex, type IndexedDocument, type SearchHit } from '../search/searchIndex.ts';
import { parseQuery } from '../search/query.ts';
import type { SemanticQuery } from '../search/hybridSearch.ts';
import { SIMILARITY_CHARS } from '../search/related.ts';
import { AssetSimilarity } from './similarity.ts';
import { indexedPrefix } from '../search/tokens.ts';
import { imageTypeOf, isKnownSpecific } from './languages.ts';
import { classificationOf, genericOf, specificFromFileName } from '../classify/languages.ts';
import { contentOf, suggestName, type Content } from './content.ts';
import { bytesOf, flattened, referencedFormat, renderFormat, renderFormats, withoutContent, type StoredAsset, type StoredFormat } from './render.ts';
import { checkFilters, matchesFilters, type FilterSubject } from './filters.ts';
import { exportAsset, type ExportType } from './exporter.ts';
import { Labels } from './labels.ts';

/**
 * A derived index kept in step with assets inside the same write transaction (the connector's
 * fingerprint index uses this). `text` is the asset's original fragment text ('' for binary).
 */
export interface AssetIndexer {
  upsert(assetId: string, text: string): void;
  remove(assetId: string): void;
  /**
   * Called once on registration so the index can catch up with assets written before it existed.
   * `all` is lazy: an index that already holds `count` entries (writes share transactions, so it
   * cannot have drifted) can skip reading every asset.
   */
  rebuild?(all: Iterable<{ readonly id: string; readonly text: string }>, count: number): void;
}

export interface ListOptions {
  readonly transferables?: boolean;
  readonly pseudo?: boolean;
  readonly suggested?: boolean;
}

/** Stored documents a page may hold (one larger document makes a page alone). */
const PAGE_BYTES = 4 * 1024 * 1024;

/** A listed asset: where it is stored and how many bytes its document takes. */
interface StoredRow {
  readonly rowid: number;
  readonly size: number;
}

/** Search results a page at a time, and their counts (complete once every page was read). */
export interface SearchedPages {
  readonly pages: Iterable<SearchedAsset[]>;
  counts(): { suggested: number; exact: number };
}

export interface SearchOptions {
  readonly transferables: boolean;
  readonly pseudo: boolean;
  /** Present while an embedding model is loaded: a query's search is then hybrid (semanticRecall.ts). */
  readonly semantic?: SemanticQuery | undefined;
}

/** Who made an asset when the seed does not say (Format.application is required on the wire). */
export const SATCHEL_APPLICATION: Application = {
  id: 'satchel-local',
  name: 'OPEN_SOURCE',
  version: '0.1.0',
  platform: process.platform === 'darwin' ? 'MACOS' : process.platform === 'win32' ? 'WINDOWS' : 'LINUX',
  onboarded: true,
  privacy: 'OPEN',
};

/** The one local user every record is attributed to. */
export const LOCAL_CREATOR = 'local-user';

const SEARCH_LIMIT = 100;
const LIST_LIMIT = 50;
/** In larger stores, recommendations rank the assets pointed at plus this many of the newest. */
const RECOMMENDED_RECENT = 500;
const TOMBSTONES = 256;
/**
 * Distinct assets a related or recommended request compares against: each costs a pass over the
 * corpus, and a UI shows a few. Repeats of one asset count once (with their weights summed).
 */
const MAX_REFERENCES = 64;
/** Text of a related request compared in all (each reference's share is cut to SIMILARITY_CHARS). */
const RELATED_QUERY_CHARS = 4 * SIMILARITY_CHARS;

interface Row {
  rowid: number;
  id: string;
  pseudo: number;
  suggested: number;
  data: string;
}

interface Prepared {
  readonly classification: Classification;
  readonly name: string;
  readonly content: Content;
  readonly image: boolean;
}

type AssetEvent =
  | 'asset_created'
  | 'asset_updated'
  | 'asset_deleted'
  | 'asset_format_specific_classification_updated'
  | 'asset_format_value_edited'
  | 'asset_tag_added'
  | 'asset_tag_deleted'
  | 'asset_link_added'
  | 'asset_link_deleted'
  | 'asset_referenced';

const EVENT_DESCRIPTIONS: Record<AssetEvent, string> = {
  asset_created: 'an_asset_was_created',
  asset_updated: 'an_asset_was_updated',
  asset_deleted: 'an_asset_was_deleted',
  asset_format_specific_classification_updated: 'a_specific_classification_was_changed_on_a_format_within_an_asset',
  asset_format_value_edited: 'a_specific_format_value_was_edited_on_an_asset',
  asset_tag_added: 'a_tag_was_added_by_the_user',
  asset_tag_deleted: 'a_tag_was_deleted_by_the_user',
  asset_link_added: 'a_link_was_added_by_the_user',
  asset_link_deleted: 'a_link_was_deleted_by_the_user',
  asset_referenced: 'an_asset_was_referenced_by_the_user',
};

/**
 * The stored document without the content of its first eight formats (assets have one to three),
 * removed by SQLite in one json_remove. It only saves work: rendering with transferables=false
 * strips every format again (`withoutContent`), so a ninth format's content never leaks.
 */
const CONTENT_FREE_DATA = `json_remove(data, ${Array.from({ length: 8 }, (_, i) =>
  ['fragment.string', 'fragment.bytes', 'file.string', 'file.bytes'].map((path) => `'$.formats.iterable[${i}].${path}'`),
)
  .flat()
  .join(', ')})`;

/** Assets and the records hanging off them (formats, tags, websites, activities). */
export class AssetService implements Disposable {
  private readonly context: StoreContext;
  private readonly classifier: LanguageClassifier;
  private readonly indexers: AssetIndexer[] = [];
  private readonly index: SearchIndex;
  private readonly similarity: AssetSimilarity;
  private readonly tombstones = new Map<string, Asset>();
  private readonly deletions = new Emitter<Asset>();
  readonly labels: Labels;
  /**
   * Renders a conversation linked to an asset (set by the composition root: conversations live in
   * another area, which depends on this one).
   */
  conversationOf: ((id: string, transferables: boolean) => Conversation) | undefined;
  /** Fires after commit with the last state of a deleted asset (content-free). */
  readonly onDidDelete: Event<Asset> = this.deletions.event;

  constructor(context: StoreContext, classifier: LanguageClassifier) {
    this.context = context;
    this.classifier = classifier;
    this.index = new SearchIndex(context.database);
    this.labels = new Labels(context);
    this.similarity = new AssetSimilarity(context, this.index, {
      ordinaryIds: () =>
        (this.context.database.prepare('SELECT id FROM assets WHERE suggested = 0 AND pseudo = 0').all() as Array<{ id: string }>).map((row) => row.id),
      texts: (column, keys) => this.ordinaryDocs(column, keys).map((doc) => ({ id: doc.id, text: textOf(doc) })),
    });
  }

  /** Registers a derived index; its upsert/remove run inside every asset write transaction. */
  registerIndexer(indexer: AssetIndexer): Disposable {
    this.indexers.push(indexer);
    indexer.rebuild?.(this.allTexts(), this.count());
    return { dispose: () => void this.indexers.splice(this.indexers.indexOf(indexer) >>> 0, 1) };
  }

  /** Every stored asset, suggested and pseudo ones included (what indexers see). */
  private count(): number {
    return (this.context.database.prepare('SELECT COUNT(*) AS n FROM assets').get() as { n: number }).n;
  }

  private *allTexts(): Iterable<{ id: string; text: string }> {
    const rows = this.context.database.prepare('SELECT data FROM assets ORDER BY rowid').all() as unknown as Array<{ data: string }>;
    for (const row of rows) {
      const doc = JSON.parse(row.data) as StoredAsset;
      yield { id: doc.id, text: textOf(doc) };
    }
  }

  // ---------------------------------------------------------------- reads

  exists(id: string): boolean {
    return this.row(id) !== undefined;
  }

  /** The text of an asset's original format (fragment or file), or undefined when there is no such asset. */
  text(id: string): string | undefined {
    const row = this.row(id);
    return row ? textOf(JSON.parse(row.data) as StoredAsset) : undefined;
  }

  get(id: string, options: { transferables?: boolean } = {}): Asset {
    return this.render(this.doc(id), options.transferables ?? true);
  }

  list(options: ListOptions = {}): Asset[] {
    return [...this.pages(options)].flat();
  }

  /**
   * The same assets as `list`, in pages read when asked for: a reply can be sent page by page
   * instead of holding every asset (540 MB at 9 × 60 MB) at once. A page holds at most `pageSize`
   * assets and `pageBytes` of stored documents, or one larger asset (see `storedPages`). The set is
   * fixed when the first page is read; an asset deleted meanwhile is left out, a changed one is
   * shown as it is when its page is read.
   */
  *pages(options: ListOptions = {}, pageSize = 64, pageBytes = PAGE_BYTES): Generator<Asset[]> {
    const transferables = options.transferables ?? true;
    const rows = this.listed({ suggested: options.suggested ?? false, pseudo: options.pseudo ?? false });
    for (const docs of this.storedPages(rows, transferables ? 'data' : CONTENT_FREE_DATA, pageSize, pageBytes)) {
      yield this.renderAll(docs, transferables);
    }
  }

  /** Ids of ordinary assets (and pseudo ones when asked), newest first. */
  identifiers(options: { pseudo?: boolean; onlyPseudo?: boolean } = {}): string[] {
    const sql = options.onlyPseudo
      ? 'SELECT id FROM assets WHERE suggested = 0 AND pseudo = 1 ORDER BY created DESC, rowid DESC'
      : 'SELECT id FROM assets WHERE suggested = 0 AND (pseudo = 0 OR ?) ORDER BY created DESC, rowid DESC';
    const statement = this.context.database.prepare(sql);
    const rows = (options.onlyPseudo ? statement.all() : statement.all(options.pseudo ? 1 : 0)) as unknown as Array<{ id: string }>;
    return rows.map((row) => row.id);
  }

  /** Whether an asset appears in ordinary snapshots and streams (neither pseudo nor suggested). */
  isOrdinary(id: string): boolean {
    const row = this.row(id);
    return row !== undefined && row.pseudo === 0 && row.suggested === 0;
  }

  /** The last state of a recently deleted asset, for streams announcing the deletion. */
  tombstone(id: string): Asset | undefined {
    return this.tombstones.get(id);
  }

  formats(id: string, transferables: boolean): Formats {
    return renderFormats(this.doc(id), transferables);
  }

  allFormats(transferables: boolean): Formats {
    return { iterable: this.docs().flatMap((doc) => renderFormats(doc, transferables).iterable) };
  }

  format(formatId: string, transferable: boolean): Format {
    const doc = this.docOfFormat(formatId);
    const format = doc.formats.iterable.find((f) => f.id === formatId);
    if (!format) throw new NotFoundError('format', formatId);
    return renderFormat(format, doc, transferable);
  }

  activities(id: string): Activities {
    const doc = this.doc(id);
    const iterable = this.context.links.partners({ kind: 'asset', id }, 'activity').flatMap((activityId) => {
      const activity = this.context.records.get<Activity>('activity', activityId);
      return activity ? [{ ...activity, asset: flattened(doc) }] : [];
    });
    return { iterable };
  }

  /** A read: it records no activity (a GET never writes). */
  exportAs(id: string, type: ExportType): ExportedAsset {
    return exportAsset(this.get(id), type);
  }

  /** Loads what search keeps in memory, between other work, so the first search after start does not pay for it. */
  warmUp(): Promise<void> {
    return this.index.warm();
  }

  // ---------------------------------------------------------------- writes

  /** Creates an asset from a Seed. `suggested` keeps it out of ordinary snapshots and searches. */
  async create(seed: Seed, options: { suggested?: boolean } = {}): Promise<Asset> {
    const prepared = await this.prepare(seed);
    const seeded = seed.asset;
    if (!seeded) throw new InvalidInputError('A Seed needs an asset to create one');
    // Creates arrive in bursts (imports, other tools): they share a commit, each still acknowledged only once durable.
    return this.context.groupTransaction(() => {
      const now = stamp();
      const formatId = newId();
      const application = { ...SATCHEL_APPLICATION, ...seeded.application };
      const format: StoredFormat = {
        id: formatId,
        creator: LOCAL_CREATOR,
        classification: prepared.classification,
        role: 'BOTH',
        application,
        bytes: bytesOf(prepared.content.size),
        created: now,
        updated: now,
      };
      setContent(format, seeded.format, prepared);
      const doc: StoredAsset = {
        id: newId(),
        creator: LOCAL_CREATOR,
        created: now,
        updated: now,
        name: prepared.name,
        formats: { iterable: [format] },
        preview: { base: { id: formatId } },
        original: { id: formatId },
        mechanism: seeded.metadata?.mechanism ?? 'MANUAL',
        score: { manual: 0, automatic: 0 },
        pseudo: seeded.pseudo === true,
      };
      if (seeded.discovered !== undefined) doc.discovered = seeded.discovered;
      if (seeded.demo !== undefined) doc.demo = seeded.demo;
      const tags = (seeded.metadata?.tags ?? []).map((tag) => this.labels.createTag({ text: tag.text, ...(tag.category ? { category: tag.category } : {}) }));
      // The keywords go into the INSERT: a second UPDATE would write the whole row (all of a large text) again.
      const keywords = SearchIndex.keywords({ name: prepared.name, tags: [...new Map(tags.map((t) => [t.id, t.text])).values()].join(' '), code: textOf(doc) });
      const result = this.context.database
        .prepare(
          `INSERT INTO assets (id, created, updated, pseudo, suggested, name, language, data, keywords)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(doc.id, now.value, now.value, doc.pseudo ? 1 : 0, options.suggested ? 1 : 0, prepared.name, format.classification.specific, JSON.stringify(doc), keywords);
      this.context.database.prepare('INSERT INTO asset_formats (id, asset_id) VALUES (?, ?)').run(formatId, doc.id);
      for (const stored of tags) this.context.links.link({ kind: 'asset', id: doc.id }, { kind: 'tag', id: stored.id });
      for (const website of seeded.metadata?.websites ?? []) {
        const stored = this.labels.createWebsite({ url: website.url, name: website.name });
        this.context.links.link({ kind: 'asset', id: doc.id }, { kind: 'website', id: stored.id });
      }
      this.reindex(Number(result.lastInsertRowid), doc, { created: true, written: keywords });
      this.addActivity(doc.id, 'asset_created', application);
      this.context.publish({ kind: 'asset', id: doc.id });
      this.context.publish({ kind: 'format', id: formatId });
      return this.render(doc, true);
    });
  }

  /** A preprocessed Seed (language, name); persists nothing. Images come back as given. */
  async draft(seed: Seed, transferables: boolean): Promise<Seed> {
    const seeded = seed.asset;
    if (!seeded) return seed;
    const prepared = await this.prepare(seed);
    if (prepared.image) return seed;
    const format: SeededFormat = { ...seeded.format, classification: prepared.classification };
    const ext = prepared.classification.specific;
    if (format.fragment) format.fragment = { ...format.fragment, metadata: { ...format.fragment.metadata, ext } };
    if (format.file) format.file = { ...format.file, metadata: { ...format.file.metadata, ext } };
    return {
      ...seed,
      type: seed.type ?? 'SEEDED_ASSET',
      asset: {
        ...seeded,
        application: { ...SATCHEL_APPLICATION, ...seeded.application },
        metadata: { ...seeded.metadata, name: prepared.name },
        format: transferables ? format : withoutContent(format),
      },
    };
  }

  /** Applies a full asset: name, flags, score and format contents/classifications it carries. */
  update(input: Asset): Asset {
    return this.context.transaction(() => {
      const { rowid, doc } = this.load(input.id);
      const now = stamp();
      const next: StoredAsset = { ...doc, updated: now };
      if (typeof input.name === 'string') next.name = input.name;
      if (input.mechanism) next.mechanism = input.mechanism;
      if (input.score) next.score = { ...doc.score, ...input.score };
      for (const flag of ['favorited', 'curated', 'discovered', 'demo', 'pseudo'] as const) {
        if (typeof input[flag] === 'boolean') next[flag] = input[flag];
      }
      if (input.interacted) next.interacted = input.interacted;
      next.formats = {
        iterable: doc.formats.iterable.map((format) => {
          const incoming = input.formats?.iterable?.find((f) => f?.id === format.id);
          return incoming ? updatedFormat(format, incoming, now) : format;
        }),
      };
      this.save(rowid, next, true, doc);
      this.addActivity(doc.id, 'asset_updated');
      return this.render(next, true);
    });
  }

  delete(id: string): string {
    return this.context.transaction(() => {
      const { rowid, doc } = this.load(id);
      const last: Asset = { ...this.render(doc, false), deleted: stamp() };
      for (const activityId of this.context.links.partners({ kind: 'asset', id }, 'activity')) {
        this.context.records.delete('activity', activityId);
      }
      this.context.links.removeAll({ kind: 'asset', id });
      this.index.remove(rowid);
      this.context.database.prepare('DELETE FROM asset_formats WHERE asset_id = ?').run(id);
      this.context.database.prepare('DELETE FROM assets WHERE rowid = ?').run(rowid);
      for (const indexer of this.indexers) indexer.remove(id);
      this.context.database.onCommit(() => {
        this.tombstones.set(id, last);
        if (this.tombstones.size > TOMBSTONES) this.tombstones.delete(this.tombstones.keys().next().value as string);
        this.deletions.fire(last);
      });
      this.context.publish({ kind: 'asset', id, deleted: true });
      for (const format of doc.formats.iterable) this.context.publish({ kind: 'format', id: format.id, deleted: true });
      return id;
    });
  }

  /** Every format of the asset takes the target language. */
  reclassify(id: string, ext: ClassificationSpecific): Asset {
    if (!isKnownSpecific(ext)) throw new InvalidInputError(`Unknown classification ${JSON.stringify(ext)}`);
    return this.context.transaction(() => {
      const { rowid, doc } = this.load(id);
      const now = stamp();
      const next: StoredAsset = {
        ...doc,
        updated: now,
        formats: {
          iterable: doc.formats.iterable.map((format) => {
            const changed: StoredFormat = { ...format, classification: { ...format.classification, ...classificationOf(ext) }, updated: now };
            if (changed.fragment) changed.fragment = { ...changed.fragment, metadata: { ...changed.fragment.metadata, ext } };
            return changed;
          }),
        },
      };
      this.context.database.prepare('UPDATE assets SET language = ? WHERE rowid = ?').run(ext, rowid);
      this.save(rowid, next, true, doc);
      this.addActivity(id, 'asset_format_specific_classification_updated');
      return this.render(next, true);
    });
  }

  /** POST /format/update/value: a format's content (and classification) from a Format. */
  updateFormatValue(input: Format, transferable: boolean): Format {
    return this.context.transaction(() => {
      const owner = this.docOfFormat(input.id);
      const { rowid, doc } = this.load(owner.id);
      const now = stamp();
      const current = doc.formats.iterable.find((f) => f.id === input.id);
      if (!current) throw new NotFoundError('format', input.id);
      if (!contentOf(input)) throw new InvalidInputError('The format carries no value (fragment or file content)');
      const changed = updatedFormat(current, input, now);
      const next: StoredAsset = {
        ...doc,
        updated: now,
        formats: { iterable: doc.formats.iterable.map((f) => (f.id === input.id ? changed : f)) },
      };
      this.save(rowid, next, true, doc);
      this.addActivity(doc.id, 'asset_format_value_edited');
      this.context.publish({ kind: 'format', id: input.id });
      return renderFormat(changed, next, transferable);
    });
  }

  incrementScores(id: string, increment: SeededScoreIncrement): void {
    this.context.transaction(() => {
      const { rowid, doc } = this.load(id);
      const seeded = increment.asset ?? increment.assets;
      if (!seeded) return;
      const score = { manual: 0, automatic: 0, ...doc.score };
      for (const key of ['reuse', 'update', 'reference', 'priority', 'searched'] as const) {
        if (seeded[key] === true) score[key] = (score[key] ?? 0) + 1;
      }
      this.save(rowid, { ...doc, score }, false);
    });
  }

  /** Records an activity event (the connector's react/track) on an asset. */
  recordActivity(id: string, event: SeededConnectorTracking, application?: Application): void {
    this.context.transaction(() => {
      this.load(id);
      this.storeActivity(id, event, application);
    });
  }

  associate(assetId: string, kind: 'tag' | 'website' | 'workstream_summary', targetId: string): void {
    this.context.transaction(() => {
      const { rowid, doc } = this.load(assetId);
      this.requireTarget(kind, targetId);
      const made = this.context.links.link({ kind: 'asset', id: assetId }, { kind, id: targetId });
      if (!made) return;
      if (kind === 'tag') this.reindex(rowid, doc, { previous: doc });
      if (kind !== 'workstream_summary') this.addActivity(assetId, kind === 'tag' ? 'asset_tag_added' : 'asset_link_added');
      this.context.publish({ kind: 'asset', id: assetId });
      this.context.publish({ kind, id: targetId });
    });
  }

  disassociate(assetId: string, kind: 'tag' | 'website' | 'workstream_summary', targetId: string): void {
    this.context.transaction(() => {
      const { rowid, doc } = this.load(assetId);
      this.requireTarget(kind, targetId);
      const existed = this.context.links.unlink({ kind: 'asset', id: assetId }, { kind, id: targetId });
      if (!existed) return;
      if (kind === 'tag') this.reindex(rowid, doc, { previous: doc });
      if (kind !== 'workstream_summary') this.addActivity(assetId, kind === 'tag' ? 'asset_tag_deleted' : 'asset_link_deleted');
      this.context.publish({ kind: 'asset', id: assetId });
      this.context.publish({ kind, id: targetId });
    });
  }

  /** POST /tags/create: the tag (existing one with the same text reused), linked to `seed.asset` if given. */
  createTag(seed: SeededTag): Tag {
    return this.context.transaction(() => {
      if (seed.asset) this.load(seed.asset);
      const tag = this.labels.createTag(seed);
      if (seed.asset) this.associate(seed.asset, 'tag', tag.id);
      return this.labels.tag(tag.id);
    });
  }

  /** POST /websites/create: the website (existing one with the same url reused), linked to `seed.asset` if given. */
  createWebsite(seed: SeededWebsite): Website {
    return this.context.transaction(() => {
      if (seed.asset) this.load(seed.asset);
      const website = this.labels.createWebsite(seed);
      if (seed.asset) this.associate(seed.asset, 'website', website.id);
      return this.labels.website(website.id);
    });
  }

  // ---------------------------------------------------------------- search

  /** GET /assets/search: fuzzy on `query`, tag search on `tags`; both given → AND. */
  search(input: { query?: string; tags?: readonly string[] }, options: SearchOptions): SearchedAssets {
    return collected(this.searchPages(input, options));
  }

  /** GET /assets/search with its results a page at a time (see `searchPagesWithFilters`). */
  searchPages(input: { query?: string; tags?: readonly string[] }, options: SearchOptions): SearchedPages {
    const query = input.query?.trim() ?? '';
    const tags = (input.tags ?? []).map((t) => t.trim()).filter(Boolean);
    if (query === '' && tags.length === 0) {
      throw new SearchUnspecifiedError('Give a query or searchable_tags to search assets');
    }
    const hitPages: Iterable<Hit[]> = query
      ? this.queryPages(query, options.pseudo, false, options.transferables ? 'data' : CONTENT_FREE_DATA, options.semantic)
      : [this.tagged(tags, options.pseudo)];
    const wanted = tags.map((t) => t.toLowerCase());
    const kept = (hit: Hit): boolean => {
      if (wanted.length === 0) return true;
      const own = new Set(this.labels.tagsOfAsset(hit.doc.id).map((t) => t.text.toLowerCase()));
      return wanted.every((t) => own.has(t));
    };
    return this.searchedResults(hitPages, kept, options.transferables);
  }

  /** GET /search/full_text: the word and phrase stages of search only; no fuzzy (typo-tolerant) matches. */
  fullTextSearch(query: string, options: SearchOptions): SearchedAssets {
    const trimmed = query.trim();
    if (trimmed === '') throw new InvalidInputError('Give a query to search the full text of assets');
    return this.searched(
      this.runQuery(trimmed, options.pseudo).filter((hit) => hit.match !== 'FUZZY'),
      options.transferables,
    );
  }

  /**
   * GET /search/neural_code: assets whose code is closest to the query, ranked by the content
   * similarity `related` uses (TF-IDF over identifier sub-tokens, so `parseJson` meets "parse json").
   * Satchel has no neural code model; this is its code-similarity ranking, and says so in the README.
   */
  codeSearch(query: string, options: SearchOptions): SearchedAssets {
    if (query.trim() === '') throw new InvalidInputError('Give a query to search code');
    const similar = this.similarity.current().similar(indexedPrefix(query, SIMILARITY_CHARS), { limit: SEARCH_LIMIT });
    const scores = new Map(similar.map((hit) => [hit.id, hit.score]));
    const hits: Hit[] = this.ordinaryDocs('id', similar.map((hit) => hit.id)).map((doc) => ({
      doc,
      score: scores.get(doc.id) ?? 0,
      match: 'CONTENT',
      exact: false,
    }));
    return this.searched(hits, options.transferables);
  }

  /** POST /assets/search: query, search space and filters, combined with AND. */
  searchWithFilters(input: AssetsSearchWithFiltersInput, options: SearchOptions): AssetsSearchWithFiltersOutput {
    return { results: collected(this.searchPagesWithFilters(input, options)) };
  }

  /**
   * POST /assets/search with its results produced a page at a time (see `pages`): without a
   * query every asset is a result, so the reply may hold the whole store. The input is checked
   * and a query run before this returns; `counts` is complete once every page was read.
   */
  searchPagesWithFilters(input: AssetsSearchWithFiltersInput, options: SearchOptions): SearchedPages {
    checkFilters(input.filters);
    const query = input.query?.trim() ?? '';
    const casing = input.casing === true;
    const spaceIds = spaceOf(input);
    const filters = input.filters && input.filters.iterable.length > 0 ? input.filters : undefined;
    const kept = (hit: Hit): boolean =>
      (!spaceIds || spaceIds.has(hit.doc.id)) && (!filters || matchesFilters(this.subject(hit.doc), filters, casing));
    // A query's hits (at most SEARCH_LIMIT), or without one every asset, are read a page at a
    // time, and without their content when neither the reply nor a filter needs it.
    const column = options.transferables || filters ? 'data' : CONTENT_FREE_DATA;
    const hitPages: Iterable<Hit[]> = query
      ? this.queryPages(query, options.pseudo, casing, column, options.semantic)
      : mapPages(this.storedPages(this.listed({ pseudo: options.pseudo }), column), (doc) => ({
          doc,
          score: 1,
          match: 'UNKNOWN' as const,
          exact: false,
        }));
    return this.searchedResults(hitPages, kept, options.transferables);
  }

  /** The kept hits of each page as search results, counted as they are produced. */
  private searchedResults(hitPages: Iterable<Hit[]>, kept: (hit: Hit) => boolean, transferables: boolean): SearchedPages {
    const counts = { suggested: 0, exact: 0 };
    return { pages: this.searchedPages(hitPages, kept, transferables, counts), counts: () => ({ ...counts }) };
  }

  /** The kept hits of each page as search results, counted into `counts`; empty pages are skipped. */
  private *searchedPages(
    hitPages: Iterable<Hit[]>,
    kept: (hit: Hit) => boolean,
    transferables: boolean,
    counts: { suggested: number; exact: number },
  ): Generator<SearchedAsset[]> {
    for (const hits of hitPages) {
      const page = this.searchedEntries(hits.filter(kept), transferables);
      for (const entry of page) counts[entry.exact ? 'exact' : 'suggested']++;
      if (page.length > 0) yield page;
    }
  }

  /** Assets similar in content to the given ones (TF-IDF over identifier sub-tokens). */
  related(input: Assets | undefined): Assets {
    const given = distinctReferences(input?.iterable ?? []);
    if (given.length === 0) return { iterable: [] };
    const exclude = new Set(given.flatMap((a) => (a.id ? [a.id] : [])));
    let text = '';
    for (const asset of given) {
      if (text.length >= RELATED_QUERY_CHARS) break;
      text += `${indexedPrefix(this.textOfInput(asset), SIMILARITY_CHARS)}\n`;
    }
    const similar = this.similarity.current().similar(text, { exclude, limit: LIST_LIMIT });
    return this.collection(this.ordinaryDocs('id', similar.map((s) => s.id)));
  }

  /** The newest ordinary assets (by creation: the listing index has that order). */
  private newest(limit: number): string[] {
    const rows = this.context.database
      .prepare('SELECT id FROM assets WHERE suggested = 0 AND pseudo = 0 ORDER BY created DESC LIMIT ?')
      .all(limit) as Array<{ id: string }>;
    return rows.map((row) => row.id);
  }

  /** The ordinary (neither suggested nor pseudo) assets among `keys`, in that order. */
  private ordinaryDocs(column: 'id' | 'rowid', keys: readonly (string | number)[]): StoredAsset[] {
    const rows = this.context.database
      .prepare(
        `SELECT a.data AS data FROM json_each(?) j CROSS JOIN assets a ON a.${column} = j.value
         WHERE a.suggested = 0 AND a.pseudo = 0 ORDER BY j.key`,
      )
      .all(JSON.stringify(keys)) as unknown as Array<{ data: string }>;
    return rows.map((row) => JSON.parse(row.data) as StoredAsset);
  }

  /** Assets ordered for a UI from index-paired interactions and assets (none → by use and recency). */
  recommended(input: SeededAssetsRecommendation | undefined): Assets {
    const assets = input?.assets?.iterable ?? [];
    const interactions = input?.interactions?.iterable ?? [];
    if (assets.length !== interactions.length) {
      throw new InvalidInputError(`assets (${assets.length}) and interactions (${interactions.length}) must be index-paired`);
    }
    // Repeated references to one asset are compared once, with their weights summed.
    const weights = new Map<Partial<Asset>, number>();
    const byId = new Map<string, Partial<Asset>>();
    assets.forEach((asset, i) => {
      const interaction = interactions[i]?.interactions;
      const weight = 1 + (interaction?.touched ? 2 : 0) + (interaction?.scrolled ? 1 : 0);
      const key = asset.id ? (byId.get(asset.id) ?? byId.set(asset.id, asset).get(asset.id)!) : asset;
      weights.set(key, (weights.get(key) ?? 0) + weight);
    });
    const affinity = new Map<string, number>();
    const similarity = this.similarity.current();
    // The most weighted references are compared by content; every one counts for itself.
    const compared = [...weights].sort((a, b) => b[1] - a[1]).slice(0, MAX_REFERENCES);
    for (const [asset, weight] of compared) {
      for (const s of similarity.similar(indexedPrefix(this.textOfInput(asset), SIMILARITY_CHARS))) {
        affinity.set(s.id, (affinity.get(s.id) ?? 0) + weight * s.score);
      }
    }
    for (const [asset, weight] of weights) if (asset.id) affinity.set(asset.id, (affinity.get(asset.id) ?? 0) + weight);
    // A large store ranks what the interactions point at and its newest assets, rather than
    // reading every asset. Ranking reads a few fields of each, not its content.
    const corpus = this.rankingFacts(similarity.exact ? undefined : [...new Set([...affinity.keys(), ...this.newest(RECOMMENDED_RECENT)])]);
    const newest = Math.max(0, ...corpus.map((facts) => facts.updated));
    const oldest = Math.min(newest, ...corpus.map((facts) => facts.updated));
    const rank = (facts: RankingFacts): number => {
      const recency = newest > oldest ? (facts.updated - oldest) / (newest - oldest) : 0;
      return (affinity.get(facts.id) ?? 0) + 0.1 * Math.log1p(facts.use) + (facts.favorited ? 0.1 : 0) + 0.05 * recency;
    };
    const ordered = corpus.map((facts) => ({ id: facts.id, rank: rank(facts) })).sort((a, b) => b.rank - a.rank);
    return this.collection(this.ordinaryDocs('id', ordered.slice(0, LIST_LIMIT).map((entry) => entry.id)));
  }

  /** What recommendations rank ordinary assets by (all of them, or those among `ids`), newest first. */
  private rankingFacts(ids: readonly string[] | undefined): RankingFacts[] {
    const facts = `a.id AS id, a.updated AS updated, json_extract(a.data, '$.favorited') AS favorited,
      json_extract(a.data, '$.score.reuse') AS reuse, json_extract(a.data, '$.score.update') AS "update",
      json_extract(a.data, '$.score.reference') AS reference, json_extract(a.data, '$.score.searched') AS searched,
      json_extract(a.data, '$.score.priority') AS priority`;
    const rows = (
      ids === undefined
        ? this.context.database
            .prepare(`SELECT ${facts} FROM assets a WHERE a.suggested = 0 AND a.pseudo = 0 ORDER BY a.created DESC, a.rowid DESC`)
            .all()
        : this.context.database
            .prepare(`SELECT ${facts} FROM json_each(?) j CROSS JOIN assets a ON a.id = j.value WHERE a.suggested = 0 AND a.pseudo = 0 ORDER BY j.key`)
            .all(JSON.stringify(ids))
    ) as Array<{ id: string; updated: string; favorited: number | null } & Record<'reuse' | 'update' | 'reference' | 'searched' | 'priority', number | null>>;
    return rows.map((row) => ({
      id: row.id,
      updated: Date.parse(row.updated),
      favorited: row.favorited === 1,
      use: (row.reuse ?? 0) + (row.update ?? 0) + (row.reference ?? 0) + (row.searched ?? 0) + (row.priority ?? 0),
    }));
  }

  dispose(): void {
    this.similarity.dispose();
    this.index.dispose();
    this.deletions.dispose();
    this.tombstones.clear();
  }

  // ---------------------------------------------------------------- internals

  private row(id: string): Row | undefined {
    return this.context.database.prepare('SELECT rowid, id, pseudo, suggested, data FROM assets WHERE id = ?').get(id) as unknown as
      | Row
      | undefined;
  }

  private load(id: string): { rowid: number; doc: StoredAsset } {
    const row = this.row(id);
    if (!row) throw new NotFoundError('asset', id);
    return { rowid: row.rowid, doc: JSON.parse(row.data) as StoredAsset };
  }

  private doc(id: string): StoredAsset {
    return this.load(id).doc;
  }

  private docOfFormat(formatId: string): StoredAsset {
    const row = this.context.database.prepare('SELECT asset_id FROM asset_formats WHERE id = ?').get(formatId) as
      | { asset_id: string }
      | undefined;
    if (!row) throw new NotFoundError('format', formatId);
    return this.doc(row.asset_id);
  }

  /** Rowids and stored sizes of ordinary assets (or suggested ones; pseudo ones only when asked), newest first. */
  private listed(options: { suggested?: boolean; pseudo?: boolean } = {}): StoredRow[] {
    // octet_length reads the size from the record header, not the document's overflow pages.
    return this.context.database
      .prepare('SELECT rowid, octet_length(data) AS size FROM assets WHERE suggested = ? AND (pseudo = 0 OR ?) ORDER BY created DESC, rowid DESC')
      .all(options.suggested ? 1 : 0, options.pseudo ? 1 : 0) as unknown as StoredRow[];
  }

  /**
   * The documents of `rows` in pages of at most `pageSize` documents and `pageBytes` of stored
   * bytes, or one larger document alone, read one row per statement. Each step a caller takes
   * between two pages is thus bounded by what it reads, whatever `column` makes of the document:
   * without content SQLite still reads every page of it (1.2 s in one statement at 9 × 60 MB).
   * A row deleted since `rows` were listed is left out.
   */
  private storedPages(rows: readonly StoredRow[], column: string, pageSize?: number, pageBytes?: number): Generator<StoredAsset[]>;
  private storedPages(rows: readonly StoredRow[], column: string, pageSize: number, pageBytes: number, withRowids: true): Generator<Array<{ rowid: number; doc: StoredAsset }>>;
  private *storedPages(
    rows: readonly StoredRow[],
    column: string,
    pageSize = 64,
    pageBytes = PAGE_BYTES,
    withRowids = false,
  ): Generator<StoredAsset[] | Array<{ rowid: number; doc: StoredAsset }>> {
    const read = this.context.database.prepare(`SELECT ${column} AS data FROM assets WHERE rowid = ?`);
    let page: number[] = [];
    let bytes = 0;
    const take = (): StoredAsset[] | Array<{ rowid: number; doc: StoredAsset }> => {
      const docs = page.flatMap((rowid) => {
        const row = read.get(rowid) as { data: string } | undefined;
        return row ? [{ rowid, doc: JSON.parse(row.data) as StoredAsset }] : [];
      });
      return withRowids ? docs : docs.map((entry) => entry.doc);
    };
    for (const row of rows) {
      if (page.length > 0 && (page.length >= pageSize || bytes + row.size > pageBytes)) {
        yield take();
        page = [];
        bytes = 0;
      }
      page.push(row.rowid);
      bytes += row.size;
    }
    if (page.length > 0) yield take();
  }

  /** Stored documents of ordinary assets (or suggested ones; pseudo ones only when asked), newest first, read as in `storedPages`. */
  private docs(options: { suggested?: boolean; pseudo?: boolean } = {}): StoredAsset[] {
    return [...this.storedPages(this.listed(options), 'data')].flat();
  }

  private requireTarget(kind: 'tag' | 'website' | 'workstream_summary', id: string): void {
    if (!this.context.records.has(kind, id)) throw new NotFoundError(kind, id);
  }

  /**
   * Writes the document and keeps the search index and indexers in step (same transaction).
   * `previous`, the document before this write, lets the index skip what did not change.
   */
  private save(rowid: number, doc: StoredAsset, reindex = true, previous?: StoredAsset): void {
    const document = reindex ? this.indexedDocument(doc) : undefined;
    const keywords = document ? SearchIndex.keywords(document) : null;
    this.context.database
      .prepare('UPDATE assets SET updated = ?, pseudo = ?, name = ?, data = ?, keywords = COALESCE(?, keywords) WHERE rowid = ?')
      .run(doc.updated.value, doc.pseudo ? 1 : 0, doc.name ?? '', JSON.stringify(doc), keywords, rowid);
    if (document && keywords !== null) this.reindex(rowid, doc, { document, written: keywords, ...(previous ? { previous } : {}) });
    this.context.publish({ kind: 'asset', id: doc.id });
  }

  private indexedDocument(doc: StoredAsset): IndexedDocument {
    return { name: doc.name ?? '', tags: this.labels.tagsOfAsset(doc.id).map((t) => t.text).join(' '), code: textOf(doc) };
  }

  /**
   * Brings the search index and the indexers in step with `doc`. `written` is the keywords value
   * the row already holds: an UPDATE of one column rewrites the whole row, a large text included.
   */
  private reindex(
    rowid: number,
    doc: StoredAsset,
    options: { created?: boolean; previous?: StoredAsset; document?: IndexedDocument; written?: string } = {},
  ): void {
    const document = options.document ?? this.indexedDocument(doc);
    const keywords = SearchIndex.keywords(document);
    if (keywords !== options.written) this.context.database.prepare('UPDATE assets SET keywords = ? WHERE rowid = ?').run(keywords, rowid);
    if (options.created) this.index.insert(rowid, document);
    else this.index.upsert(rowid, document, options.previous ? textOf(options.previous) : undefined);
    for (const indexer of this.indexers) indexer.upsert(doc.id, document.code);
  }

  private render(doc: StoredAsset, transferables: boolean, linked = this.linkedOf([doc.id]).get(doc.id)): Asset {
    const asset: Asset = {
      ...doc,
      formats: renderFormats(doc, transferables),
      original: referencedFormat(doc, doc.original.id, transferables),
      preview: {
        ...doc.preview,
        base: referencedFormat(doc, doc.preview.base.id, transferables),
        ...(doc.preview.overlay ? { overlay: referencedFormat(doc, doc.preview.overlay.id, transferables) } : {}),
      },
    };
    asset.tags = { iterable: linked?.tags ?? [] };
    asset.websites = { iterable: linked?.websites ?? [] };
    if (linked && linked.summaries.length > 0) asset.summaries = { iterable: linked.summaries };
    // The client reads Asset.conversations as full Conversations: rendered by their own area.
    const conversations = (linked?.conversations ?? []).flatMap((id) => this.conversationOf?.(id, transferables) ?? []);
    asset.conversations = { iterable: conversations, indices: Object.fromEntries(conversations.map((c, i) => [c.id, i])) };
    return asset;
  }

  /** Many assets at once: their tags, websites and summaries come from one query, not three per asset. */
  private renderAll(docs: readonly StoredAsset[], transferables: boolean): Asset[] {
    const linked = this.linkedOf(docs.map((doc) => doc.id));
    return docs.map((doc) => this.render(doc, transferables, linked.get(doc.id)));
  }

  /** The tag, website, summary and conversation records linked to each asset, oldest link first. */
  private linkedOf(ids: readonly string[]): Map<string, Linked> {
    const out = new Map<string, Linked>(ids.map((id) => [id, { tags: [], websites: [], summaries: [], conversations: [] }]));
    const rows = this.context.database
      .prepare(
        `SELECT l.a_id AS asset, l.b_kind AS kind, r.data AS data FROM json_each(?) j
         CROSS JOIN links l ON l.a_kind = 'asset' AND l.a_id = j.value
         CROSS JOIN records r ON r.kind = l.b_kind AND r.id = l.b_id
         WHERE l.b_kind IN ('tag', 'website', 'workstream_summary', 'conversation')
         ORDER BY l.rowid`,
      )
      .all(JSON.stringify(ids)) as Array<{ asset: string; kind: 'tag' | 'website' | 'workstream_summary' | 'conversation'; data: string }>;
    for (const row of rows) {
      const entry = out.get(row.asset);
      if (!entry) continue;
      if (row.kind === 'tag') entry.tags.push(JSON.parse(row.data) as Tag);
      else if (row.kind === 'website') entry.websites.push(JSON.parse(row.data) as Website);
      else if (row.kind === 'conversation') entry.conversations.push((JSON.parse(row.data) as { id: string }).id);
      else entry.summaries.push(JSON.parse(row.data) as Summary);
    }
    return out;
  }

  private collection(docs: StoredAsset[]): Assets {
    const iterable = this.renderAll(docs, true);
    return { iterable, indices: Object.fromEntries(iterable.map((asset, i) => [asset.id, i])) };
  }

  private textOfInput(asset: Partial<Asset>): string {
    const given = (asset.formats?.iterable ?? []).map((f) => (f ? contentOf(f)?.text ?? '' : '')).join('\n');
    if (given.trim() !== '') return given;
    const row = asset.id ? this.row(asset.id) : undefined;
    return row ? textOf(JSON.parse(row.data) as StoredAsset) : '';
  }

  private subject(doc: StoredAsset): FilterSubject {
    const tags = this.labels.tagsOfAsset(doc.id);
    const websites = this.labels.websitesOfAsset(doc.id);
    return {
      name: doc.name ?? '',
      text: textOf(doc),
      languages: doc.formats.iterable.map((f) => f.classification.specific),
      tags: tags.flatMap((t) => [t.id, t.text]),
      websites: websites.flatMap((w) => [w.id, w.url, w.name]),
      annotations: [],
      created: doc.created.value,
      updated: doc.updated.value,
    };
  }

  /** Assets carrying every tag, newest first: from the tags' links, not a scan of every asset. */
  private tagged(tags: readonly string[], includePseudo: boolean): Hit[] {
    let ids: string[] | undefined;
    for (const tag of tags) {
      const carrying = new Set(this.labels.assetsTagged(tag));
      ids = ids ? ids.filter((id) => carrying.has(id)) : [...carrying];
      if (ids.length === 0) return [];
    }
    const rows = this.context.database
      .prepare(
        `SELECT a.data AS data FROM json_each(?) j CROSS JOIN assets a ON a.id = j.value
         WHERE a.suggested = 0 AND (a.pseudo = 0 OR ?) ORDER BY a.created DESC, a.rowid DESC`,
      )
      .all(JSON.stringify(ids ?? []), includePseudo ? 1 : 0) as unknown as Array<{ data: string }>;
    return rows.map((row) => ({ doc: JSON.parse(row.data) as StoredAsset, score: 1, match: 'TAGS', exact: true }));
  }

  private docsByRowid(rowids: readonly number[]): Map<number, StoredAsset> {
    const out = new Map<number, StoredAsset>();
    const statement = this.context.database.prepare('SELECT data FROM assets WHERE rowid = ?');
    for (const rowid of rowids) {
      const row = statement.get(rowid) as { data: string } | undefined;
      if (row) out.set(rowid, JSON.parse(row.data) as StoredAsset);
    }
    return out;
  }

  private runQuery(query: string, includePseudo: boolean, caseSensitive = false): Hit[] {
    return [...this.queryPages(query, includePseudo, caseSensitive, 'data')].flat();
  }

  /**
   * A query's hits in index order a page at a time, their documents read as `storedPages` reads
   * them (`column` may leave the content out): a query matching several very large assets reads
   * one of them per page instead of all at once, so whoever sends the pages can let health in.
   */
  private queryPages(query: string, includePseudo: boolean, caseSensitive: boolean, column: string, semantic?: SemanticQuery): Iterable<Hit[]> {
    const { phrases, terms } = parseQuery(query);
    const scope = { limit: SEARCH_LIMIT, includePseudo };
    let hits: SearchHit[] = terms.length > 0 ? this.index.search(terms, scope) : [];
    if (phrases.length > 0) {
      let candidates: number[] | undefined;
      for (const phrase of phrases) {
        const found = new Set(this.index.phraseCandidates(phrase, { limit: 10 * SEARCH_LIMIT, includePseudo }));
        candidates = candidates ? candidates.filter((rowid) => found.has(rowid)) : [...found];
      }
      const docs = this.docsByRowid(candidates ?? []);
      const verified = new Set(
        [...docs].filter(([, doc]) => this.containsAll(doc, phrases, caseSensitive)).map(([rowid]) => rowid),
      );
      hits =
        terms.length > 0
          ? hits.filter((hit) => verified.has(hit.rowid))
          : [...verified].slice(0, SEARCH_LIMIT).map((rowid) => ({ rowid, stage: 'phrase' as const, score: 1 }));
    }
    // Phrases are exact constraints a vector cannot check: only plain terms are searched by meaning too.
    if (semantic && phrases.length === 0 && terms.length > 0) hits = semantic.fuse(hits, scope);
    // Sizes come from the record header (no document read); a hit deleted meanwhile has no row.
    const sizeOf = this.context.database.prepare('SELECT octet_length(data) AS size FROM assets WHERE rowid = ?');
    const rows: StoredRow[] = [];
    for (const hit of hits) {
      const row = sizeOf.get(hit.rowid) as { size: number } | undefined;
      if (row) rows.push({ rowid: hit.rowid, size: row.size });
    }
    // The query ran above, before any reply is started; only reading the documents is deferred.
    const byRowid = new Map(hits.map((hit) => [hit.rowid, hit]));
    return mapPages(this.storedPages(rows, column, 64, PAGE_BYTES, true), ({ rowid, doc }) => {
      const hit = byRowid.get(rowid)!;
      return { doc, score: hit.score, match: matchOf(hit, doc, terms, phrases), exact: hit.stage !== 'fuzzy' && hit.stage !== 'semantic' };
    });
  }

  /** Whether every phrase occurs in the asset's name, text or tags (each lower-cased once, not once per phrase). */
  private containsAll(doc: StoredAsset, phrases: readonly string[], caseSensitive: boolean): boolean {
    const fold = (text: string): string => (caseSensitive ? text : text.toLowerCase());
    const places = [doc.name ?? '', textOf(doc), ...this.labels.tagsOfAsset(doc.id).map((t) => t.text)].map(fold);
    return phrases.every((phrase) => {
      const wanted = fold(phrase);
      return places.some((place) => place.includes(wanted));
    });
  }

  private searched(hits: Hit[], transferables: boolean): SearchedAssets {
    return collected(this.searchedResults([hits], () => true, transferables));
  }

  private searchedEntries(hits: readonly Hit[], transferables: boolean): SearchedAsset[] {
    const assets = this.renderAll(hits.map((hit) => hit.doc), transferables);
    return hits.map((hit, i) => {
      const entry: SearchedAsset = {
        exact: hit.exact,
        score: Math.round(hit.score * 1000) / 1000,
        match: hit.match,
        identifier: hit.doc.id,
        asset: assets[i]!,
      };
      if (hit.doc.pseudo) entry.pseudo = true;
      return entry;
    });
  }

  private addActivity(assetId: string, event: AssetEvent, application?: Application): void {
    const tracking = {
      asset: { asset: { id: assetId }, identifier_description_pair: { [event]: EVENT_DESCRIPTIONS[event] } },
    } as unknown as SeededConnectorTracking;
    this.storeActivity(assetId, tracking, application);
  }

  private storeActivity(assetId: string, event: SeededConnectorTracking, application?: Application): void {
    const now = stamp();
    const activity: Activity = {
      id: newId(),
      created: now,
      updated: now,
      event,
      application: { ...SATCHEL_APPLICATION, ...application },
      mechanism: 'AUTOMATIC',
    };
    this.context.records.put('activity', activity.id, activity);
    this.context.links.link({ kind: 'asset', id: assetId }, { kind: 'activity', id: activity.id });
    this.context.publish({ kind: 'activity', id: activity.id });
  }

  private async prepare(seed: Seed): Promise<Prepared> {
    const seeded = seed.asset;
    if (!seeded) throw new InvalidInputError('A Seed needs an asset (Seed.asset with a format)');
    const format = seeded.format;
    const content = format ? contentOf(format) : undefined;
    if (!format || !content) {
      throw new InvalidInputError('The seed has no content: give asset.format.fragment.string.raw or asset.format.file.bytes.raw');
    }
    const given = format.classification?.specific ?? format.fragment?.metadata?.ext ?? format.file?.metadata?.ext;
    if (given !== undefined && !isKnownSpecific(given)) throw new InvalidInputError(`Unknown classification ${JSON.stringify(given)}`);
    const image = content.bytes ? imageTypeOf(Uint8Array.from(content.bytes.slice(0, 16))) : undefined;
    let specific = given ?? (format.file?.metadata?.name ? specificFromFileName(format.file.metadata.name) : undefined) ?? image;
    if (!specific) {
      if (content.text.trim() !== '') specific = (await this.classifier.classify(content.text)).specific;
      else specific = (content.bytes ? 'bin' : 'txt') as ClassificationSpecific;
    }
    const generic = format.classification?.generic ?? genericOf(specific);
    const fileName = format.file?.metadata?.name;
    const name = seeded.metadata?.name?.trim() || fileName || suggestName(content.text);
    return { classification: { generic, specific }, name, content, image: generic === 'IMAGE' };
  }
}

type Summary = NonNullable<Asset['summaries']>['iterable'][number];

/** What an asset's reply carries of the records linked to it. */
interface Linked {
  readonly tags: Tag[];
  readonly websites: Website[];
  readonly summaries: Summary[];
  /** Ids: each is rendered whole by the conversations area. */
  readonly conversations: string[];
}

/** What recommendations rank an asset by. */
interface RankingFacts {
  readonly id: string;
  /** ms since the epoch */
  readonly updated: number;
  readonly favorited: boolean;
  /** Reuses, updates, references, searches and priority bumps. */
  readonly use: number;
}

/** `assets` with repeats of one id left out, at most MAX_REFERENCES of them. */
function distinctReferences<T extends { readonly id?: string }>(assets: readonly T[]): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (const asset of assets) {
    if (out.length === MAX_REFERENCES) break;
    if (asset.id) {
      if (seen.has(asset.id)) continue;
      seen.add(asset.id);
    }
    out.push(asset);
  }
  return out;
}

interface Hit {
  readonly doc: StoredAsset;
  readonly score: number;
  readonly match: SearchedAsset['match'];
  readonly exact: boolean;
}

/** The text of the asset's original format ('' for binary content). */
function textOf(doc: StoredAsset): string {
  const original = doc.formats.iterable.find((f) => f.id === doc.original.id) ?? doc.formats.iterable[0];
  return original ? contentOf(original)?.text ?? '' : '';
}

function spaceOf(input: AssetsSearchWithFiltersInput): Set<string> | undefined {
  const space = input.space as { identifers?: { iterable?: Array<{ id: string }> }; identifiers?: { iterable?: Array<{ id: string }> } } | undefined;
  const list = space?.identifers?.iterable ?? space?.identifiers?.iterable;
  return list ? new Set(list.map((ref) => ref.id)) : undefined;
}

function matchOf(hit: SearchHit, doc: StoredAsset, terms: readonly string[], phrases: readonly string[]): SearchedAsset['match'] {
  const name = (doc.name ?? '').toLowerCase();
  if (hit.stage === 'fuzzy') return 'FUZZY';
  if (hit.stage === 'word' || hit.stage === 'semantic') return 'CONTENT';
  if (hit.stage === 'phrase') return phrases.every((p) => name.includes(p.toLowerCase())) ? 'TITLE' : 'CONTENT';
  return terms.every((t) => name.includes(t)) ? 'TITLE' : 'MULTIPLE';
}

/** Stores the seeded content in the format the seed used (fragment or file), normalised to raw. */
function setContent(format: StoredFormat, seeded: SeededFormat, prepared: Prepared): void {
  const ext = prepared.classification.specific;
  if (seeded.fragment && contentOf({ fragment: seeded.fragment })) {
    format.fragment = prepared.content.bytes
      ? { bytes: { raw: prepared.content.bytes }, metadata: { ext } }
      : { string: { raw: prepared.content.text }, metadata: { ext } };
    return;
  }
  // FileFormat has no metadata on the wire: the classification carries the language.
  format.file = prepared.content.bytes ? { bytes: { raw: prepared.content.bytes } } : { string: { raw: prepared.content.text } };
}

/** A stored format with the content and classification an incoming (Seeded)Format carries. */
function updatedFormat(format: StoredFormat, incoming: Partial<Format>, now: StoredFormat['updated']): StoredFormat {
  const next: StoredFormat = { ...format };
  const content = contentOf(incoming);
  let changed = false;
  if (content) {
    const part = content.bytes ? { bytes: { raw: content.bytes } } : { string: { raw: content.text } };
    if (format.file && !format.fragment) next.file = part;
    else next.fragment = { ...part, ...(format.fragment?.metadata ? { metadata: format.fragment.metadata } : {}) };
    next.bytes = bytesOf(content.size);
    changed = true;
  }
  const specific = incoming.classification?.specific;
  if (specific && specific !== format.classification.specific) {
    if (!isKnownSpecific(specific)) throw new InvalidInputError(`Unknown classification ${JSON.stringify(specific)}`);
    next.classification = classificationOf(specific);
    if (next.fragment?.metadata) next.fragment = { ...next.fragment, metadata: { ...next.fragment.metadata, ext: specific } };
    changed = true;
  }
  if (changed) next.updated = now;
  return next;
}

/** Search results read whole: every page, then the counts. */
function collected(results: SearchedPages): SearchedAssets {
  const iterable = [...results.pages].flat();
  return { iterable, ...results.counts() };
}

/** Each page of `pages` mapped member by member, a page at a time. */
function* mapPages<T, U>(pages: Iterable<readonly T[]>, map: (item: T) => U): Generator<U[]> {
  for (const page of pages) yield page.map(map);
}
