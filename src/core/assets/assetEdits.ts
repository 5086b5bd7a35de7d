/**
 * An edit of what a revision keeps of an asset (content, name, language, tags, description), the
 * one write the editor's save, an agent's update and a restore all make: the parts that change a
 * document are pure functions here, the tags' links are set here, and AssetWrites.edit runs them
 * in one transaction with the asset's indexes and revision.
 */
import type { StoreContext } from '../context.ts';
import { InvalidInputError } from '../errors.ts';
import { checkLimit } from '../limits.ts';
import { sameContent, type RevisionContent } from '../history/state.ts';
import type { stamp } from '../time.ts';
import { classificationOf } from '../classify/languages.ts';
import { isKnownSpecific } from './specifics.ts';
import { updatedFormat } from './seeds.ts';
import { wellFormed } from './content.ts';
import type { Labels } from './labels.ts';
import type { ClassificationSpecific } from '../piecesTypes.ts';
import type { StoredAsset, StoredFormat } from './storedAsset.ts';
import { originalFormat, trackedOf } from './assetRevisions.ts';

/** What an edit changes; each field left out stays as it is. */
export interface AssetEdit {
  /** The original format's content: text, or bytes for binary content (a restore of an image). */
  readonly content?: RevisionContent | undefined;
  readonly name?: string | undefined;
  /** A ClassificationSpecific, taken by every format (as a reclassify does). */
  readonly language?: string | undefined;
  /** The whole set of tag texts (compared ignoring case, as tags are). */
  readonly tags?: readonly string[] | undefined;
  /** The description; '' removes it. */
  readonly description?: string | undefined;
}

/** Refuses an edit before any transaction is spent on it (limits that need the stored asset are checked in `editedDoc`). */
export function checkEdit(edit: AssetEdit): void {
  if (edit.language !== undefined && !isKnownSpecific(edit.language)) throw new InvalidInputError(`Unknown classification ${JSON.stringify(edit.language)}`);
  if (edit.name !== undefined && edit.name.trim() === '') throw new InvalidInputError('A snippet needs a non-empty name');
  for (const tag of edit.tags ?? []) {
    if (tag.trim() === '') throw new InvalidInputError('A tag needs a non-empty text');
    checkLimit('tagChars', tag.trim().length);
  }
}

/** The document with the edit's name, content and language; undefined when it changes none of them. */
export function editedDoc(doc: StoredAsset, edit: AssetEdit, now: ReturnType<typeof stamp>): StoredAsset | undefined {
  let changed = false;
  const next: StoredAsset = { ...doc, updated: now };
  const name = edit.name === undefined ? undefined : wellFormed(edit.name);
  if (name !== undefined && name !== doc.name) {
    checkLimit('nameChars', name.length, doc.name?.length ?? 0);
    next.name = name;
    changed = true;
  }
  const original = originalFormat(doc);
  let formats = doc.formats.iterable;
  if (edit.content !== undefined && original && !sameContent(trackedOf(doc).content, edit.content)) {
    const content = edit.content;
    const part = content.bytes !== undefined && content.text === '' ? { bytes: { raw: [...content.bytes] } } : { string: { raw: content.text } };
    const replaced = updatedFormat(original, { fragment: part }, now);
    formats = formats.map((format) => (format === original ? replaced : format));
    changed = true;
  }
  const language = edit.language;
  if (language !== undefined && isKnownSpecific(language) && formats.some((format) => format.classification.specific !== language)) {
    formats = formats.map((format) => reclassified(format, language, now));
    changed = true;
  }
  next.formats = { iterable: formats };
  return changed ? next : undefined;
}

/** A format taking another language (its fragment's `ext` too, as a reclassify sets it). */
export function reclassified(format: StoredFormat, ext: ClassificationSpecific, now: ReturnType<typeof stamp>): StoredFormat {
  const changed: StoredFormat = { ...format, classification: { ...format.classification, ...classificationOf(ext) }, updated: now };
  if (changed.fragment) changed.fragment = { ...changed.fragment, metadata: { ...changed.fragment.metadata, ext } };
  return changed;
}

/**
 * Links the asset to exactly the tags `texts` name (existing tags reused by text, new ones made),
 * unlinking the others; returns whether any link changed. The caller holds the transaction.
 */
export function setTags(context: StoreContext, labels: Labels, assetId: string, texts: readonly string[]): boolean {
  const wanted = new Map<string, string>();
  for (const given of texts) {
    const text = wellFormed(given.trim());
    if (!wanted.has(text.toLowerCase())) wanted.set(text.toLowerCase(), text);
  }
  const current = labels.tagsOfAsset(assetId);
  checkLimit('tagsPerAsset', wanted.size, current.length);
  const asset = { kind: 'asset', id: assetId } as const;
  let changed = false;
  for (const tag of current) {
    const key = tag.text.toLowerCase();
    if (wanted.has(key)) {
      wanted.delete(key);
      continue;
    }
    context.links.unlink(asset, { kind: 'tag', id: tag.id });
    context.publish({ kind: 'tag', id: tag.id });
    changed = true;
  }
  for (const text of wanted.values()) {
    const tag = labels.createTag({ text });
    context.links.link(asset, { kind: 'tag', id: tag.id });
    context.publish({ kind: 'tag', id: tag.id });
    changed = true;
  }
  return changed;
}
