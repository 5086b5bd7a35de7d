/**
 * Routes of the assets area (interface.md 4.1): snapshots, create/draft/delete, search, related
 * and recommended, and the three asset streams. Static paths are registered before `/assets/:asset`.
 * The Asset (4.2), format, tag and website routes live in their own modules, registered from here.
 */
import type { Context } from 'koa';
import { route, type RouteModule } from './deps.ts';
import { input, json, jsonStream, param, pseudo, queryBoolean, queryString, text, transferables } from '../http.ts';
import { jsonArrayReply, jsonPagedReply } from '../jsonEncode.ts';
import { assetOperations as op } from '../../wire/assets.ts';
import { searchModeHeaders, searchOperations as search } from '../../wire/search.ts';
import { assetRoutes, scanned, snapshot } from './asset.ts';
import { requestAuthor, sendRevision, writeOptions } from '../writeOptions.ts';
import { formatRoutes } from './formats.ts';
import { labelRoutes } from './labels.ts';
import { registerAssetStreams } from './assetStreams.ts';
import { withSlot } from '../searchSlots.ts';
import type { SearchedPages } from '../../core/assets/assetService.ts';
import { mapPages } from '../../core/assets/assetStore.ts';


export const assetsRoutes: RouteModule = (router, deps) => {
  const { core } = deps;
  const assets = core.assets;

  route(router, op.list, (ctx) => {
    const options = { transferables: transferables(ctx), pseudo: pseudo(ctx), suggested: queryBoolean(ctx, 'suggested', false) };
    // Streamed a page at a time (an Assets document): the store may hold more than fits in memory twice.
    jsonStream(ctx, jsonArrayReply('iterable', assets.pages(options)));
  });

  // Streamed a page at a time like GET /assets: every write of every asset adds one.
  route(router, op.allActivities, (ctx) => jsonStream(ctx, jsonArrayReply('iterable', assets.allActivities())));

  route(router, op.create, async (ctx) => {
    const seed = input(ctx, op.create);
    const created = await assets.writes.create(seed, { author: requestAuthor(ctx, seed.asset?.application?.name), transferables: transferables(ctx) });
    sendRevision(ctx, core.history.current(created.id));
    json(ctx, created);
  });

  route(router, op.draft, async (ctx) => {
    const seed = input(ctx, op.draft);
    json(ctx, await assets.draft(seed, transferables(ctx)));
  });

  const recommended = (ctx: Context) => {
    json(ctx, assets.recommendations.recommended(input(ctx, op.recommended)));
  };
  route(router, op.recommendedGet, recommended);
  route(router, op.recommended, recommended);

  const related = (ctx: Context) => {
    json(ctx, assets.recommendations.related(input(ctx, op.related)));
  };
  route(router, op.relatedGet, related);
  route(router, op.related, related);

  // Id listings are streamed a page at a time like GET /assets (1M ids in one reply held the loop 10 s).
  route(router, op.identifiers, (ctx) => {
    jsonStream(ctx, jsonArrayReply('iterable', mapPages(assets.identifierPages({ pseudo: pseudo(ctx) }), (id) => ({ id }))));
  });

  route(router, op.pseudo, (ctx) => {
    jsonStream(ctx, jsonPagedReply('{"identifiers":{"iterable":[', mapPages(assets.identifierPages({ onlyPseudo: true }), (id) => ({ id })), () => ']}}'));
  });

  route(router, op.searchGet, (ctx) => withSlot(ctx, deps.searches, async () => {
    const tags = queryString(ctx, 'searchable_tags', 'searchableTags');
    const query = queryString(ctx, 'query');
    // With an embedding model loaded the query's vector is made first; the search itself is synchronous.
    const semantic = query ? await core.recall.prepare(query) : undefined;
    // Sent a page at a time like POST /assets/search: a query may match very large assets.
    const { pages, counts } = assets.searches.searchPages(
      { ...(query !== undefined ? { query } : {}), ...(tags !== undefined ? { tags: tags.split(',') } : {}) },
      { transferables: transferables(ctx), pseudo: pseudo(ctx), semantic },
    );
    jsonStream(ctx, searchedReply(pages, counts, false));
  }));

  // The search area's two other modes, as the Pieces CLI's `search --mode fts|ncs` calls them.
  // Both are sent a page at a time like GET /assets/search (their hits may be very large assets).
  route(router, search.fullText, (ctx) => withSlot(ctx, deps.searches, () => {
    const { pages, counts } = assets.searches.fullTextSearchPages(queryString(ctx, 'query') ?? '', { transferables: transferables(ctx), pseudo: pseudo(ctx) });
    jsonStream(ctx, searchedReply(pages, counts, false));
  }));
  // Search by meaning whenever an embedding model is loaded; the reply's headers say which way it
  // ran and why it was lexical.
  route(router, search.neuralCode, (ctx) => withSlot(ctx, deps.searches, async () => {
    const query = queryString(ctx, 'query') ?? '';
    const plan = await core.recall.plan(query);
    const { pages, counts } = assets.searches.codeSearchPages(query, { transferables: transferables(ctx), pseudo: pseudo(ctx), semantic: plan.semantic });
    ctx.set(searchModeHeaders(plan.mode));
    jsonStream(ctx, searchedReply(pages, counts, false));
  }));

  // Semantic recall (not in the Pieces interface): whether search is hybrid, and the back-fill's progress.
  route(router, search.semantic, (ctx) => json(ctx, core.recall.status()));
  route(router, search.cancelSemantic, (ctx) => json(ctx, { cancelled: core.recall.cancelBackfill(), status: core.recall.status() }));

  route(router, op.search, (ctx) => withSlot(ctx, deps.searches, async () => {
    const filters = input(ctx, op.search) ?? {};
    const semantic = filters.query ? await core.recall.prepare(filters.query) : undefined;
    // Without a query every asset is a result: the reply is streamed a page at a time like GET /assets.
    const { pages, counts } = assets.searches.searchPagesWithFilters(filters, { transferables: transferables(ctx), pseudo: pseudo(ctx), semantic });
    jsonStream(ctx, searchedReply(pages, counts, true));
  }));

  registerAssetStreams(router, deps);

  route(router, op.snapshotAlias, (ctx) => scanned(ctx, core, () => withSlot(ctx, deps.reads, () => snapshot(ctx, core))));

  route(router, op.formatsAlias, (ctx) => {
    json(ctx, assets.formats(param(ctx, 'asset'), transferables(ctx)));
  });

  // If-Match makes a delete conditional on the revision the caller read, as an update.
  route(router, op.delete, (ctx) => {
    const id = param(ctx, 'asset');
    text(ctx, assets.writes.delete(id, writeOptions(ctx, { current: () => core.history.current(id) })));
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

