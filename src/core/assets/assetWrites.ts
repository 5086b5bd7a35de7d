/**
 * Every change to assets and the records linked to them, each in one transaction that also keeps
 * the indexes, the activities and the change feed in step.
 */
import type { StoreContext } from '../context.ts';
import type { LanguageClassifier } from '../classify/languageClassifier.ts';
import type {
  Application,
  Asset,
  Format,
  SeededConnectorTracking,
  SeededScoreIncrement,
  SeededTag,
  SeededWebsite,
  Tag,
  Website,
} from '../piecesTypes.ts';
import { InvalidInputError, NotFoundError } from '../errors.ts';
import { checkLimit, checkRoom } from '../limits.ts';
import type { Author, WriteOptions } from '../history/authors.ts';
import type { RevisionTracking, Touched } from '../history/revisionTracker.ts';
import { newId, stamp } from '../time.ts';
import { isKnownSpecific } from './specifics.ts';
import { contentOf, wellFormed } from './content.ts';
import { bytesOf, renderFormat, type StoredAsset } from './storedAsset.ts';
import type { AssetStore } from './assetStore.ts';
import type { AssetIndexing } from './assetIndexers.ts';
import type { AssetRenderer } from './assetRendering.ts';
import type { AssetActivities } from './assetActivities.ts';
import type { Tombstones } from './tombstones.ts';
import type { Labels } from './labels.ts';
import { LOCAL_CREATOR, SATCHEL_APPLICATION } from './origin.ts';
import { newAssetRecords, prepareSeed, setContent, updatedFormat } from './seeds.ts';
import type { AssetUpdateInput, FormatUpdateInput, SeedInput } from './inputs.ts';
import { trackedOf } from './assetRevisions.ts';
import { checkEdit, editedDoc, reclassified, setTags, type AssetEdit } from './assetEdits.ts';
import type { Descriptions } from './descriptions.ts';
import type { AssetTrash } from './assetTrash.ts';

type LinkKind = 'tag' | 'website' | 'workstream_summary';

/** What asset writes work with; the assets area builds one of each. */
export interface AssetWriteParts {
  readonly context: StoreContext;
  readonly classifier: LanguageClassifier;
  readonly store: AssetStore;
  readonly labels: Labels;
  readonly indexing: AssetIndexing;
  readonly renderer: AssetRenderer;
  readonly activities: AssetActivities;
  readonly tombstones: Tombstones;
  readonly revisions: RevisionTracking;
  readonly descriptions: Descriptions;
  /** Where deletes keep what they remove (docs/trash.md); without it a delete is for good. */
  readonly trash?: AssetTrash | undefined;
}

/** How an asset is created: by whom, and whether it is a suggestion kept out of ordinary snapshots. */
export interface CreateOptions {
  readonly author: Author;
  readonly suggested?: boolean;
  /** The accepted agent proposal this create applies (WriteOptions.acceptedChange). */
  readonly acceptedChange?: string | undefined;
  /** Runs inside the create's transaction with the new asset's id (what else the asset is: a memory's facts). */
  readonly within?: ((id: string) => void) | undefined;
  /** Whether the asset handed back carries its content (default true): a reply without it is rendered so, not read again. */
  readonly transferables?: boolean;
}

export class AssetWrites {
  private readonly context: StoreContext;
  private readonly parts: AssetWriteParts;

  constructor(parts: AssetWriteParts) {
    this.context = parts.context;
    this.parts = parts;
  }

  /** Creates an asset from a Seed, its first revision by `options.author`. `suggested` keeps it out of ordinary snapshots and searches. */
  async create(seed: SeedInput, options: CreateOptions): Promise<Asset> {
    const { store, labels, indexing, activities, renderer } = this.parts;
    const prepared = await prepareSeed(seed, this.parts.classifier);
    const seeded = seed.asset;
    if (!seeded) throw new InvalidInputError('A Seed needs an asset to create one');
    // Creates arrive in bursts (imports, other tools): they share a commit, each still acknowledged only once durable.
    return this.context.groupTransaction(() => {
      const now = stamp();
      const formatId = newId();
      const application = { ...SATCHEL_APPLICATION, ...seeded.application };
      const { doc, format } = newAssetRecords({
        assetId: newId(),
        formatId,
        now,
        creator: LOCAL_CREATOR,
        application,
        classification: prepared.classification,
        bytes: bytesOf(prepared.content.size),
        name: prepared.name,
        mechanism: seeded.metadata?.mechanism ?? 'MANUAL',
        pseudo: seeded.pseudo === true,
      });
      setContent(format, seeded.format, prepared);
      if (seeded.discovered !== undefined) doc.discovered = seeded.discovered;
      if (seeded.demo !== undefined) doc.demo = seeded.demo;
      const tags = (seeded.metadata?.tags ?? []).map((tag) => labels.createTag({ text: tag.text, ...(tag.category ? { category: tag.category } : {}) }));
      const tagTexts = [...new Map(tags.map((t) => [t.id, t.text])).values()];
      // Made once: the row holds its keywords from the INSERT, and the indexes take the same document.
      const indexed = indexing.indexed(doc, tagTexts.join(' '));
      const rowid = store.insert({ doc, suggested: options.suggested === true, language: format.classification.specific, keywords: indexed.keywords, formatId });
      for (const stored of tags) this.context.links.link({ kind: 'asset', id: doc.id }, { kind: 'tag', id: stored.id });
      for (const website of seeded.metadata?.websites ?? []) {
        const stored = labels.createWebsite({ url: website.url, name: website.name });
        this.context.links.link({ kind: 'asset', id: doc.id }, { kind: 'website', id: stored.id });
      }
      indexing.reindex(rowid, doc, { created: true, indexed, keywordsWritten: true });
      this.parts.revisions.created(trackedOf(doc), tagTexts, undefined, options.author, options.acceptedChange);
      activities.add(doc.id, 'asset_created', application);
      options.within?.(doc.id);
      this.context.publish({ kind: 'asset', id: doc.id });
      this.context.publish({ kind: 'format', id: formatId });
      return renderer.render(doc, options.transferables ?? true);
    });
  }

  /** Applies a full asset: name, flags, score and format contents/classifications it carries. */
  update(input: AssetUpdateInput, by: WriteOptions): Asset {
    return this.context.transaction(() => {
      const { rowid, doc } = this.parts.store.load(input.id);
      const turn = this.parts.revisions.begin(trackedOf(doc), by);
      const now = stamp();
      const next: StoredAsset = { ...doc, updated: now };
      if (typeof input.name === 'string') {
        checkLimit('nameChars', input.name.length, doc.name?.length ?? 0);
        next.name = wellFormed(input.name);
      }
      if (input.mechanism) next.mechanism = input.mechanism;
      // Every stored asset has its two required counters; the defaults only make that visible to the type.
      if (input.score) next.score = { manual: 0, automatic: 0, ...doc.score, ...input.score };
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
      turn.finish(trackedOf(next));
      this.parts.activities.add(doc.id, 'asset_updated');
      return this.parts.renderer.render(next, true);
    });
  }

  /**
   * Deletes the asset: into the trash (assetTrash.ts) when there is one, removing from the live
   * tables exactly what a delete always removed. Its revisions are kept (with its last content)
   * until they are purged.
   */
  delete(id: string, by: WriteOptions): string {
    return this.context.transaction(() => {
      const stored = this.parts.store.stored(id);
      const { rowid, doc } = stored;
      this.parts.revisions.begin(trackedOf(doc), by).retire();
      const last: Asset = { ...this.parts.renderer.render(doc, false), deleted: stamp() };
      const goWithIt = this.parts.trash?.keep(stored, by) ?? [];
      this.parts.activities.removeAll(id);
      this.context.links.removeAll({ kind: 'asset', id });
      for (const annotation of goWithIt) {
        this.context.records.delete('annotation', annotation);
        this.context.publish({ kind: 'annotation', id: annotation, deleted: true });
      }
      this.parts.indexing.remove(rowid, id);
      this.parts.store.remove(rowid, id);
      this.context.database.onCommit(() => this.parts.tombstones.remember(id, last));
      this.context.publish({ kind: 'asset', id, deleted: true });
      for (const format of doc.formats.iterable) this.context.publish({ kind: 'format', id: format.id, deleted: true });
      return id;
    });
  }

  /** Every format of the asset takes the target language. */
  reclassify(id: string, ext: string, by: WriteOptions): Asset {
    if (!isKnownSpecific(ext)) throw new InvalidInputError(`Unknown classification ${JSON.stringify(ext)}`);
    return this.context.transaction(() => {
      const { rowid, doc } = this.parts.store.load(id);
      const turn = this.parts.revisions.begin(trackedOf(doc), by);
      const now = stamp();
      const next: StoredAsset = {
        ...doc,
        updated: now,
        formats: {
          iterable: doc.formats.iterable.map((format) => reclassified(format, ext, now)),
        },
      };
      this.save(rowid, next, true, doc);
      turn.finish(trackedOf(next));
      this.parts.activities.add(id, 'asset_format_specific_classification_updated');
      return this.parts.renderer.render(next, true);
    });
  }

  /** POST /format/update/value: a format's content (and classification) from a Format. */
  updateFormatValue(input: FormatUpdateInput, transferable: boolean, by: WriteOptions): Format {
    return this.context.transaction(() => {
      const owner = this.parts.store.docOfFormat(input.id);
      const { rowid, doc } = this.parts.store.load(owner.id);
      const turn = this.parts.revisions.begin(trackedOf(doc), by);
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
      turn.finish(trackedOf(next));
      this.parts.activities.add(doc.id, 'asset_format_value_edited');
      this.context.publish({ kind: 'format', id: input.id });
      return renderFormat(changed, next, transferable);
    });
  }

  /**
   * Changes what a revision keeps of the asset (content, name, language, tags, description) in one
   * write and one revision: the editor's save, an agent's update, a restore (`restoredFrom`).
   * Changes nothing, and writes nothing, when the asset already is as asked. Returns the asset and
   * its current revision.
   */
  edit(id: string, edit: AssetEdit, by: WriteOptions, restoredFrom?: string): { asset: Asset; revision: string } {
    checkEdit(edit);
    return this.context.transaction(() => {
      const { rowid, doc } = this.parts.store.load(id);
      const turn = this.parts.revisions.begin(trackedOf(doc), by);
      const now = stamp();
      const tagsChanged = edit.tags !== undefined && setTags(this.context, this.parts.labels, id, edit.tags);
      const described = edit.description !== undefined && this.parts.descriptions.set(id, edit.description, now);
      const next = editedDoc(doc, edit, now) ?? (tagsChanged || described ? { ...doc, updated: now } : undefined);
      if (next === undefined) return { asset: this.parts.renderer.render(doc, true), revision: turn.head.id };
      // Tags are linked first: the index reads them from the links.
      this.save(rowid, next, true, doc);
      const revision = turn.finish(trackedOf(next), { tags: tagsChanged, description: described }, restoredFrom);
      this.parts.activities.add(id, 'asset_updated');
      return { asset: this.parts.renderer.render(next, true), revision };
    });
  }

  incrementScores(id: string, increment: SeededScoreIncrement): void {
    this.context.transaction(() => {
      const { rowid, doc } = this.parts.store.load(id);
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
      this.parts.store.load(id);
      this.parts.activities.store(id, event, application);
    });
  }

  associate(assetId: string, kind: LinkKind, targetId: string, by: WriteOptions): void {
    this.relink(assetId, kind, targetId, true, by);
  }

  disassociate(assetId: string, kind: LinkKind, targetId: string, by: WriteOptions): void {
    this.relink(assetId, kind, targetId, false, by);
  }

  /** POST /tags/create: the tag (existing one with the same text reused), linked to `seed.asset` if given. */
  createTag(seed: SeededTag, by: WriteOptions): Tag {
    return this.context.transaction(() => {
      if (seed.asset) this.parts.store.load(seed.asset);
      const tag = this.parts.labels.createTag(seed);
      if (seed.asset) this.associate(seed.asset, 'tag', tag.id, by);
      return this.parts.labels.tag(tag.id);
    });
  }

  /** POST /websites/create: the website (existing one with the same url reused), linked to `seed.asset` if given. */
  createWebsite(seed: SeededWebsite, by: WriteOptions): Website {
    return this.context.transaction(() => {
      if (seed.asset) this.parts.store.load(seed.asset);
      const website = this.parts.labels.createWebsite(seed);
      if (seed.asset) this.associate(seed.asset, 'website', website.id, by);
      return this.parts.labels.website(website.id);
    });
  }

  /**
   * Runs `change`, a change to a record linked to the asset (its description annotation, made by
   * the conversations area), as a write of the asset: checked against the expected revision, and a
   * revision when it changed the asset's state.
   */
  changeLinked<T>(assetId: string, by: WriteOptions, touched: Touched, change: () => T): T {
    return this.context.transaction(() => {
      const { doc } = this.parts.store.load(assetId);
      const turn = this.parts.revisions.begin(trackedOf(doc), by);
      const result = change();
      turn.finish(trackedOf(doc), touched);
      this.context.publish({ kind: 'asset', id: assetId });
      return result;
    });
  }

  /** Links (or unlinks) a tag, website or summary; a tag change reindexes the asset. */
  private relink(assetId: string, kind: LinkKind, targetId: string, link: boolean, by: WriteOptions): void {
    this.context.transaction(() => {
      const { rowid, doc } = this.parts.store.load(assetId);
      if (!this.context.records.has(kind, targetId)) throw new NotFoundError(kind, targetId);
      const turn = this.parts.revisions.begin(trackedOf(doc), by);
      const from = { kind: 'asset', id: assetId } as const;
      if (link && kind !== 'workstream_summary' && !this.context.links.has(from, { kind, id: targetId })) {
        checkRoom(kind === 'tag' ? 'tagsPerAsset' : 'websitesPerAsset', (atMost) => this.context.links.count(from, kind, atMost));
      }
      const changed = link ? this.context.links.link(from, { kind, id: targetId }) : this.context.links.unlink(from, { kind, id: targetId });
      if (!changed) return;
      if (kind === 'tag') this.parts.indexing.reindex(rowid, doc, { previous: doc });
      if (kind !== 'workstream_summary') {
        const event = kind === 'tag' ? (link ? 'asset_tag_added' : 'asset_tag_deleted') : link ? 'asset_link_added' : 'asset_link_deleted';
        this.parts.activities.add(assetId, event);
      }
      turn.finish(trackedOf(doc), { tags: kind === 'tag' });
      this.context.publish({ kind: 'asset', id: assetId });
      this.context.publish({ kind, id: targetId });
    });
  }

  /**
   * Writes the document and keeps the search index and indexers in step (same transaction).
   * `previous`, the document before this write, lets the index skip what did not change.
   */
  private save(rowid: number, doc: StoredAsset, reindex = true, previous?: StoredAsset): void {
    const indexed = reindex ? this.parts.indexing.indexed(doc) : undefined;
    this.parts.store.write(rowid, doc, indexed?.keywords ?? null);
    if (indexed) this.parts.indexing.reindex(rowid, doc, { indexed, keywordsWritten: true, ...(previous ? { previous } : {}) });
    this.context.publish({ kind: 'asset', id: doc.id });
  }
}
