/**
 * Routes of the assets area (interface.md 4.1): snapshots, create/draft/delete, search, related
 * and recommended, and the three asset streams. Static paths are registered before `/assets/:asset`.
 * The Asset (4.2), format, tag and website routes live in their own modules, registered from here.
 */
import type { Context } from 'koa';
import type { RouteModule } from './deps.ts';
import { input, json, jsonStream, param, pseudo, queryBoolean, queryString, text, transferables } from '../http.ts';
import { jsonArrayReply, jsonPagedReply } from '../jsonEncode.ts';
import { assetOperations as op } from '../../wire/assets.ts';
import { assetRoutes, snapshot } from './asset.ts';
import { requestAuthor, sendRevision, writeOptions } from '../writeOptions.ts';
import { formatRoutes } from './formats.ts';
import { labelRoutes } from './labels.ts';
import { registerAssetStreams } from './assetStreams.ts';
import type { SearchedPages } from '../../core/assets/assetService.ts';


export const assetsRoutes: RouteModule = (router, deps) => {
  const { core } = deps;
  const assets = core.assets;

  router.get('/assets', (ctx) => {
    const options = { transferables: transferables(ctx), pseudo: pseudo(ctx), suggested: queryBoolean(ctx, 'suggested', false) };
    // Streamed a page at a time (an Assets document): the store may hold more than fits in memory twice.
    jsonStream(ctx, jsonArrayReply('iterable', assets.pages(options)));
  });

  router.post(op.create.path, async (ctx) => {
    const seed = input(ctx, op.create);
    const created = await assets.create(seed, { author: requestAuthor(ctx, seed.asset?.application?.name) });
    sendRevision(ctx, core.history.current(created.id));
    json(ctx, transferables(ctx) ? created : assets.get(created.id, { transferables: false }));
  });

  router.post(op.draft.path, async (ctx) => {
    const seed = input(ctx, op.draft);
    json(ctx, await assets.draft(seed, transferables(ctx)));
  });

  const recommended = (ctx: Context) => {
    json(ctx, assets.recommended(input(ctx, op.recommended)));
  };
  router.get('/assets/recommended', recommended);
  router.post(op.recommended.path, recommended);

  const related = (ctx: Context) => {
    json(ctx, assets.related(input(ctx, op.related)));
  };
  router.get('/assets/related', related);
  router.post(op.related.path, related);

  router.get('/assets/identifiers', (ctx) => {
    json(ctx, { iterable: assets.identifiers({ pseudo: pseudo(ctx) }).map((id) => ({ id })) });
  });

  router.get('/assets/pseudo', (ctx) => {
    json(ctx, { identifiers: { iterable: assets.identifiers({ onlyPseudo: true }).map((id) => ({ id })) } });
  });

  router.get('/assets/search', async (ctx) => {
    const tags = queryString(ctx, 'searchable_tags', 'searchableTags');
    const query = queryString(ctx, 'query');
    // With an embedding model loaded the query's vector is made first; the search itself is synchronous.
    const semantic = query ? await core.recall.prepare(query) : undefined;
    // Sent a page at a time like POST /assets/search: a query may match very large assets.
    const { pages, counts } = assets.searchPages(
      { ...(query !== undefined ? { query } : {}), ...(tags !== undefined ? { tags: tags.split(',') } : {}) },
      { transferables: transferables(ctx), pseudo: pseudo(ctx), semantic },
    );
    jsonStream(ctx, searchedReply(pages, counts, false));
  });

  // The search area's two other modes, as the Pieces CLI's `search --mode fts|ncs` calls them.
  router.get('/search/full_text', (ctx) => {
    json(ctx, assets.fullTextSearch(queryString(ctx, 'query') ?? '', { transferables: transferables(ctx), pseudo: pseudo(ctx) }));
  });
  router.get('/search/neural_code', async (ctx) => {
    const query = queryString(ctx, 'query') ?? '';
    const semantic = query.trim() ? await core.recall.prepare(query) : undefined;
    json(ctx, assets.codeSearch(query, { transferables: transferables(ctx), pseudo: pseudo(ctx), semantic }));
  });

  // Semantic recall (not in the Pieces interface): whether search is hybrid, and the back-fill's progress.
  router.get('/search/semantic', (ctx) => json(ctx, core.recall.status()));
  router.post('/search/semantic/cancel', (ctx) => json(ctx, { cancelled: core.recall.cancelBackfill(), status: core.recall.status() }));

  router.post(op.search.path, async (ctx) => {
    const filters = input(ctx, op.search) ?? {};
    const semantic = filters.query ? await core.recall.prepare(filters.query) : undefined;
    // Without a query every asset is a result: the reply is streamed a page at a time like GET /assets.
    const { pages, counts } = assets.searchPagesWithFilters(filters, { transferables: transferables(ctx), pseudo: pseudo(ctx), semantic });
    jsonStream(ctx, searchedReply(pages, counts, true));
  });

  registerAssetStreams(router, deps);

  router.get('/assets/:asset', (ctx) => snapshot(ctx, core));

  router.get('/assets/:asset/formats', (ctx) => {
    json(ctx, assets.formats(param(ctx, 'asset'), transferables(ctx)));
  });

  // If-Match makes a delete conditional on the revision the caller read, as an update.
  router.post('/assets/:asset/delete', (ctx) => {
    const id = param(ctx, 'asset');
    text(ctx, assets.delete(id, writeOptions(ctx, { current: () => core.history.current(id) })));
  });

  assetRoutes(router, deps);
  formatRoutes(router, deps);
  labelRoutes(router, deps);
};

/**
 * SearchedAssets (`{iterable, suggested, exact}`), inside `{results: …}` for POST's
 * AssetsSearchWithFiltersOutput, produced a page at a time; the counts close it.
 */
function searchedReply(pages: SearchedPages['pages'], counts: SearchedPages['counts'], inResults: boolean): AsyncGenerator<Buffer> {
  const open = inResults ? '{"results":{"iterable":[' : '{"iterable":[';
  return jsonPagedReply(open, pages, () => {
    const { suggested, exact } = counts();
    return `],"suggested":${suggested},"exact":${exact}}${inResults ? '}' : ''}`;
  });
}
