/**
 * The models area through the published client's ModelsApi and ModelApi: the raw JSON of every
 * reply is checked strictly against the client's own models (required wire keys, enum values,
 * dates, no unknown keys), and the client's parse of it must succeed.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ModelApi, ModelsApi, type ApiResponse } from '@pieces.app/pieces-os-client';
import { startTestServer, request, type TestServer } from '../support/helpers.ts';
import { assertWire } from './assetsWireCheck.ts';
import { FileServer } from '../support/fileServer.ts';
import { tinyGguf } from '../support/gguf.ts';
import { openFrames } from '../support/frames.ts';
import { CLASSIFIER_ID, shippedCatalog } from '../../src/core/models/catalog.ts';

let files: FileServer;
let t: TestServer;
let models: ModelsApi;
let model: ModelApi;

before(async () => {
  files = await FileServer.start();
  for (const entry of shippedCatalog()) files.set(entry.file, tinyGguf({ seed: 5 }));
  t = await startTestServer({ models: { catalogBaseUrl: files.base, idleUnloadMs: 0 } });
  models = new ModelsApi(t.sdk);
  model = new ModelApi(t.sdk);
});
after(async () => {
  await t.close();
  await files.close();
});

/** The raw JSON of a reply, checked strictly, and the client's parse of the same reply. */
async function strict<T>(name: string, call: Promise<ApiResponse<T>>): Promise<T> {
  const response = await call;
  const raw: unknown = await response.raw.clone().json();
  assertWire(name, raw);
  return response.value();
}

test('every models operation answers strictly valid wire JSON', async () => {
  const list = await strict('Models', models.modelsSnapshotRaw());
  assert.ok(list.iterable.length >= 5);
  const target = shippedCatalog()[1]!.id;
  await strict('Model', model.modelsSpecificModelSnapshotRaw({ model: target }));

  const created = await strict(
    'Model',
    models.modelsCreateNewModelRaw({
      seededModel: {
        version: '2',
        created: { value: new Date() },
        name: 'Conformance model',
        cloud: false,
        type: 'SPEED',
        usage: 'CODE_GENERATION',
        foundation: 'QWEN_CODER_LATEST',
        provider: 'HUGGING_FACE',
        bytes: { value: 1234, readable: '1.2 KB' },
        maxTokens: { total: 2048, input: 1536, output: 512 },
        capabilities: { codebases: true },
        parameters: null,
      },
    }),
  );
  assert.equal(created.custom, true);
  assert.equal(created.maxTokens?.total, 2048);
  await strict('Model', model.modelUpdateRaw({ model: { ...created, quantization: 'Q4_0' } }));

  const stream = await openFrames<unknown>(`${t.url}/model/${target}/download/progress`);
  const downloading = await strict('Model', model.modelSpecificModelDownloadRaw({ model: target }));
  assert.equal(downloading.downloading, true);
  await (stream.until((f) => (f as { status: string }).status === 'COMPLETED'));
  stream.close();
  for (const frame of stream.frames) assertWire('ModelDownloadProgress', frame);
  await strict('ModelDownloadProgress', model.modelSpecificModelDownloadProgressRaw({ model: target }));
  await strict('Model', model.modelSpecificModelDownloadCancelRaw({ model: target }));

  await strict('Model', model.modelSpecificModelLoadRaw({ model: CLASSIFIER_ID }));
  await strict('Model', model.modelSpecificModelUnloadRaw({ model: CLASSIFIER_ID }));
  const cleared = await strict('ModelDeleteCacheOutput', models.modelsDeleteSpecificModelCacheRaw({ model: target, modelDeleteCacheInput: {} }));
  assert.equal(cleared.model.id, target);
  await strict('StreamedIdentifiers', models.modelsStreamIdentifiersRaw());

  const unload = await models.unloadModelsRaw();
  assert.equal(unload.raw.status, 204);
  const deleted = await request(t.url, 'POST', `/models/${created.id}/delete`);
  assert.equal(deleted.status, 204);
});

test('the models streams send strictly valid frames', async () => {
  const stream = await openFrames<unknown>(`${t.url}/models/stream/identifiers`);
  const first = await stream.until(() => true);
  assertWire('StreamedIdentifiers', first);
  stream.close();
});
