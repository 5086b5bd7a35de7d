/**
 * Satchel's snippet operations (not part of the Pieces interface): what makes an asset a VS Code
 * snippet (snippet syntax, prefixes), the completion candidates an editor asks for as the user
 * types, and export to a `.code-snippets` file.
 *
 *   GET  /satchel/snippets/completions?query=&language=&limit=   CompletionReply
 *   GET  /satchel/snippets/export?asset=ID | ?tag=TEXT [&includeSecrets=true]   CodeSnippetsExport (secrets as placeholders unless asked)
 *   GET  /satchel/assets/{asset}/snippet                           SnippetInfo
 *   POST /satchel/assets/{asset}/snippet  { syntax?, prefixes? }   SnippetInfo
 *   POST /satchel/assets/by-id[?transferables=true]  { ids }       Assets (those that exist, in order; no content unless
 *                                                                  asked, but always their secrets, as the editor marks them)
 *   GET  /satchel/assets/groups?by=language|tag                     AssetGroupCounts (the Assets tree's groups, memories apart)
 *   GET  /satchel/assets/groups/page?by=&key=&after=&limit=         AssetGroupPage (one group's assets without content, a
 *                                                                  language's newest first; `next` is the following page's cursor)
 *   GET  /satchel/assets/stream/recent (WebSocket; a plain GET: its connect frame)   StreamedIdentifiers: the newest
 *                                                                  RECENT_IDENTIFIERS ids on connect, then every change as
 *                                                                  /assets/stream/identifiers sends it
 */
import { z } from 'zod';
import type { Asset, Assets, StreamedIdentifiers } from '../core/piecesTypes.ts';
import type { CodeSnippetsExport, CompletionReply, SnippetInfo, SnippetService } from '../core/snippets/snippetService.ts';
import type { AssetService } from '../core/assets/assetService.ts';
import type { AssetGroupCounts, GroupBy } from '../core/assets/assetGroups.ts';
import { lazy, get, json, post, type Feeds } from './operation.ts';

const snippetChange = lazy(() => z
  .object({
    syntax: z.boolean().optional(),
    /** Replaces the prefixes; each new one also becomes a tag. */
    prefixes: z.array(z.string().max(4096)).max(1024).readonly().optional(),
  })
  .refine((change) => change.syntax !== undefined || change.prefixes !== undefined, { message: 'give syntax or prefixes' }));

/**
 * Ids one `/satchel/assets/by-id` request may name: a view asks for the assets a change named in
 * chunks of at most this many, so no reply (and no parse in the editor's process) grows with the store.
 */
export const ASSETS_BY_ID_MAX = 500;

const assetIds = lazy(() => z.object({ ids: z.array(z.string().min(1).max(256)).min(1).max(ASSETS_BY_ID_MAX).readonly() }));

/** Assets one group page may hold: a tree shows a few dozen at a time, so no reply grows with the store. */
export const GROUP_PAGE_MAX = 500;

const groupBy = lazy(() => z.enum(['language', 'tag'] satisfies GroupBy[]));

/** The query of `/satchel/assets/groups`. */
export const assetGroupsQuery = lazy(() => z.object({ by: groupBy().default('language') }));

/** The query of `/satchel/assets/groups/page`: `after` is the `next` of the page before ('' or absent: from the start). */
export const assetGroupPageQuery = lazy(() => z.object({
  by: groupBy(),
  key: z.string().max(256),
  after: z.string().max(256).default(''),
  limit: z.coerce.number().int().min(1).max(GROUP_PAGE_MAX).default(100),
}));

/** One page of a group: its assets without content (secrets included), and the cursor of the next page. */
export interface AssetGroupPage {
  readonly iterable: Asset[];
  readonly next?: string;
}

/**
 * Ids the connect frame of `/satchel/assets/stream/recent` names (newest first). The editor's Assets
 * view reads only the newest few records on connect; the Pieces stream's connect frame names every
 * asset, 5.6 MB of JSON at 100k that the editor's extension host parsed in one turn at every connect.
 */
export const RECENT_IDENTIFIERS = 200;

export const snippetOperations = {
  completions: get('/satchel/snippets/completions', json<CompletionReply>()),
  export: get('/satchel/snippets/export', json<CodeSnippetsExport>()),
  info: get('/satchel/assets/:asset/snippet', json<SnippetInfo>()),
  setInfo: post('/satchel/assets/:asset/snippet', json<SnippetInfo>(), 'snippet change', snippetChange),
  byId: post('/satchel/assets/by-id', json<Assets>(), 'asset ids', assetIds),
  groups: get('/satchel/assets/groups', json<AssetGroupCounts>()),
  groupPage: get('/satchel/assets/groups/page', json<AssetGroupPage>()),
  streamRecent: get('/satchel/assets/stream/recent', json<StreamedIdentifiers>()),
} as const;

export type { AssetGroupCount, AssetGroupCounts, GroupBy } from '../core/assets/assetGroups.ts';
export type { CodeSnippetsExport, CompletionCandidate, CompletionReply, SnippetInfo } from '../core/snippets/snippetService.ts';

/** The parsed change is what core takes. */
export type CoreSnippetBodies = [
  Feeds<z.output<ReturnType<typeof snippetChange>>, Parameters<SnippetService['setInfo']>[1]>,
  Feeds<z.output<ReturnType<typeof assetIds>>['ids'], Parameters<AssetService['some']>[0]>,
];
