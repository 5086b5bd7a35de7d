/**
 * Assets written to be exactly a record made elsewhere (a vault's folder, another machine's sync):
 * its id, its times, its websites and favorite as well as what a revision keeps. The bulk path
 * (bulkWriter.ts) creates them with these; an existing one is set to the record here, inside the
 * batch's transaction, itself a revision by the writer's author when what revisions keep changed.
 */
import { MemoryFactsStore, type MemoryFacts } from '../memories/memoryFacts.ts';
import type { StoreContext } from '../context.ts';
import type { Application } from '../piecesTypes.ts';
import { putAttachments, type ExactAttachments } from './exactAttachments.ts';
import { stampAt } from '../time.ts';
import type { Author } from '../history/authors.ts';
import type { RevisionContent } from '../history/state.ts';
import type { SnippetFactsStore } from '../snippets/snippetFacts.ts';
import type { LinkEnd } from '../store/links.ts';
import type { AssetStore } from './assetStore.ts';
import type { AssetIndexing } from './assetIndexers.ts';
import type { Descriptions } from './descriptions.ts';
import type { RevisionTracking } from '../history/revisionTracker.ts';
import { trackedOf } from './assetRevisions.ts';
import { editedDoc, setTags } from './assetEdits.ts';
import type { Labels } from './labels.ts';
import type { StoredAsset } from './storedAsset.ts';
import { holdsPlaceholder, restoreTexts } from '../secrets/doorSecrets.ts';
import { recordedFindings } from '../secrets/recordedFindings.ts';
import { originalContent } from './assetHeads.ts';

/** What a record fixes of an asset besides its name, text, language, tags, description and snippet facts. */
export interface ExactRecord extends ExactAttachments {
  readonly id: string;
  /** ISO-8601, kept exactly as given. */
  readonly created: string;
  readonly updated: string;
  readonly websites: ReadonlyArray<{ readonly url: string; readonly name: string }>;
  readonly favorited: boolean;
  /** Binary content (an image): its bytes; the asset's text is then ''. */
  readonly bytes?: readonly number[] | undefined;
  /** The application that saved it where it was made (a Pieces library's VS Code, JetBrains…): its format's author. */
  readonly application?: Application | undefined;
  /** Present when the record is a memory: its facts (memories/memoryFacts.ts), kept exactly. */
  readonly memory?: MemoryFacts | undefined;
}

/** What an exact write writes through (the bulk path's targets). */
export interface ExactTargets {
  readonly store: AssetStore;
  readonly labels: Labels;
  readonly indexing: AssetIndexing;
  readonly revisions: RevisionTracking;
  readonly descriptions: Descriptions;
}

/** What an exact write sets besides the record's own fields. */
export interface ExactFields {
  readonly name: string;
  readonly text: string;
  readonly language: string;
  readonly tags: readonly string[];
  readonly description?: string | undefined;
  /** Snippet facts (snippets/snippetFacts.ts), written in the same transaction. */
  readonly syntax?: boolean | undefined;
  readonly prefixes?: readonly string[] | undefined;
}

// Where the bulk path and sync have always taken it from (it lives in time.ts, which exactAttachments.ts uses too).
export { stampAt };

/** The record's content as revisions and edits take it. */
export function recordContent(fields: ExactFields, record: ExactRecord): RevisionContent {
  return record.bytes !== undefined ? { text: '', bytes: record.bytes } : { text: fields.text };
}

/** Links the asset to exactly the websites of `wanted` (by url; existing website records reused); whether any link changed. */
export function setWebsites(context: StoreContext, labels: Labels, assetId: string, wanted: ExactRecord['websites']): boolean {
  const asset: LinkEnd = { kind: 'asset', id: assetId };
  const urls = new Set(wanted.map((site) => site.url.trim()));
  let changed = false;
  const present = new Set<string>();
  for (const site of labels.websitesOfAsset(assetId)) {
    if (urls.has(site.url)) {
      present.add(site.url);
      continue;
    }
    context.links.unlink(asset, { kind: 'website', id: site.id });
    context.publish({ kind: 'website', id: site.id });
    changed = true;
  }
  for (const site of wanted) {
    if (present.has(site.url.trim())) continue;
    const stored = labels.createWebsite({ url: site.url, name: site.name });
    if (context.links.link(asset, { kind: 'website', id: stored.id })) changed = true;
    present.add(stored.url);
  }
  return changed;
}

/**
 * Sets the existing asset `record.id` to the record (in the caller's transaction); returns
 * whether anything changed. Nothing is written when the asset already is the record.
 */
export function putExactly(
  context: StoreContext,
  targets: ExactTargets,
  snippetFacts: SnippetFactsStore,
  fields: ExactFields,
  record: ExactRecord,
  author: Author,
): boolean {
  const { store, labels, indexing, revisions, descriptions } = targets;
  const { rowid, doc } = store.load(record.id);
  fields = withOwnValues(context, descriptions, doc, fields);
  const turn = revisions.begin(trackedOf(doc), { author });
  const updated = stampAt(record.updated);
  const tagged = setTags(context, labels, doc.id, fields.tags);
  const described = descriptions.set(doc.id, fields.description ?? '', updated);
  const sited = setWebsites(context, labels, doc.id, record.websites);
  const facts = { syntax: fields.syntax ?? false, prefixes: fields.prefixes ?? [] };
  const factsBefore = snippetFacts.get(doc.id);
  const factsChanged = factsBefore.syntax !== facts.syntax || factsBefore.prefixes.join('\n') !== facts.prefixes.join('\n');
  if (factsChanged) snippetFacts.put(doc.id, facts);
  // Whether it is a memory, and what it was written against, is the record's to say.
  const memories = new MemoryFactsStore(context.database);
  const memoryChanged = JSON.stringify(memories.get(doc.id) ?? null) !== JSON.stringify(record.memory ?? null);
  if (memoryChanged) memories.put(doc.id, record.memory);
  const edited = editedDoc(doc, { content: recordContent(fields, record), name: fields.name, language: fields.language }, updated);
  const next: StoredAsset = { ...(edited ?? doc) };
  const favoriteChanged = (doc.favorited === true) !== record.favorited;
  if (favoriteChanged) next.favorited = record.favorited;
  const createdChanged = doc.created.value !== record.created;
  if (createdChanged) next.created = stampAt(record.created);
  const timeChanged = doc.updated.value !== record.updated;
  const attached = putAttachments(context, doc.id, record);
  const application = record.application;
  const applicationChanged = application !== undefined && next.formats.iterable.some((format) => JSON.stringify(format.application) !== JSON.stringify(application));
  if (applicationChanged) next.formats = { iterable: next.formats.iterable.map((format) => ({ ...format, application })) };
  if (edited === undefined && !tagged && !described && !sited && !factsChanged && !memoryChanged && !favoriteChanged && !createdChanged && !timeChanged && !attached && !applicationChanged) return false;
  next.updated = updated;
  const indexed = indexing.indexed(next);
  store.write(rowid, next, indexed.keywords);
  if (createdChanged) store.setCreated(rowid, record.created);
  indexing.reindex(rowid, next, { indexed, keywordsWritten: true, previous: doc });
  turn.finish(trackedOf(next), { tags: tagged, description: described });
  context.publish({ kind: 'asset', id: doc.id });
  return true;
}

/**
 * A record holding placeholders (this library exported, or synced, with its values hidden) takes this
 * store's values back where it has them, as a sync does: importing one's own vault never puts a
 * placeholder where a value was (issue 32). Only findings recorded for the asset's texts as they are count.
 */
function withOwnValues(context: StoreContext, descriptions: Descriptions, doc: StoredAsset, fields: ExactFields): ExactFields {
  const incoming = { code: fields.text, name: fields.name, ...(fields.description !== undefined ? { description: fields.description } : {}) };
  if (![incoming.code, incoming.name, incoming.description ?? ''].some(holdsPlaceholder)) return fields;
  const findings = recordedFindings(context.database, doc.id);
  if (findings === undefined || findings.length === 0) return fields;
  const local = { code: originalContent(doc).text, name: doc.name ?? '', description: descriptions.of(doc.id) };
  const back = restoreTexts(incoming, local, findings);
  return { ...fields, text: back.code, name: back.name, ...(back.description !== undefined ? { description: back.description } : {}) };
}
