/**
 * Format routes the client uses next to the asset ones (FormatApi, FormatsApi). Note the singular
 * `transferable` query of these two APIs, except on the formats snapshot.
 */
import { route, type RouteModule } from './deps.ts';
import { input, json, jsonStream, param, queryBoolean, transferables } from '../http.ts';
import { jsonArrayReply } from '../jsonEncode.ts';
import { assetOperations as op } from '../../wire/assets.ts';
import { writeOptions } from '../writeOptions.ts';

export const formatRoutes: RouteModule = (router, { core }) => {
  const assets = core.assets;

  route(router, op.allFormats, (ctx) => {
    // Streamed a page of assets at a time like GET /assets.
    jsonStream(ctx, jsonArrayReply('iterable', assets.formatPages(transferables(ctx))));
  });

  route(router, op.updateFormatValue, (ctx) => {
    json(ctx, assets.writes.updateFormatValue(input(ctx, op.updateFormatValue), queryBoolean(ctx, 'transferable', true), writeOptions(ctx)));
  });

  route(router, op.format, (ctx) => {
    json(ctx, assets.format(param(ctx, 'format'), queryBoolean(ctx, 'transferable', true)));
  });

  route(router, op.formatAlias, (ctx) => {
    json(ctx, assets.format(param(ctx, 'format'), queryBoolean(ctx, 'transferable', true)));
  });
};
