/**
 * The records of a Pieces library that its assets and conversations refer to (tags, websites,
 * annotations, anchors and their points, formats), by id, as Pieces OS serves them or its export
 * tool saved them. Pieces names a relation from either side (an asset's `tags`, or a tag's
 * `assets`; an annotation's `asset`), and a snapshot may carry a related record whole or only its
 * id: the index answers both, so an asset's labels are found however the library spelled them.
 * Everything is read as unknown JSON: it comes from another program.
 */
import { isRecord } from './types.ts';

export type Json = Record<string, unknown>;

/** The kinds of related record an asset or a conversation is read with. */
export const RELATED_KINDS = ['tag', 'website', 'annotation', 'anchor', 'anchorPoint', 'format'] as const;
export type RelatedKind = (typeof RELATED_KINDS)[number];

/** The wire key of each kind's list on an asset or conversation. */
const LIST_KEYS: Record<RelatedKind, string> = {
  tag: 'tags',
  website: 'websites',
  annotation: 'annotations',
  anchor: 'anchors',
  anchorPoint: 'points',
  format: 'formats',
};

/** The items of a wire collection (`{ iterable: [...] }`); [] for anything else. */
export function itemsOf(collection: unknown): Json[] {
  return isRecord(collection) && Array.isArray(collection.iterable) ? collection.iterable.filter(isRecord) : [];
}

/** A referenced record's id: a record's own `id`, or a reference's. */
export function idOf(value: unknown): string {
  if (!isRecord(value)) return '';
  if (typeof value.id === 'string') return value.id;
  return isRecord(value.reference) && typeof value.reference.id === 'string' ? value.reference.id : '';
}

/** A GroupedTimestamp's ISO value, or `fallback`. */
export function timeOf(value: unknown, fallback: string): string {
  return isRecord(value) && typeof value.value === 'string' && !Number.isNaN(Date.parse(value.value)) ? value.value : fallback;
}

export class PiecesIndex {
  private readonly records = new Map<RelatedKind, Map<string, Json>>(RELATED_KINDS.map((kind) => [kind, new Map()]));
  /** The library's assets read into snippets so far (a conversation links only to those). */
  private readonly assets = new Set<string>();
  /** For each asset or conversation id, the ids of its related records that name it from their side. */
  private readonly named = new Map<string, Map<RelatedKind, Set<string>>>();

  /** Adds related records of `kind` (a whole collection's items, or snapshots one by one). */
  add(kind: RelatedKind, items: Iterable<unknown>): void {
    const byId = this.records.get(kind)!;
    for (const item of items) {
      if (!isRecord(item) || typeof item.id !== 'string' || item.id === '') continue;
      byId.set(item.id, item);
      for (const owner of [...itemsOf(item.assets), ...itemsOf(item.conversations), item.asset, item.conversation, item.anchor]) {
        const ownerId = idOf(owner);
        if (ownerId !== '') this.nameFrom(ownerId, kind, item.id);
      }
    }
  }

  /** Notes assets read into snippets (a conversation read in a later part links to them). */
  addAssets(ids: Iterable<string>): void {
    for (const id of ids) if (id !== '') this.assets.add(id);
  }

  assetKnown(id: string): boolean {
    return this.assets.has(id);
  }

  get(kind: RelatedKind, id: string): Json | undefined {
    return this.records.get(kind)!.get(id);
  }

  /**
   * The related records of `kind` of an asset or conversation: those its own list names (whole,
   * or resolved by id through the index) and those that name it, each once, in the list's order.
   * A reference whose record is nowhere to be found is left out.
   */
  relatedOf(owner: Json, kind: RelatedKind): Json[] {
    const seen = new Set<string>();
    const out: Json[] = [];
    const take = (id: string, given: Json | undefined): void => {
      if (id === '' || seen.has(id)) return;
      const record = this.get(kind, id) ?? (given !== undefined && hasContent(kind, given) ? given : undefined);
      if (record === undefined) return;
      seen.add(id);
      out.push(record);
    };
    for (const item of itemsOf(owner[LIST_KEYS[kind]])) take(idOf(item), isRecord(item.reference) ? item.reference : item);
    const ownerId = typeof owner.id === 'string' ? owner.id : '';
    for (const id of this.named.get(ownerId)?.get(kind) ?? []) take(id, undefined);
    return out;
  }

  /** The ids `owner`'s list of `kind` names whose records are neither inline nor in the index (to be read one by one). */
  missing(owner: Json, kind: RelatedKind): string[] {
    return itemsOf(owner[LIST_KEYS[kind]]).flatMap((item) => {
      const id = idOf(item);
      const given = isRecord(item.reference) ? item.reference : item;
      return id !== '' && this.get(kind, id) === undefined && !hasContent(kind, given) ? [id] : [];
    });
  }

  private nameFrom(ownerId: string, kind: RelatedKind, id: string): void {
    let kinds = this.named.get(ownerId);
    if (kinds === undefined) this.named.set(ownerId, (kinds = new Map()));
    let ids = kinds.get(kind);
    if (ids === undefined) kinds.set(kind, (ids = new Set()));
    ids.add(id);
  }
}

/** Whether a record given inline carries what its kind is read for (not only its id). */
function hasContent(kind: RelatedKind, record: Json): boolean {
  switch (kind) {
    case 'tag':
    case 'annotation':
      return typeof record.text === 'string';
    case 'website':
      return typeof record.url === 'string';
    case 'anchor':
      return isRecord(record.points) || typeof record.type === 'string';
    case 'anchorPoint':
      return typeof record.fullpath === 'string';
    case 'format':
      return isRecord(record.fragment) || isRecord(record.file) || isRecord(record.classification);
  }
}
