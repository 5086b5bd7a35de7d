/**
 * Tag and website routes the client needs to make what it associates with assets (TagsApi,
 * TagApi, WebsitesApi, WebsiteApi): create, snapshot, one record, and the asset links seen from
 * the tag or website side.
 */
import { route, type RouteModule } from './deps.ts';
import { empty, input, json, jsonStream, param } from '../http.ts';
import { jsonArrayReply } from '../jsonEncode.ts';
import { assetOperations as op } from '../../wire/assets.ts';
import { writeOptions } from '../writeOptions.ts';

export const labelRoutes: RouteModule = (router, { core }) => {
  const assets = core.assets;

  // Streamed a page at a time like GET /assets: a store may hold 200k tags.
  route(router, op.tags, (ctx) => jsonStream(ctx, jsonArrayReply('iterable', assets.labels.tagPages())));
  route(router, op.createTag, (ctx) => {
    json(ctx, assets.writes.createTag(input(ctx, op.createTag), writeOptions(ctx)));
  });
  route(router, op.tag, (ctx) => json(ctx, assets.labels.tag(param(ctx, 'tag'))));
  route(router, op.tagAssociateAsset, (ctx) => {
    assets.writes.associate(param(ctx, 'asset'), 'tag', param(ctx, 'tag'), writeOptions(ctx));
    empty(ctx);
  });
  route(router, op.tagDisassociateAsset, (ctx) => {
    assets.writes.disassociate(param(ctx, 'asset'), 'tag', param(ctx, 'tag'), writeOptions(ctx));
    empty(ctx);
  });

  route(router, op.websites, (ctx) => jsonStream(ctx, jsonArrayReply('iterable', assets.labels.websitePages())));
  route(router, op.createWebsite, (ctx) => {
    json(ctx, assets.writes.createWebsite(input(ctx, op.createWebsite), writeOptions(ctx)));
  });
  route(router, op.website, (ctx) => json(ctx, assets.labels.website(param(ctx, 'website'))));
  route(router, op.websiteAssociateAsset, (ctx) => {
    assets.writes.associate(param(ctx, 'asset'), 'website', param(ctx, 'website'), writeOptions(ctx));
    empty(ctx);
  });
  route(router, op.websiteDisassociateAsset, (ctx) => {
    assets.writes.disassociate(param(ctx, 'asset'), 'website', param(ctx, 'website'), writeOptions(ctx));
    empty(ctx);
  });
};
