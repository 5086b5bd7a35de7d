/**
 * A running Pieces OS's library as import sources: its assets a part at a time (each read whole,
 * GET /asset/{id}?transferables=true, with the related records it names read once each), then its
 * conversations with their messages. Each part is read only when the import asks for it, so a
 * cancelled import stops reading, and memory holds one part, never the library.
 */
import type { ImportSource } from './importSource.ts';
import { itemsOf, idOf, PiecesIndex, type Json, type RelatedKind } from './piecesIndex.ts';
import { piecesPart, type PiecesConversation } from './piecesRecords.ts';
import { readPiecesJson, type PiecesOs } from './piecesOs.ts';
import { isRecord } from './types.ts';

/** Assets per part (one part is one step of the import's progress). */
const ASSETS_PER_PART = 100;
const CONVERSATIONS_PER_PART = 50;
/** Reads under way at once: Pieces OS answers one asset in milliseconds; a few at a time hide the round trips. */
const CONCURRENT_READS = 4;

/** Where each related kind is read one by one. */
const SINGULAR: Record<RelatedKind, (id: string) => string> = {
  tag: (id) => `/tag/${encodeURIComponent(id)}`,
  website: (id) => `/website/${encodeURIComponent(id)}`,
  annotation: (id) => `/annotation/${encodeURIComponent(id)}`,
  anchor: (id) => `/anchor/${encodeURIComponent(id)}`,
  anchorPoint: (id) => `/anchor_point/${encodeURIComponent(id)}`,
  format: (id) => `/format/${encodeURIComponent(id)}?transferable=true`,
};

/** What the import's summary calls the library (no slash: it names the import's author too). */
export function piecesLabel(pieces: PiecesOs): string {
  return `Pieces OS ${pieces.version} at ${new URL(pieces.url).host}`;
}

/** What a library holds, listed before it is read: its asset ids and its conversations (without their messages). */
export interface PiecesListing {
  readonly assetIds: readonly string[];
  readonly conversations: readonly Json[];
  /** How many parts the import reads (its progress counts them as files). */
  readonly parts: number;
}

export async function listPiecesLibrary(pieces: PiecesOs, signal?: AbortSignal): Promise<PiecesListing> {
  const read = (path: string): Promise<unknown> => readPiecesJson(pieces.url, path, signal);
  const ids = await listedAssetIds(read);
  const conversations = itemsOf(await read('/conversations?transferables=false')).filter((conversation) => idOf(conversation) !== '');
  return { assetIds: ids, conversations, parts: Math.ceil(ids.length / ASSETS_PER_PART) + Math.ceil(conversations.length / CONVERSATIONS_PER_PART) };
}

export async function* piecesOsSources(pieces: PiecesOs, listing: PiecesListing, signal?: AbortSignal): AsyncGenerator<ImportSource> {
  const name = piecesLabel(pieces);
  const read = (path: string): Promise<unknown> => readPiecesJson(pieces.url, path, signal);
  const index = new PiecesIndex();
  const ids = listing.assetIds;
  for (let at = 0; at < ids.length; at += ASSETS_PER_PART) {
    const assets = (await inTurn(ids.slice(at, at + ASSETS_PER_PART), (id) => read(`/asset/${encodeURIComponent(id)}?transferables=true`))).filter(isRecord);
    // An asset deleted in Pieces since it was listed (404) is left out.
    for (const asset of assets) await complete(asset, ['format', 'tag', 'website', 'annotation', 'anchor'], index, read);
    for (const asset of assets) for (const anchor of index.relatedOf(asset, 'anchor')) await complete(anchor, ['anchorPoint'], index, read);
    yield { name, parsed: piecesPart(name, assets, [], index) };
  }
  const { conversations } = listing;
  for (let at = 0; at < conversations.length; at += CONVERSATIONS_PER_PART) {
    const part = await inTurn(conversations.slice(at, at + CONVERSATIONS_PER_PART), async (conversation): Promise<PiecesConversation> => {
      const messages = itemsOf(await read(`/conversation/${encodeURIComponent(idOf(conversation))}/messages?transferables=true`));
      await complete(conversation, ['website'], index, read);
      return { conversation, messages };
    });
    yield { name, parsed: piecesPart(name, [], part, index) };
  }
}

/** The library's asset ids: GET /assets/identifiers, or the content-free snapshot where a version lacks it. */
async function listedAssetIds(read: (path: string) => Promise<unknown>): Promise<string[]> {
  const listed = (await read('/assets/identifiers')) ?? (await read('/assets?transferables=false'));
  return [...new Set(itemsOf(listed).map(idOf).filter((id) => id !== ''))];
}

/** Reads the records of `kinds` that `owner` names by id only, once each for the whole import. */
async function complete(owner: Json, kinds: readonly RelatedKind[], index: PiecesIndex, read: (path: string) => Promise<unknown>): Promise<void> {
  for (const kind of kinds) {
    const missing = index.missing(owner, kind);
    if (missing.length === 0) continue;
    index.add(kind, (await inTurn(missing, (id) => read(SINGULAR[kind](id)))).filter(isRecord));
  }
}

/** `read` of each item, CONCURRENT_READS at a time, in the items' order. */
async function inTurn<T, R>(items: readonly T[], read: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const at = next++;
      out[at] = await read(items[at]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENT_READS, items.length) }, worker));
  return out;
}
