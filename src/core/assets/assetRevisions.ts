/**
 * What the history area's revisions read of a stored asset: the original format's content and
 * language and the asset's name (from the document), its tags and description (from its links).
 */
import type { StoreContext } from '../context.ts';
import type { LinkedState, TrackedAsset } from '../history/revisionTracker.ts';
import type { AssetState } from '../history/state.ts';
import { contentOf } from './content.ts';
import { Descriptions } from './descriptions.ts';
import type { StoredAsset, StoredFormat } from './storedAsset.ts';

/** The format a revision keeps: the asset's original (its first, should the reference be broken). */
export function originalFormat(doc: StoredAsset): StoredFormat | undefined {
  return doc.formats.iterable.find((format) => format.id === doc.original.id) ?? doc.formats.iterable[0];
}

export function trackedOf(doc: StoredAsset): TrackedAsset {
  const original = originalFormat(doc);
  const content = original ? contentOf(original) : undefined;
  return {
    id: doc.id,
    updated: Date.parse(doc.updated.value),
    name: doc.name ?? '',
    language: original?.classification.specific ?? 'txt',
    content: content?.bytes !== undefined ? { text: content.text, bytes: content.bytes } : { text: content?.text ?? '' },
  };
}

/** An asset's tags and description, as its revisions record them. */
export class AssetLinkedState implements LinkedState {
  private readonly context: StoreContext;
  readonly descriptions: Descriptions;

  constructor(context: StoreContext, descriptions = new Descriptions(context)) {
    this.context = context;
    this.descriptions = descriptions;
  }

  /** Tag texts in the order they were linked (one query, however many tags). */
  tags(assetId: string): string[] {
    const rows = this.context.database
      .prepare(
        `SELECT json_extract(r.data, '$.text') AS text FROM links l CROSS JOIN records r ON r.kind = 'tag' AND r.id = l.b_id
         WHERE l.a_kind = 'asset' AND l.a_id = ? AND l.b_kind = 'tag' ORDER BY l.rowid`,
      )
      .all(assetId) as Array<{ text: string }>;
    return rows.map((row) => row.text);
  }

  description(assetId: string): string | undefined {
    return this.descriptions.of(assetId);
  }

  /** The whole state of an asset's document as a revision would record it. */
  state(doc: StoredAsset): AssetState {
    const tracked = trackedOf(doc);
    return { name: tracked.name, language: tracked.language, content: tracked.content, tags: this.tags(doc.id), description: this.description(doc.id) };
  }
}
