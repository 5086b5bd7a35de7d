/** Satchel's secrets routes (src/wire/secrets.ts): thin over core's SecretsService (`assets.secrets`). */
import { route, type RouteModule } from './deps.ts';
import { empty, input, json, param } from '../http.ts';
import { longOperationReply } from '../ndjson.ts';
import { secretOperations as op } from '../../wire/secrets.ts';
import { writeOptions } from '../writeOptions.ts';
import { NotFoundError } from '../../core/errors.ts';

export const secretRoutes: RouteModule = (router, { core }) => {
  const secrets = core.assets.secrets;

  route(router, op.findings, async (ctx) => json(ctx, await secrets.describedNow(param(ctx, 'asset'))));

  route(router, op.flagged, (ctx) => json(ctx, secrets.flagged()));

  route(router, op.dismiss, (ctx) => {
    secrets.dismiss(param(ctx, 'asset'), param(ctx, 'sensitive'));
    empty(ctx);
  });

  route(router, op.forget, async (ctx) => {
    const asset = param(ctx, 'asset');
    const { sensitive } = input(ctx, op.forget);
    json(ctx, await core.secretForgetter.forget(asset, writeOptions(ctx, { current: () => core.history.current(asset) }), sensitive));
  });

  route(router, op.syncSecrets, (ctx) => {
    const asset = param(ctx, 'asset');
    const { include } = input(ctx, op.syncSecrets);
    secrets.setSyncWithSecrets(asset, include);
    json(ctx, { asset, include: secrets.syncsWithSecrets(asset) });
  });

  route(router, op.syncSecretsSetting, (ctx) => {
    const asset = param(ctx, 'asset');
    if (!core.assets.exists(asset)) throw new NotFoundError('asset', asset);
    json(ctx, { asset, include: secrets.syncsWithSecrets(asset) });
  });

  route(router, op.summary, (ctx) => json(ctx, secrets.summary()));

  route(router, op.scan, (ctx) => {
    void longOperationReply(
      ctx,
      core.context.logger,
      op.scan,
      (signal, onProgress) => secrets.scanPending({ signal, onProgress }),
      (scanned) => ({ scanned }),
    );
  });
};
