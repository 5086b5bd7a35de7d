/**
 * Tag and website routes the client needs to make what it associates with assets (TagsApi,
 * TagApi, WebsitesApi, WebsiteApi): create, snapshot, one record, and the asset links seen from
 * the tag or website side.
 */
import type { RouteModule } from './deps.ts';
import { empty, input, json, param } from '../http.ts';
import { assetOperations as op } from '../../wire/assets.ts';
import { writeOptions } from '../writeOptions.ts';

export const labelRoutes: RouteModule = (router, { core }) => {
  const assets = core.assets;

  router.get('/tags', (ctx) => json(ctx, { iterable: assets.labels.tags() }));
  router.post(op.createTag.path, (ctx) => {
    json(ctx, assets.createTag(input(ctx, op.createTag), writeOptions(ctx)));
  });
  router.get('/tag/:tag', (ctx) => json(ctx, assets.labels.tag(param(ctx, 'tag'))));
  router.post('/tag/:tag/assets/associate/:asset', (ctx) => {
    assets.associate(param(ctx, 'asset'), 'tag', param(ctx, 'tag'), writeOptions(ctx));
    empty(ctx);
  });
  router.post('/tag/:tag/assets/disassociate/:asset', (ctx) => {
    assets.disassociate(param(ctx, 'asset'), 'tag', param(ctx, 'tag'), writeOptions(ctx));
    empty(ctx);
  });

  router.get('/websites', (ctx) => json(ctx, { iterable: assets.labels.websites() }));
  router.post(op.createWebsite.path, (ctx) => {
    json(ctx, assets.createWebsite(input(ctx, op.createWebsite), writeOptions(ctx)));
  });
  router.get('/website/:website', (ctx) => json(ctx, assets.labels.website(param(ctx, 'website'))));
  router.post('/website/:website/assets/associate/:asset', (ctx) => {
    assets.associate(param(ctx, 'asset'), 'website', param(ctx, 'website'), writeOptions(ctx));
    empty(ctx);
  });
  router.post('/website/:website/assets/disassociate/:asset', (ctx) => {
    assets.disassociate(param(ctx, 'asset'), 'website', param(ctx, 'website'), writeOptions(ctx));
    empty(ctx);
  });
};
