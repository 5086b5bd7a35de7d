/**
 * Format routes the client uses next to the asset ones (FormatApi, FormatsApi). Note the singular
 * `transferable` query of these two APIs, except on the formats snapshot.
 */
import type { RouteModule } from './deps.ts';
import { input, json, param, queryBoolean, transferables } from '../http.ts';
import { assetOperations as op } from '../../wire/assets.ts';
import { writeOptions } from '../writeOptions.ts';

export const formatRoutes: RouteModule = (router, { core }) => {
  const assets = core.assets;

  router.get('/formats', (ctx) => {
    json(ctx, assets.allFormats(transferables(ctx)));
  });

  router.post(op.updateFormatValue.path, (ctx) => {
    json(ctx, assets.updateFormatValue(input(ctx, op.updateFormatValue), queryBoolean(ctx, 'transferable', true), writeOptions(ctx)));
  });

  router.get('/format/:format', (ctx) => {
    json(ctx, assets.format(param(ctx, 'format'), queryBoolean(ctx, 'transferable', true)));
  });

  router.get('/formats/:format', (ctx) => {
    json(ctx, assets.format(param(ctx, 'format'), queryBoolean(ctx, 'transferable', true)));
  });
};
