/**
 * The worker thread that holds the guesslang model. Protocol: it posts `{ ready: true }` once the
 * model is loaded (or `{ failed }` and exits), then answers each `{ id, text }` with `{ id, guess }`
 * (guesslang's answers combined with the token model's, decision.ts) or `{ id, error }`.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import languageDetection from '@vscode/vscode-languagedetection';
import { chooseLanguage, wantsModel } from './decision.ts';
import type { WorkerReply, WorkerRequest, WorkerSetup } from './workerProtocol.ts';

const port = parentPort;
if (port === null) throw new Error('classifyWorker must run in a worker thread');
const setup = workerData as WorkerSetup;

async function loadJson(): Promise<{ [key: string]: unknown }> {
  return JSON.parse(await readFile(path.join(setup.modelDir, 'model.json'), 'utf8')) as { [key: string]: unknown };
}

/** The model's weights, concatenated in the order model.json lists its shards. */
async function loadWeights(): Promise<ArrayBuffer> {
  const manifest = (await loadJson()) as { weightsManifest?: { paths: string[] }[] };
  const shardPaths = (manifest.weightsManifest ?? []).flatMap((group) => group.paths);
  const shards = await Promise.all(shardPaths.map((shard) => readFile(path.join(setup.modelDir, shard))));
  const whole = Buffer.concat(shards);
  return whole.buffer.slice(whole.byteOffset, whole.byteOffset + whole.byteLength) as ArrayBuffer;
}

const model = new languageDetection.ModelOperations({ modelJsonLoaderFunc: loadJson, weightsLoaderFunc: loadWeights });

function reply(message: WorkerReply): void {
  port!.postMessage(message);
}

async function main(): Promise<void> {
  try {
    // The package loads its model on the first run; do it now so `ready` means loaded.
    await model.runModel('function warmUp(value) { return value * 2; }');
  } catch (error) {
    reply({ failed: String(error) });
    process.exit(1);
  }
  port!.on('message', (request: WorkerRequest) => {
    const guesses = wantsModel(request.text) ? model.runModel(request.text) : Promise.resolve([]);
    guesses.then(
      (results) => reply({ id: request.id, guess: chooseLanguage(request.text, results) }),
      (error: unknown) => reply({ id: request.id, error: String(error) }),
    );
  });
  reply({ ready: true });
}

// No top-level await: the bundled worker is CommonJS.
void main();
