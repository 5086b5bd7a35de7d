/**
 * ModelService without HTTP: one text and one embedding model at a time, a runtime crash, idle
 * unload, generation time limits, the memory check and the state left by a crash mid-download.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { Satchel } from '../../../src/core/satchel.ts';
import type { CatalogEntry } from '../../../src/core/models/catalog.ts';
import { ModelStore } from '../../../src/core/models/modelStore.ts';
import { ModelService } from '../../../src/core/models/modelService.ts';
import { InsufficientResourcesError, UnavailableError } from '../../../src/core/errors.ts';
import { FileServer } from '../../support/fileServer.ts';
import { tinyGguf } from '../../support/gguf.ts';
import { servedEntry } from '../../support/catalogEntry.ts';
import { tempDir } from '../../support/helpers.ts';
import { isAlive as alive } from '../../support/processes.ts';

let files: FileServer;
const opened: Array<{ core: Satchel; dir: string }> = [];

const entry = (id: string, file: string, usage: CatalogEntry['usage']): CatalogEntry => servedEntry(files, id, file, usage);

before(async () => {
  files = await FileServer.start();
  files.set('a.gguf', tinyGguf({ seed: 11 }));
  files.set('b.gguf', tinyGguf({ seed: 12 }));
  files.set('e.gguf', tinyGguf({ seed: 13 }));
});
after(async () => {
  for (const { core, dir } of opened) {
    await core.close();
    rmSync(dir, { recursive: true, force: true });
  }
  await files.close();
});

function open(settings: { idleUnloadMs?: number } = {}): Satchel {
  const dir = tempDir();
  const catalog = [entry('text-a', 'a.gguf', 'CODE_CONVERSATION'), entry('text-b', 'b.gguf', 'CODE_CONVERSATION'), entry('embed-e', 'e.gguf', 'TEXT_EMBEDDING')];
  const core = Satchel.open({ dataDir: dir, models: { catalog, retryBackoffMs: 20, idleUnloadMs: 0, ...settings } });
  opened.push({ core, dir });
  return core;
}

async function downloaded(models: ModelService, id: string): Promise<void> {
  let listener: { dispose(): void } | undefined;
  const done = new Promise<void>((resolve, reject) => {
    listener = models.onDidChangeDownload((event) => {
      if (event.id !== id) return;
      if (event.progress.status === 'COMPLETED') resolve();
      if (event.progress.status === 'FAILED') reject(new Error(`download of ${id} failed`));
    });
  });
  try {
    await models.download(id);
    await done;
  } finally {
    listener?.dispose();
  }
  assert.equal(models.get(id).downloaded, true);
}

async function eventually(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

test('one text and one embedding model at a time; a crashed runtime only unloads its model', async () => {
  const { models } = open();
  await Promise.all(['text-a', 'text-b', 'embed-e'].map((id) => downloaded(models, id)));
  await Promise.all([models.load('text-a'), models.load('embed-e')]);
  const pidA = models.runtimePid('text-a');
  const pidE = models.runtimePid('embed-e');
  assert.ok(alive(pidA) && alive(pidE) && pidA !== pidE, 'two runtimes, one per role');

  const b = await models.load('text-b');
  assert.equal(b.loaded, true);
  assert.equal(models.get('text-a').loaded, false, 'loading another text model replaces the first');
  assert.equal(alive(pidA), false);
  assert.equal(models.get('embed-e').loaded, true, 'the embedding model is untouched');

  // Generation has a time limit; a timed-out request does not break the runtime.
  const generator = models.textGenerator()!;
  await assert.rejects(generator.generate('Write a long story about code.', { maxTokens: 500, timeoutMs: 1 }), UnavailableError);
  const reply = await generator.generate('Is this a bug fix: fix the null check', {
    maxTokens: 30,
    timeoutMs: 30_000,
    jsonSchema: { type: 'object', properties: { fix: { type: 'boolean' } }, required: ['fix'] },
  });
  assert.equal(typeof (JSON.parse(reply) as { fix: unknown }).fix, 'boolean');

  const pidB = models.runtimePid('text-b')!;
  process.kill(pidB, 'SIGKILL');
  await eventually(() => !models.get('text-b').loaded, 'the crashed model to show unloaded');
  assert.equal(models.textGenerator(), undefined, 'conversations fall back once the runtime is gone');
  assert.equal(models.get('embed-e').loaded, true);

  await models.unloadAll();
  assert.equal(models.get('embed-e').loaded, false);
  await eventually(() => !alive(pidE), 'the embedding runtime to end');
});

test('an idle text model unloads by itself after idleUnloadMs; an embedding model (search uses it) stays', async () => {
  const { models } = open({ idleUnloadMs: 400 });
  await downloaded(models, 'text-a');
  await downloaded(models, 'embed-e');
  // The embedding first: loaded together, the text model's 400 ms of idleness could pass (a busy
  // machine) before the embedding's load returned, and its process be gone before it was looked at.
  await models.load('embed-e');
  await models.load('text-a');
  const pid = models.runtimePid('text-a');
  assert.ok(pid !== undefined, 'the text model runs in a process of its own');
  await eventually(() => !models.get('text-a').loaded, 'the idle unload');
  await eventually(() => !alive(pid), 'the runtime to end');
  await new Promise((resolve) => setTimeout(resolve, 500));
  assert.equal(models.get('embed-e').loaded, true);
});

test('a model needing more memory than is free is refused before any process starts', async () => {
  const { models } = open();
  const huge = models.create({
    version: '1',
    created: { value: new Date().toISOString() },
    name: 'Needs a lot',
    cloud: false,
    type: 'ACCURACY',
    usage: 'CODE_CONVERSATION',
    unique: files.url('a.gguf'),
    ram: { value: 2 ** 52, readable: '4.5 PB' },
  });
  await downloaded(models, huge.id);
  await assert.rejects(models.load(huge.id), InsufficientResourcesError);
  assert.equal(models.get(huge.id).loaded, false);
  assert.equal(models.runtimePid(huge.id), undefined);
});

test('after a crash mid-download the model is resumable, never downloaded', async () => {
  const core = open();
  const store = new ModelStore(core.context.database);
  store.put({ id: 'text-a', custom: false, state: 'downloading', file: 'a.gguf', bytes: 1000 });
  const restarted = new ModelService(core.context, core.dataDir, core.classifier, { catalog: [entry('text-a', 'a.gguf', 'CODE_CONVERSATION')] });
  const model = restarted.get('text-a');
  assert.equal(model.downloaded, false);
  assert.equal(model.downloading, false);
  assert.equal(restarted.downloadProgress('text-a').status, 'RESET');
  assert.equal(store.get('text-a')!.state, 'interrupted');
  // Canceling an interrupted download drops what it kept.
  const canceled = await restarted.cancelDownload('text-a');
  assert.equal(canceled.downloaded, false);
  assert.equal(restarted.downloadProgress('text-a').status, 'CANCELED');
  await restarted.close();
});
