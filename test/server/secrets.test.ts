/**
 * GET /asset/{id} lists a snippet's secrets in `sensitives`, read through the official client's
 * types and API classes; Satchel's secrets routes (dismiss, sync-secrets, summary, scan) through
 * Satchel's client, with clear 4xx on bad input.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AssetApi, AssetsApi, SensitiveCategoryEnum, SensitiveSeverityEnum, MechanismEnum, type Sensitive } from '@pieces.app/pieces-os-client';
import { withClient } from '../support/helpers.ts';
import { codeSeed } from '../support/assetFixtures.ts';
import { ClientError } from '../../src/client/errors.ts';
import { PLANTED } from '../core/secrets/plantedSecrets.ts';
import { LIMITS } from '../../src/core/limits.ts';
import { TEST_AUTHOR } from '../support/authors.ts';

const aws = PLANTED.find((p) => p.shape === 'aws:AWSSecretAccessKey')!;
const github = PLANTED.find((p) => p.shape === 'github:GITHUB_TOKEN')!;

test('GET /asset/{id} lists the findings as sensitives in the Pieces shape, through the official client', async () => {
  await withClient(async (client, server) => {
    const code = `import boto3\n\n${aws.text}\nprint("ok")\n`;
    const created = await new AssetsApi(server.sdk).assetsCreateNewAsset({ seed: codeSeed(code, 'boto3 client') as never });
    const asset = await new AssetApi(server.sdk).assetSnapshot({ asset: created.id });
    const sensitives: Sensitive[] = asset.sensitives?.iterable ?? [];
    assert.equal(sensitives.length, 1);
    const [sensitive] = sensitives as [Sensitive];
    assert.equal(sensitive.category, SensitiveCategoryEnum.SecretKey);
    assert.equal(sensitive.severity, SensitiveSeverityEnum.High);
    assert.equal(sensitive.mechanism, MechanismEnum.Automatic);
    assert.equal(sensitive.name, 'AWS secret access key');
    assert.equal(sensitive.description, 'AWS secret access key on line 3 of the code');
    assert.equal(sensitive.text, aws.value, 'the value, on the loopback interface');
    const group = sensitive.metadata?.match?.group;
    assert.deepEqual([group?.start, group?.end, group?.text], [code.indexOf(aws.value), code.indexOf(aws.value) + aws.value.length, aws.value]);
    assert.equal(sensitive.asset.id, created.id);
    assert.ok(sensitive.created.value instanceof Date);

    // Stable per (asset, value): read again, same id.
    const again = await new AssetApi(server.sdk).assetSnapshot({ asset: created.id });
    assert.equal(again.sensitives?.iterable[0]?.id, sensitive.id);

    // Not a Secret: gone from the asset and from every door's reader.
    await client.secrets.dismiss(created.id, sensitive.id);
    const after = await new AssetApi(server.sdk).assetSnapshot({ asset: created.id });
    assert.equal(after.sensitives, undefined);
    assert.deepEqual(server.core.assets.secrets.findingsFor(created.id), []);
  });
});

test('sync-secrets, summary and scan; bad input is a clear 4xx', async () => {
  await withClient(async (client, server) => {
    const created = await new AssetsApi(server.sdk).assetsCreateNewAsset({ seed: codeSeed(github.text, 'gh') as never });
    const scanned = await client.secrets.scan();
    assert.equal(scanned.pending, 0);
    assert.deepEqual(await client.secrets.setSyncWithSecrets(created.id, true), { asset: created.id, include: true });
    const summary = await client.secrets.summary();
    assert.equal(summary.flaggedSnippets, 1);
    assert.equal(summary.syncingWithSecrets, 1);
    assert.deepEqual(summary.byCategory, { ACCESS_TOKEN: 1 });
    assert.equal(server.core.assets.secrets.syncsWithSecrets(created.id), true);

    await assert.rejects(client.secrets.dismiss(created.id, 'nope'), (error: unknown) => error instanceof ClientError && error.status === 404);
    await assert.rejects(client.secrets.setSyncWithSecrets('no-such-asset', true), (error: unknown) => error instanceof ClientError && error.status === 404);
    const bad = await fetch(`${server.url}/satchel/assets/${created.id}/sync-secrets`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ include: 'yes' }) });
    assert.equal(bad.status, 400);
    assert.match(await bad.text(), /include/);
  });
});

test('health answers while the largest snippet allowed is scanned', async () => {
  await withClient(async (_client, server) => {
    const line = 'const value = compute(input, options); // ordinary code\n';
    const text = `${line.repeat(Math.floor((LIMITS.contentChars - 200) / line.length))}${github.text}\n`;
    const created = await server.core.assets.writes.create(codeSeed(text, 'large'), { author: TEST_AUTHOR });
    assert.ok(!server.core.assets.secrets.isCurrent(created.id));
    let scanning = true;
    const snapshot = fetch(`${server.url}/asset/${created.id}`).then(async (response) => {
      const asset = (await response.json()) as { sensitives?: { iterable: Array<{ name: string }> } };
      scanning = false;
      return asset;
    });
    const latencies: number[] = [];
    while (scanning) {
      const started = performance.now();
      const health = await fetch(`${server.url}/.well-known/health`);
      assert.equal(health.status, 200);
      await health.text();
      latencies.push(performance.now() - started);
    }
    const asset = await snapshot;
    assert.deepEqual(asset.sensitives?.iterable.map((s) => s.name), ['GitHub token']);
    assert.ok(latencies.length > 0);
    assert.ok(Math.max(...latencies) < 1000, `health took up to ${Math.max(...latencies).toFixed(0)} ms (${latencies.length} probes)`);
  });
});

test('POST …/sensitives/forget through the client: the value leaves the snippet, the reply names the backup', async () => {
  await withClient(async (client, server) => {
    const created = await new AssetsApi(server.sdk).assetsCreateNewAsset({ seed: codeSeed(`${github.text}\n${aws.text}\n`, 'two') as never });
    const asset = await new AssetApi(server.sdk).assetSnapshot({ asset: created.id });
    const gh = asset.sensitives!.iterable.find((s) => s.name === 'GitHub token')!;
    const forgotten = await client.secrets.forget(created.id, gh.id);
    assert.match(forgotten.backup, /before-forget-secret/);
    const after = await new AssetApi(server.sdk).assetSnapshot({ asset: created.id });
    assert.deepEqual(after.sensitives?.iterable.map((s) => s.name), ['AWS secret access key']);
    assert.ok(!JSON.stringify(after).includes(github.value));
    const bad = await fetch(`${server.url}/satchel/assets/${created.id}/sensitives/forget`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sensitive: 7 }) });
    assert.equal(bad.status, 400);
    await assert.rejects(client.secrets.forget(created.id, 'no-such'), (error: unknown) => error instanceof ClientError && error.status === 404);
  });
});

test('findings and flagged list what was found without the values', async () => {
  await withClient(async (client, server) => {
    const created = await new AssetsApi(server.sdk).assetsCreateNewAsset({ seed: codeSeed(`x = 1\n${github.text}\n`, 'gh') as never });
    const findings = await client.secrets.findings(created.id);
    assert.deepEqual(findings.map((f) => [f.label, f.line, f.field, f.category]), [['GitHub token', 2, 'code', 'ACCESS_TOKEN']]);
    assert.ok(!JSON.stringify(findings).includes(github.value));
    const asset = await new AssetApi(server.sdk).assetSnapshot({ asset: created.id });
    assert.equal(findings[0]!.sensitive, asset.sensitives!.iterable[0]!.id);
    const flagged = await client.secrets.flagged();
    assert.deepEqual(flagged.map((f) => [f.asset, f.current, f.findings.length]), [[created.id, true, 1]]);
    assert.ok(!JSON.stringify(flagged).includes(github.value));
    await assert.rejects(client.secrets.findings('no-such-asset'), (error: unknown) => error instanceof ClientError && error.status === 404);
  });
});
