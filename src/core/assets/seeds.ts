/**
 * What a Seed becomes before it is stored: its language (given, from the file name, sniffed from
 * image bytes or asked of the classifier), its name and content; the records a new asset starts
 * as; and formats updated from input.
 */
import type { LanguageClassifier } from '../classify/languageClassifier.ts';
import type { Classification, ClassificationSpecific, Seed, SeededFormat } from '../piecesTypes.ts';
import type { FormatInput, SeedInput } from './inputs.ts';
import { InvalidInputError } from '../errors.ts';
import { checkContent } from '../limits.ts';
import { checkedSeed } from './seedChecks.ts';
import { imageTypeOf, isKnownSpecific } from './specifics.ts';
import { specificFromFile } from '../classify/hints.ts';
import { classificationOf, genericOf } from '../classify/languages.ts';
import { contentOf, suggestName, type Content } from './content.ts';
import { bytesOf, withoutContent, type StoredAsset, type StoredFormat } from './storedAsset.ts';
import { SATCHEL_APPLICATION } from './origin.ts';

export interface Prepared {
  readonly classification: Classification;
  readonly name: string;
  readonly content: Content;
  readonly image: boolean;
}

export async function prepareSeed(seed: SeedInput, classifier: LanguageClassifier): Promise<Prepared> {
  // Refused before any work is spent on it (the classifier, a transaction).
  const { format, content, fileName, givenName, given } = checkedSeed(seed);
  const image = content.bytes ? imageTypeOf(Uint8Array.from(content.bytes.slice(0, 16))) : undefined;
  let specific = given ?? (fileName ? specificFromFile(fileName, content.text) : undefined) ?? image;
  if (!specific) {
    // A name such as `fib.py` is a file name too; the classifier takes it (and a shebang) before any model.
    if (content.text.trim() !== '') specific = (await classifier.classify(content.text, { hints: { fileName: givenName } })).specific;
    else specific = (content.bytes ? 'bin' : 'txt') as ClassificationSpecific;
  }
  const generic = format.classification?.generic ?? genericOf(specific);
  const name = givenName || suggestName(content.text);
  return { classification: { generic, specific }, name, content, image: generic === 'IMAGE' };
}

/** A preprocessed Seed (language, name); persists nothing. Images (and seeds without an asset) come back as given. */
export async function draftSeed(seed: SeedInput, classifier: LanguageClassifier, transferables: boolean): Promise<Seed | SeedInput> {
  const seeded = seed.asset;
  if (!seeded) return seed;
  const prepared = await prepareSeed(seed, classifier);
  if (prepared.image) return seed;
  const ext = prepared.classification.specific;
  // The fragment's and file's languages are replaced by the checked one, so none given as text remains.
  const { fragment, file, ...rest } = seeded.format;
  const format: SeededFormat = {
    ...rest,
    classification: prepared.classification,
    ...(fragment ? { fragment: { ...fragment, metadata: { ...fragment.metadata, ext } } } : {}),
    ...(file ? { file: { ...file, metadata: { ...file.metadata, ext } } } : {}),
  };
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

/** Stores the seeded content in the format the seed used (fragment or file), normalised to raw. */
export function setContent(format: StoredFormat, seeded: FormatInput, prepared: Prepared): void {
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
export function updatedFormat(format: StoredFormat, incoming: FormatInput, now: StoredFormat['updated']): StoredFormat {
  const next: StoredFormat = { ...format };
  const content = contentOf(incoming);
  let changed = false;
  if (content) {
    checkContent(content, contentOf(format));
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

export interface NewAsset {
  readonly assetId: string;
  readonly formatId: string;
  readonly now: StoredFormat['created'];
  readonly creator: string;
  readonly application: StoredFormat['application'];
  readonly classification: Classification;
  readonly bytes: StoredFormat['bytes'];
  readonly name: string;
  readonly mechanism?: StoredAsset['mechanism'];
  readonly pseudo?: boolean;
}

/**
 * A new asset and its one format, the original and the preview, as a create and an import store
 * them; the caller puts the content in `format` (it is the one in `doc.formats`).
 */
export function newAssetRecords(asset: NewAsset): { doc: StoredAsset; format: StoredFormat } {
  const format: StoredFormat = {
    id: asset.formatId,
    creator: asset.creator,
    classification: asset.classification,
    role: 'BOTH',
    application: asset.application,
    bytes: asset.bytes,
    created: asset.now,
    updated: asset.now,
  };
  const doc: StoredAsset = {
    id: asset.assetId,
    creator: asset.creator,
    created: asset.now,
    updated: asset.now,
    name: asset.name,
    formats: { iterable: [format] },
    preview: { base: { id: asset.formatId } },
    original: { id: asset.formatId },
    mechanism: asset.mechanism ?? 'MANUAL',
    score: { manual: 0, automatic: 0 },
    pseudo: asset.pseudo ?? false,
  };
  return { doc, format };
}
