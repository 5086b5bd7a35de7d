/**
 * The models area end to end through the published client and the WebSocket: the shipped catalog
 * is pointed at a 127.0.0.1 server holding a generated GGUF, then downloaded, verified, loaded,
 * used, unloaded and cleared, with faults injected on the way.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ModelApi, ModelsApi, type ModelDownloadProgress } from '@pieces.app/pieces-os-client';
import { startTestServer, tempDir, request, errorCode, type TestServer } from '../support/helpers.ts';
import { FileServer } from '../support/fileServer.ts';
import { tinyGguf } from '../support/gguf.ts';
import { openFrames } from '../support/frames.ts';
import { isAlive } from '../support/processes.ts';
import { canChat, shippedCatalog, STAND_IN_IDS } from '../../src/core/models/catalog.ts';
import type { Model } from '../../src/core/piecesTypes.ts';

const [qwen, smol, , embedder] = shippedCatalog();
let files: FileServer;
let t: TestServer;
let models: ModelsApi;
let model: ModelApi;
const gguf = tinyGguf({ seed: 1 });
const digest = createHash('sha256').update(gguf).digest('hex');

before(async () => {
  files = await FileServer.start();
  for (const entry of shippedCatalog()) files.set(entry.file, gguf);
  t = await startTestServer({ models: { catalogBaseUrl: files.base, retryBackoffMs: 20, idleUnloadMs: 0 } });
  models = new ModelsApi(t.sdk);
  model = new ModelApi(t.sdk);
});
after(async () => {
  await t.close();
  await files.close();
});

const progressUrl = (server: TestServer, id: string) => `${server.url}/model/${id}/download/progress`;
const modelFile = (server: TestServer, id: string, file: string) => join(server.dataDir, 'models', id, file);

async function downloadAndWait(server: TestServer, id: string): Promise<ModelDownloadProgress[]> {
  const stream = await openFrames<ModelDownloadProgress>(progressUrl(server, id));
  try {
    await stream.until(() => true);
    await new ModelApi(server.sdk).modelSpecificModelDownload({ model: id });
    await stream.until((f) => f.status === 'COMPLETED' || f.status === 'FAILED' || f.status === 'CANCELED', 1);
    return stream.frames.slice(1);
  } finally {
    stream.close();
  }
}

test('the catalog and the classifier are listed with every required Model field', async () => {
  const list = await models.modelsSnapshot();
  const ids = list.iterable.map((m) => m.id);
  assert.ok(ids.includes(qwen!.id) && ids.includes(embedder!.id));
  for (const m of list.iterable) {
    for (const key of ['id', 'version', 'name', 'type', 'usage'] as const) assert.equal(typeof m[key], 'string', `${m.id} ${key}`);
    assert.ok(m.created.value instanceof Date && !Number.isNaN(m.created.value.getTime()));
    // Only the stand-ins for the cloud models real clients ask for by name say cloud.
    assert.equal(m.cloud, STAND_IN_IDS.includes(m.id as (typeof STAND_IN_IDS)[number]), m.name);
    assert.equal(m.custom, false);
  }
  // The classifier ships with Satchel, but Pieces clients take every downloaded model for a chat model.
  const classifier = list.iterable.find((m) => m.usage === 'CODE_CLASSIFICATION')!;
  assert.equal(classifier.downloaded, false);
  assert.equal(list.iterable.find((m) => m.id === qwen!.id)!.downloaded, false);
  const own = (await request(t.url, 'GET', '/satchel/models')).json.iterable as Model[];
  assert.equal(own.find((m) => m.id === classifier.id)!.downloaded, true, "Satchel's own route gives the true state");
});

test('download with live progress → verify → load → generate → unload → delete cache', async () => {
  files.rate = 400 * 1024;
  const stream = await openFrames<ModelDownloadProgress>(progressUrl(t, qwen!.id));
  const first = await stream.until(() => true);
  assert.deepEqual(first, { status: 'UNKNOWN', percentage: 0 });
  const started = await model.modelSpecificModelDownload({ model: qwen!.id });
  assert.equal(started.downloading, true);
  assert.equal(started.downloaded, false);
  await stream.until((f) => f.status === 'COMPLETED');
  files.rate = 0;
  stream.close();

  const statuses = stream.frames.map((f) => f.status);
  assert.ok(statuses.includes('INITIALIZED'));
  assert.ok(statuses.includes('IN-PROGRESS'));
  const percentages = stream.frames.filter((f) => f.status === 'IN-PROGRESS').map((f) => f.percentage!);
  assert.ok(percentages.every((p, i) => p > 0 && p <= 100 && (i === 0 || p >= percentages[i - 1]!)), String(percentages));
  assert.deepEqual(stream.frames.at(-1), { status: 'COMPLETED', percentage: 100 });
  // Throttled: the ~1.5 s download at 16 KB chunks would be ~40 frames unthrottled.
  const span = (stream.times.at(-1)! - stream.times[0]!) / 1000;
  assert.ok(stream.frames.length <= span * 4 + 5, `${stream.frames.length} frames in ${span}s`);

  const done = await model.modelsSpecificModelSnapshot({ model: qwen!.id });
  assert.equal(done.downloaded, true);
  assert.equal(done.downloading, false);
  const path = modelFile(t, qwen!.id, qwen!.file);
  assert.equal(createHash('sha256').update(readFileSync(path)).digest('hex'), digest);
  assert.deepEqual(readdirSync(join(t.dataDir, 'models', qwen!.id)), [qwen!.file], 'no .part left');

  const loaded = await model.modelSpecificModelLoad({ model: qwen!.id });
  assert.equal(loaded.loaded, true);
  const pid = t.core.models.runtimePid(qwen!.id)!;
  assert.ok(pid > 0 && isAlive(pid));
  const generator = t.core.models.textGenerator();
  assert.ok(generator, 'a loaded text model offers a generator');
  const schema = { type: 'object', properties: { language: { enum: ['go', 'rust', 'python'] } }, required: ['language'] };
  const first1 = await generator.generate('Which language is `fn main() {}`?', { maxTokens: 40, timeoutMs: 30_000, jsonSchema: schema });
  const parsed = JSON.parse(first1) as { language: string };
  assert.ok(['go', 'rust', 'python'].includes(parsed.language));
  const again = await generator.generate('Which language is `fn main() {}`?', { maxTokens: 40, timeoutMs: 30_000, jsonSchema: schema });
  assert.equal(again, first1, 'temperature 0 is deterministic');

  const unloaded = await model.modelSpecificModelUnload({ model: qwen!.id });
  assert.equal(unloaded.loaded, false);
  assert.equal(isAlive(pid), false, 'unloading ends the runtime process');
  assert.equal(t.core.models.textGenerator(), undefined);

  // Deleting the cache of a loaded model unloads it first.
  await model.modelSpecificModelLoad({ model: qwen!.id });
  const pid2 = t.core.models.runtimePid(qwen!.id)!;
  const cleared = await models.modelsDeleteSpecificModelCache({ model: qwen!.id, modelDeleteCacheInput: {} });
  assert.equal(cleared.model.id, qwen!.id);
  assert.equal(existsSync(join(t.dataDir, 'models', qwen!.id)), false);
  const after = await model.modelsSpecificModelSnapshot({ model: qwen!.id });
  assert.equal(after.downloaded, false);
  assert.equal(after.loaded, false);
  assert.equal(isAlive(pid2), false);
  assert.ok((await models.modelsSnapshot()).iterable.some((m) => m.id === qwen!.id), 'still listed');
  const progress = await request(t.url, 'GET', `/model/${qwen!.id}/download/progress`);
  assert.deepEqual(progress.json, { status: 'UNKNOWN', percentage: 0 });
});

test('the first download’s digest is kept: a changed file later fails and nothing is kept', async () => {
  // The previous test downloaded qwen once (its digest recorded) and cleared the cache.
  files.set(qwen!.file, tinyGguf({ seed: 2 }));
  try {
    const frames = await downloadAndWait(t, qwen!.id);
    assert.equal(frames.at(-1)!.status, 'FAILED');
    const after = await model.modelsSpecificModelSnapshot({ model: qwen!.id });
    assert.equal(after.downloaded, false);
    assert.deepEqual(readdirSync(join(t.dataDir, 'models', qwen!.id)), [], 'neither the file nor its .part is kept');
    const load = await request(t.url, 'POST', `/model/${qwen!.id}/load`);
    assert.equal(load.status, 409);
    assert.equal(errorCode(load), 'conflict');
  } finally {
    files.set(qwen!.file, gguf);
  }
  const frames = await downloadAndWait(t, qwen!.id);
  assert.equal(frames.at(-1)!.status, 'COMPLETED', 'the original file still matches');
});

test('a dropped connection resumes with Range, and a server ignoring Range restarts cleanly', async () => {
  const before = files.requestsFor(smol!.file).length;
  files.drops.push(200_000);
  assert.equal((await downloadAndWait(t, smol!.id)).at(-1)!.status, 'COMPLETED');
  const resumed = files.requestsFor(smol!.file).slice(before);
  assert.equal(resumed.length, 2);
  assert.equal(resumed[1]!.status, 206);
  assert.match(resumed[1]!.range ?? '', /^bytes=[1-9]\d*-$/);
  assert.equal(createHash('sha256').update(readFileSync(modelFile(t, smol!.id, smol!.file))).digest('hex'), digest);

  await models.modelsDeleteSpecificModelCache({ model: smol!.id });
  const start = files.requestsFor(smol!.file).length;
  files.drops.push(150_000);
  files.ignoreRange = true;
  try {
    assert.equal((await downloadAndWait(t, smol!.id)).at(-1)!.status, 'COMPLETED');
  } finally {
    files.ignoreRange = false;
  }
  const restarted = files.requestsFor(smol!.file).slice(start);
  assert.equal(restarted[1]!.status, 200);
  assert.ok(restarted[1]!.range, 'it asked for a range and got the whole file');
  assert.equal(createHash('sha256').update(readFileSync(modelFile(t, smol!.id, smol!.file))).digest('hex'), digest);
  await models.modelsDeleteSpecificModelCache({ model: smol!.id });
});

test('cancel stops the download and leaves the model not downloaded, with no partial file', async () => {
  files.rate = 100 * 1024;
  try {
    const stream = await openFrames<ModelDownloadProgress>(progressUrl(t, embedder!.id));
    await model.modelSpecificModelDownload({ model: embedder!.id });
    // A second request joins the running download instead of starting another.
    const joined = await model.modelSpecificModelDownload({ model: embedder!.id });
    assert.equal(joined.downloading, true);
    await stream.until((f) => f.status === 'IN-PROGRESS');
    const canceled = await model.modelSpecificModelDownloadCancel({ model: embedder!.id });
    assert.equal(canceled.downloading, false);
    assert.equal(canceled.downloaded, false);
    await stream.until((f) => f.status === 'CANCELED');
    stream.close();
    const dir = join(t.dataDir, 'models', embedder!.id);
    assert.deepEqual(existsSync(dir) ? readdirSync(dir) : [], []);
    const requests = files.requestsFor(embedder!.file);
    assert.equal(requests.length, 1, 'one download per model');
    const progress = await request(t.url, 'GET', `/model/${embedder!.id}/download/progress`);
    assert.deepEqual(progress.json, { status: 'CANCELED', percentage: 0 });
  } finally {
    files.rate = 0;
  }
});

test('a restart in the middle of a download shows a resumable state, then resumes from the kept bytes', async () => {
  const dataDir = tempDir();
  const options = { dataDir, models: { catalogBaseUrl: files.base, retryBackoffMs: 20, progressIntervalMs: 50 } };
  const first = await startTestServer(options);
  files.rate = 100 * 1024;
  const stream = await openFrames<ModelDownloadProgress>(progressUrl(first, smol!.id));
  await new ModelApi(first.sdk).modelSpecificModelDownload({ model: smol!.id });
  await stream.until((f) => f.status === 'IN-PROGRESS' && (f.percentage ?? 0) > 10);
  stream.close();
  await first.close();
  files.rate = 0;

  const second = await startTestServer(options);
  try {
    const api = new ModelApi(second.sdk);
    const state = await api.modelsSpecificModelSnapshot({ model: smol!.id });
    assert.equal(state.downloaded, false, 'never downloaded with a partial file');
    assert.equal(state.downloading, false);
    const progress = await request(second.url, 'GET', `/model/${smol!.id}/download/progress`);
    assert.equal(progress.json.status, 'RESET');
    assert.ok(progress.json.percentage > 10 && progress.json.percentage < 100, JSON.stringify(progress.json));
    const before = files.requestsFor(smol!.file).length;
    assert.equal((await downloadAndWait(second, smol!.id)).at(-1)!.status, 'COMPLETED');
    const resumed = files.requestsFor(smol!.file).slice(before);
    assert.equal(resumed[0]!.status, 206);
    assert.match(resumed[0]!.range ?? '', /^bytes=[1-9]\d*-$/);
    assert.equal(createHash('sha256').update(readFileSync(modelFile(second, smol!.id, smol!.file))).digest('hex'), digest);
    assert.equal((await api.modelsSpecificModelSnapshot({ model: smol!.id })).downloaded, true);
  } finally {
    await second.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a downloaded embedding model: downloaded on Satchel\'s routes, never on the Pieces paths, and refused as the model of a question', async () => {
  assert.equal((await downloadAndWait(t, embedder!.id)).at(-1)!.status, 'COMPLETED');
  const own = await request(t.url, 'GET', `/satchel/models/${embedder!.id}`);
  assert.equal(own.status, 200, own.text);
  assert.deepEqual({ usage: own.json.usage, downloaded: own.json.downloaded }, { usage: 'TEXT_EMBEDDING', downloaded: true });
  assert.equal((await request(t.url, 'GET', `/model/${embedder!.id}`)).json.downloaded, false);
  // Asking to download it again answers at once, still shown as not downloaded there.
  const again = await request(t.url, 'POST', `/model/${embedder!.id}/download`);
  assert.deepEqual({ downloaded: again.json.downloaded, downloading: again.json.downloading }, { downloaded: false, downloading: false });
  // What every Pieces client's picker keeps (cloud or downloaded) holds chat models only; Satchel's list keeps the truth.
  const pieces = (await request(t.url, 'GET', '/models')).json.iterable as Model[];
  const offered = pieces.filter((m) => m.cloud || m.downloaded);
  assert.ok(offered.length >= 4, offered.map((m) => m.name).join(', '));
  assert.deepEqual(offered.filter((m) => !canChat(m)).map((m) => m.name), []);
  const truth = (await request(t.url, 'GET', '/satchel/models')).json.iterable as Model[];
  assert.deepEqual(truth.map((m) => m.id), pieces.map((m) => m.id), 'the same models, in the same order');
  assert.ok(truth.some((m) => m.id === embedder!.id && m.downloaded));
  for (const m of truth) {
    const shown = pieces.find((p) => p.id === m.id)!;
    assert.equal(shown.downloaded, canChat(m) ? m.downloaded : false, m.name);
    assert.deepEqual({ usage: shown.usage, foundation: shown.foundation, capabilities: shown.capabilities }, { usage: m.usage, foundation: m.foundation, capabilities: m.capabilities }, m.name);
  }
  const refused = await request(t.url, 'POST', '/qgpt/question', { body: { query: 'hello?', relevant: { iterable: [] }, model: embedder!.id } });
  assert.equal(refused.status, 400, refused.text);
  assert.match(refused.json.error.message, /cannot answer questions \(its usage is TEXT_EMBEDDING\)/);
  assert.equal((await request(t.url, 'GET', '/satchel/models/nope')).status, 404);
  await models.modelsDeleteSpecificModelCache({ model: embedder!.id });
});
