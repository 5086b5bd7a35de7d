/** Stored asset documents rendered as wire Assets, with the tags, websites, summaries and conversations linked to them. */
import type { StoreContext } from '../context.ts';
import type { Asset, Assets, Conversation, Tag, Website } from '../wire.ts';
import { referencedFormat, renderFormats, type StoredAsset } from './render.ts';

type Summary = NonNullable<Asset['summaries']>['iterable'][number];

/** What an asset's reply carries of the records linked to it. */
interface Linked {
  readonly tags: Tag[];
  readonly websites: Website[];
  readonly summaries: Summary[];
  /** Ids: each is rendered whole by the conversations area. */
  readonly conversations: string[];
}

/**
 * Renders the conversations linked to assets, many at once (the conversations area: it depends on
 * this one, so the composition root hands it in).
 */
export interface LinkedConversations {
  /** Those that exist among `ids`, by id. */
  getMany(ids: readonly string[], transferables: boolean): ReadonlyMap<string, Conversation>;
}

export class AssetRenderer {
  private readonly context: StoreContext;
  private readonly conversations: LinkedConversations | undefined;

  constructor(context: StoreContext, conversations?: LinkedConversations) {
    this.context = context;
    this.conversations = conversations;
  }

  render(doc: StoredAsset, transferables: boolean): Asset {
    return this.renderAll([doc], transferables)[0]!;
  }

  /**
   * Many assets at once: their tags, websites and summaries come from one query, and the
   * conversations linked to any of them are read once each, not per asset.
   */
  renderAll(docs: readonly StoredAsset[], transferables: boolean): Asset[] {
    const linked = this.linkedOf(docs.map((doc) => doc.id));
    const conversationIds = [...new Set([...linked.values()].flatMap((entry) => entry.conversations))];
    const conversations = conversationIds.length > 0 ? this.conversations?.getMany(conversationIds, transferables) : undefined;
    return docs.map((doc) => this.renderOne(doc, transferables, linked.get(doc.id), conversations));
  }

  private renderOne(
    doc: StoredAsset,
    transferables: boolean,
    linked: Linked | undefined,
    conversations: ReadonlyMap<string, Conversation> | undefined,
  ): Asset {
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
    const own = (linked?.conversations ?? []).flatMap((id) => conversations?.get(id) ?? []);
    asset.conversations = { iterable: own, indices: Object.fromEntries(own.map((c, i) => [c.id, i])) };
    return asset;
  }

  /** Assets with their contents, indexed by id. */
  collection(docs: readonly StoredAsset[]): Assets {
    const iterable = this.renderAll(docs, true);
    return { iterable, indices: Object.fromEntries(iterable.map((asset, i) => [asset.id, i])) };
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
}
