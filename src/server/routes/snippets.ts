/**
 * Satchel's snippet routes (wire/snippets.ts): completion candidates, `.code-snippets` export and
 * each asset's snippet facts. Thin over core's SnippetService.
 */
import { writeOptions } from '../writeOptions.ts';
import { route, type RouteModule } from './deps.ts';
import { input, json, param, parse, queryBoolean, queryString } from '../http.ts';
import { InvalidInputError } from '../../core/errors.ts';
import { snippetOperations as op, assetGroupsQuery, assetGroupPageQuery } from '../../wire/snippets.ts';

export const snippetRoutes: RouteModule = (router, { core }) => {
  route(router, op.completions, (ctx) => {
    const limit = queryString(ctx, 'limit');
    const parsed = limit === undefined || limit === '' ? undefined : Number(limit);
    if (parsed !== undefined && !(Number.isInteger(parsed) && parsed > 0)) throw new InvalidInputError(`Query parameter limit must be a positive integer, not ${JSON.stringify(limit)}`);
    json(ctx, core.snippets.completions({ query: queryString(ctx, 'query', 'q') ?? '', language: queryString(ctx, 'language'), limit: parsed }));
  });

  route(router, op.export, async (ctx) => {
    json(ctx, await core.snippets.exportCodeSnippets({ asset: queryString(ctx, 'asset'), tag: queryString(ctx, 'tag'), includeSecrets: queryBoolean(ctx, 'includeSecrets', false) }));
  });

  route(router, op.info, (ctx) => {
    json(ctx, core.snippets.info(param(ctx, 'asset')));
  });

  route(router, op.setInfo, (ctx) => {
    json(ctx, core.snippets.setInfo(param(ctx, 'asset'), input(ctx, op.setInfo), writeOptions(ctx)));
  });

  // Without content unless asked (`transferables=true`): what a tree view lists, not what it opens.
  route(router, op.byId, (ctx) => {
    json(ctx, { iterable: core.assets.some(input(ctx, op.byId).ids, { transferables: queryBoolean(ctx, 'transferables', false) }) });
  });

  // The Assets tree's groups and one page of a group: an editor holds what it shows, not the library.
  route(router, op.groups, (ctx) => {
    json(ctx, core.assets.groups.counts(parse(assetGroupsQuery(), ctx.query, 'group query').by));
  });

  route(router, op.groupPage, (ctx) => {
    const { by, key, after, limit } = parse(assetGroupPageQuery(), ctx.query, 'group page query');
    const page = core.assets.groups.page(by, key, after, limit);
    json(ctx, { iterable: core.assets.some(page.ids, { transferables: false }), ...(page.next !== undefined ? { next: page.next } : {}) });
  });
};
