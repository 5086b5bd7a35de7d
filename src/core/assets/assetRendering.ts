/** Stored asset documents rendered as wire Assets, with the tags, websites, summaries and conversations linked to them. */
import type { StoreContext } from '../context.ts';
import type { Asset, Assets, Conversation, Sensitives, Tag, Website } from '../piecesTypes.ts';
import { referencedFormat, renderFormats, type StoredAsset } from './storedAsset.ts';
import { LIMITS } from '../limits.ts';

type Summary = NonNullable<Asset['summaries']>['iterable'][number];

/**
 * Records of one kind (tags, websites, summaries, conversations) an asset's reply carries at most,
 * the oldest links first: eight times the most tags a snippet takes (core/limits.ts), so every
 * snippet written within the limits is shown whole. A store written before them may hold a snippet
 * with 200k tags, whose reply was 38 MB and took seconds to build; the rest of its tags are listed
 * from the tags' side (GET /tags, GET /tag/{id}), each with its assets.
 */
export const EMBEDDED_LINKS = 8 * LIMITS.tagsPerAsset;

const LINKED_KINDS = ['tag', 'website', 'workstream_summary', 'conversation'] as const;
type LinkedKind = (typeof LINKED_KINDS)[number];
type LinkedRow = { asset: string; kind: LinkedKind; data: string | null };

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
  /** The secrets found in an asset, as its `sensitives` (the secrets area; undefined when none). */
  private readonly sensitives: ((doc: StoredAsset) => Sensitives | undefined) | undefined;

  constructor(context: StoreContext, conversations?: LinkedConversations, sensitives?: (doc: StoredAsset) => Sensitives | undefined) {
    this.context = context;
    this.conversations = conversations;
    this.sensitives = sensitives;
  }

  render(doc: StoredAsset, transferables: boolean): Asset {
    return this.renderAll([doc], transferables)[0]!;
  }

  /**
   * Many assets at once: the records linked to them come from one statement (and one more per
   * asset with very many), and the conversations linked to any of them are read once each.
   */
  renderAll(docs: readonly StoredAsset[], transferables: boolean, withSensitives = transferables): Asset[] {
    // No statement for no assets (a page may be empty: AssetStore.storedPages).
    if (docs.length === 0) return [];
    const linked = this.linkedOf(docs.map((doc) => doc.id));
    const conversationIds = [...new Set([...linked.values()].flatMap((entry) => entry.conversations))];
    const conversations = conversationIds.length > 0 ? this.conversations?.getMany(conversationIds, transferables) : undefined;
    return docs.map((doc) => this.renderOne(doc, transferables, withSensitives, linked.get(doc.id), conversations));
  }

  private renderOne(
    doc: StoredAsset,
    transferables: boolean,
    withSensitives: boolean,
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
    // The values travel with the whole asset only (the loopback interface's full reads), never in a content-free
    // one, except to Satchel's own editor (`AssetService.some`), which marks them in the snippet's document.
    const sensitives = withSensitives ? this.sensitives?.(doc) : undefined;
    if (sensitives) asset.sensitives = sensitives;
    return asset;
  }

  /** Assets with their contents, indexed by id. */
  collection(docs: readonly StoredAsset[]): Assets {
    const iterable = this.renderAll(docs, true);
    return { iterable, indices: Object.fromEntries(iterable.map((asset, i) => [asset.id, i])) };
  }

  /**
   * The tag, website, summary and conversation records linked to each asset, oldest link first, at
   * most EMBEDDED_LINKS of each kind. The links of a page's assets are read by one statement; an
   * asset with more links than that in all is read by one of its own, whose every kind is an index
   * range of which SQLite keeps the first links as it goes (a window over an asset's 200k links
   * took 0.5 s; a statement of its own for every asset, 0.2 ms an asset). Each record is found by
   * a correlated lookup on its key, an index search whatever the table statistics say: joined, and
   * planned on statistics from when the store held two tags, the records were scanned once per
   * link (minutes at 200k tags).
   */
  private linkedOf(ids: readonly string[]): Map<string, Linked> {
    const database = this.context.database;
    const out = new Map<string, Linked>(ids.map((id) => [id, { tags: [], websites: [], summaries: [], conversations: [] }]));
    const many = new Set(
      (
        database
          .prepare(
            `SELECT j.value AS id FROM json_each(?1) j
             WHERE (SELECT count(*) FROM (SELECT 1 FROM links l WHERE l.a_kind = 'asset' AND l.a_id = j.value LIMIT ?2)) >= ?2`,
          )
          .all(JSON.stringify(ids), EMBEDDED_LINKS + 1) as Array<{ id: string }>
      ).map((row) => row.id),
    );
    const few = ids.filter((id) => !many.has(id));
    const rows = (
      few.length === 0
        ? []
        : database
            .prepare(
              `SELECT l.a_id AS asset, l.b_kind AS kind, (SELECT r.data FROM records r WHERE r.kind = l.b_kind AND r.id = l.b_id) AS data
               FROM json_each(?) j CROSS JOIN links l ON l.a_kind = 'asset' AND l.a_id = j.value
               WHERE l.b_kind IN (${LINKED_KINDS.map((kind) => `'${kind}'`).join(', ')}) ORDER BY l.rowid`,
            )
            .all(JSON.stringify(few))
    ) as LinkedRow[];
    const capped = database.prepare(
      LINKED_KINDS.map(
        (kind) => `SELECT ?1 AS asset, '${kind}' AS kind, data FROM (SELECT (SELECT r.data FROM records r WHERE r.kind = l.b_kind AND r.id = l.b_id) AS data
           FROM links l WHERE l.a_kind = 'asset' AND l.a_id = ?1 AND l.b_kind = '${kind}' ORDER BY l.rowid LIMIT ?2)`,
      ).join(' UNION ALL '),
    );
    for (const id of many) rows.push(...(capped.all(id, EMBEDDED_LINKS) as LinkedRow[]));
    for (const row of rows) {
      const entry = out.get(row.asset);
      if (!entry || row.data === null) continue;
      if (row.kind === 'tag') entry.tags.push(JSON.parse(row.data) as Tag);
      else if (row.kind === 'website') entry.websites.push(JSON.parse(row.data) as Website);
      else if (row.kind === 'conversation') entry.conversations.push((JSON.parse(row.data) as { id: string }).id);
      else entry.summaries.push(JSON.parse(row.data) as Summary);
    }
    return out;
  }
}
