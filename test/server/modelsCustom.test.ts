/**
 * Custom models, refusals for built-in ones, the classifier as a model, file import, the
 * identifiers stream and bad input on every models route.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ModelApi, ModelsApi, ResponseError, type SeededModel, type StreamedIdentifiers } from '@pieces.app/pieces-os-client';
import { startTestServer, tempDir, request, errorCode, type TestServer } from '../support/helpers.ts';
import { tinyGguf } from '../support/gguf.ts';
import { openFrames } from '../support/frames.ts';
import { shippedCatalog, CLASSIFIER_ID } from '../../src/core/models/catalog.ts';

const builtIn = shippedCatalog()[0]!;
let t: TestServer;
let models: ModelsApi;
let model: ModelApi;
let files: string;

before(async () => {
  t = await startTestServer({ models: { idleUnloadMs: 0 } });
  models = new ModelsApi(t.sdk);
  model = new ModelApi(t.sdk);
  files = tempDir('satchel-model-files-');
});
after(() => t.close());

const seed = (overrides: Partial<SeededModel> = {}): SeededModel => ({
  version: '1.0',
  created: { value: new Date('2026-03-01T10:00:00Z') },
  name: 'My model',
  cloud: false,
  type: 'BALANCED',
  usage: 'CODE_CONVERSATION',
  ...overrides,
});

/** Asserts the client's call fails with this HTTP status. */
async function refusedWith(call: Promise<unknown>, status: number): Promise<void> {
  await assert.rejects(call, (error: unknown) => error instanceof ResponseError && error.response.status === status);
}

test('create sets custom, never duplicates, update changes only custom models, delete removes them', async () => {
  const before = (await models.modelsSnapshot()).iterable.length;
  const created = await models.modelsCreateNewModel({ seededModel: seed({ unique: 'https://127.0.0.1:9/my-model.gguf', custom: false }) });
  assert.equal(created.custom, true, 'custom is set whatever the seed says');
  assert.equal(created.downloaded, false);
  assert.equal(created.name, 'My model');
  assert.equal(created.created.value.toISOString(), '2026-03-01T10:00:00.000Z');
  const again = await models.modelsCreateNewModel({ seededModel: seed({ unique: 'https://127.0.0.1:9/my-model.gguf', name: 'Other name' }) });
  assert.equal(again.id, created.id, 'same source, same model');
  const plain = await models.modelsCreateNewModel({ seededModel: seed({ name: 'No source' }) });
  const plainAgain = await models.modelsCreateNewModel({ seededModel: seed({ name: 'No source' }) });
  assert.equal(plainAgain.id, plain.id, 'same name, version and usage, same model');
  const catalogAgain = await models.modelsCreateNewModel({ seededModel: seed({ unique: builtIn.unique }) });
  assert.equal(catalogAgain.id, builtIn.id, 'a seed naming a catalog model returns it');
  assert.equal((await models.modelsSnapshot()).iterable.length, before + 2);

  const updated = await model.modelUpdate({ model: { ...created, name: 'Renamed', description: 'mine', downloaded: true } });
  assert.equal(updated.name, 'Renamed');
  assert.equal(updated.description, 'mine');
  assert.equal(updated.downloaded, false, 'derived fields are not taken from the request');
  assert.equal((await model.modelsSpecificModelSnapshot({ model: created.id })).name, 'Renamed');

  const catalogModel = await model.modelsSpecificModelSnapshot({ model: builtIn.id });
  await refusedWith(model.modelUpdate({ model: { ...catalogModel, name: 'Hacked' } }), 403);
  assert.equal((await model.modelsSpecificModelSnapshot({ model: builtIn.id })).name, builtIn.name);
  const refused = await request(t.url, 'POST', `/models/${builtIn.id}/delete`);
  assert.equal(refused.status, 403);
  assert.equal(errorCode(refused), 'forbidden');
  await refusedWith(models.modelsDeleteSpecificModel({ model: CLASSIFIER_ID }), 403);

  await models.modelsDeleteSpecificModel({ model: created.id });
  await models.modelsDeleteSpecificModel({ model: plain.id });
  await refusedWith(model.modelsSpecificModelSnapshot({ model: created.id }), 404);
  await refusedWith(models.modelsDeleteSpecificModel({ model: created.id }), 404);
  assert.equal((await models.modelsSnapshot()).iterable.length, before);
});

test('the classifier is a model that loads and unloads; its cache cannot be deleted', async () => {
  const listed = (await models.modelsSnapshot()).iterable.find((m) => m.id === CLASSIFIER_ID)!;
  assert.equal(listed.usage, 'CODE_CLASSIFICATION');
  // It ships with Satchel: downloaded on Satchel's own route, not on the Pieces paths (whose clients would offer it for chat).
  assert.equal(listed.downloaded, false);
  assert.equal((await request(t.url, 'GET', `/satchel/models/${CLASSIFIER_ID}`)).json.downloaded, true);
  const loaded = await model.modelSpecificModelLoad({ model: CLASSIFIER_ID });
  assert.equal(loaded.loaded, true);
  assert.equal(t.core.classifier.loaded, true);
  const unloaded = await model.modelSpecificModelUnload({ model: CLASSIFIER_ID });
  assert.equal(unloaded.loaded, false);
  assert.equal(t.core.classifier.loaded, false);
  await model.modelSpecificModelLoad({ model: CLASSIFIER_ID });
  await models.unloadModels();
  assert.equal((await model.modelsSpecificModelSnapshot({ model: CLASSIFIER_ID })).loaded, false);
  const cache = await request(t.url, 'POST', `/models/${CLASSIFIER_ID}/delete/cache`, { body: {} });
  assert.equal(cache.status, 422);
  assert.equal(errorCode(cache), 'unsupported');
  const download = await model.modelSpecificModelDownload({ model: CLASSIFIER_ID });
  assert.equal(download.downloading, false, 'downloading it is a no-op');
  const progress = await request(t.url, 'GET', `/model/${CLASSIFIER_ID}/download/progress`);
  assert.deepEqual(progress.json, { status: 'COMPLETED', percentage: 100 });
});

test('a GGUF already on disk is imported (copied, verified) as a downloaded custom model', async () => {
  const path = join(files, 'local model.gguf');
  writeFileSync(path, tinyGguf({ seed: 3 }));
  const reply = await request(t.url, 'POST', '/models/import', { body: { path, usage: 'TEXT_EMBEDDING' } });
  assert.equal(reply.status, 200, reply.text);
  assert.equal(reply.json.custom, true);
  assert.equal(reply.json.downloaded, true);
  assert.equal(reply.json.usage, 'TEXT_EMBEDDING');
  assert.equal(reply.json.name, 'local model');
  const again = await request(t.url, 'POST', '/models/import', { body: { path } });
  assert.equal(again.json.id, reply.json.id, 'importing the same file twice gives the same model');

  const notGguf = join(files, 'notes.txt');
  writeFileSync(notGguf, 'just text, not a model');
  const refused = await request(t.url, 'POST', '/models/import', { body: { path: notGguf } });
  assert.equal(refused.status, 422);
  for (const body of [{ path: 'relative.gguf' }, { path: join(files, 'missing.gguf') }, {}, { path: 7 }, { path, usage: 'NOPE' }]) {
    const bad = await request(t.url, 'POST', '/models/import', { body });
    assert.equal(bad.status, 400, JSON.stringify(body));
    assert.equal(errorCode(bad), 'invalid_input');
  }
  await models.modelsDeleteSpecificModel({ model: reply.json.id });
});

test('the identifiers stream sends every model on connect, then creations and deletions', async () => {
  const stream = await openFrames<StreamedIdentifiers>(`${t.url}/models/stream/identifiers`);
  const first = await stream.until(() => true);
  const ids = first.iterable.map((i) => i.model?.id);
  assert.ok(ids.includes(CLASSIFIER_ID) && ids.includes(builtIn.id));
  const created = await models.modelsCreateNewModel({ seededModel: seed({ name: 'Streamed' }) });
  await stream.until((f) => f.iterable.some((i) => i.model?.id === created.id && !i.deleted), 1);
  await models.modelsDeleteSpecificModel({ model: created.id });
  await stream.until((f) => f.iterable.some((i) => i.model?.id === created.id && i.deleted === true), 1);
  stream.close();
  const snapshot = await models.modelsStreamIdentifiers();
  assert.equal(snapshot.iterable.length, ids.length);
});

test('bad input and unknown models get 4xx JSON errors on every route', async () => {
  const unknown = 'no-such-model';
  const cases: Array<[string, string, unknown, number]> = [
    ['POST', '/models/create', undefined, 400],
    ['POST', '/models/create', {}, 400],
    ['POST', '/models/create', 'text', 400],
    ['POST', '/models/create', { ...seedJson(), usage: 'NOT_A_USAGE' }, 400],
    ['POST', '/models/create', { ...seedJson(), name: '  ' }, 400],
    ['POST', '/models/create', { ...seedJson(), created: { value: 'yesterday' } }, 400],
    ['POST', '/models/create', { ...seedJson(), bytes: { value: -1, readable: 'x' } }, 400],
    ['POST', '/models/create', { ...seedJson(), cloud: true }, 422],
    ['POST', '/model/update', undefined, 400],
    ['POST', '/model/update', seedJson(), 400],
    ['POST', '/model/update', { ...seedJson(), id: unknown }, 404],
    ['GET', `/model/${unknown}`, undefined, 404],
    ['POST', `/model/${unknown}/download`, undefined, 404],
    ['POST', `/model/${unknown}/download/cancel`, undefined, 404],
    ['GET', `/model/${unknown}/download/progress`, undefined, 404],
    ['POST', `/model/${unknown}/load`, undefined, 404],
    ['POST', `/model/${unknown}/unload`, undefined, 404],
    ['POST', `/models/${unknown}/delete`, undefined, 404],
    ['POST', `/models/${unknown}/delete/cache`, {}, 404],
    ['POST', `/models/${builtIn.id}/delete/cache`, 'text', 400],
    ['POST', `/models/${builtIn.id}/delete/cache`, [1], 400],
    ['POST', `/model/${builtIn.id}/load`, undefined, 409],
    ['POST', '/models/import', undefined, 400],
  ];
  for (const [method, path, body, expected] of cases) {
    const reply = await request(t.url, method, path, body === undefined ? {} : { body });
    assert.equal(reply.status, expected, `${method} ${path} ${JSON.stringify(body)} → ${reply.text}`);
    errorCode(reply);
  }
  // A custom model with no source cannot download; one too big for the disk is refused before starting.
  const sourceless = await models.modelsCreateNewModel({ seededModel: seed({ name: 'Sourceless' }) });
  const noSource = await request(t.url, 'POST', `/model/${sourceless.id}/download`);
  assert.equal(noSource.status, 422);
  const huge = await models.modelsCreateNewModel({
    seededModel: seed({ name: 'Huge', unique: 'http://127.0.0.1:9/huge.gguf', bytes: { value: 2 ** 52, readable: '4 PB' } }),
  });
  const full = await request(t.url, 'POST', `/model/${huge.id}/download`);
  assert.equal(full.status, 507);
  assert.equal(errorCode(full), 'insufficient_resources');
  assert.equal((await model.modelsSpecificModelSnapshot({ model: huge.id })).downloading, false);
  // An unknown model's progress stream answers UNKNOWN once and closes.
  const stream = await openFrames<{ status: string }>(`${t.url}/model/${unknown}/download/progress`);
  await stream.closed;
  assert.deepEqual(stream.frames, [{ status: 'UNKNOWN', percentage: null }]);
});

function seedJson() {
  return { version: '1', created: { value: '2026-03-01T10:00:00.000Z' }, name: 'Raw', cloud: false, type: 'BALANCED', usage: 'CODE_CONVERSATION' };
}
