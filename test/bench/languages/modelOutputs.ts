/**
 * Runs the guesslang model alone on a benchmark set and keeps its ten best answers for each
 * snippet, so the decision between the model and the token model can be tuned without rerunning
 * it (tune.ts). Prints the model's own accuracy and time a snippet.
 *
 *   node --experimental-strip-types test/bench/languages/modelOutputs.ts SET.json OUT.json
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import languageDetection from '@vscode/vscode-languagedetection';
import { classifierFiles } from '../../../src/core/classify/classifierFiles.ts';
import { wantsModel, type ModelGuess } from '../../../src/core/classify/decision.ts';
import { specificFromGuesslang } from '../../../src/core/classify/languages.ts';
import { readBenchSet } from './benchSet.ts';

const modelDir = classifierFiles().modelDir;
const loadJson = async (): Promise<{ [key: string]: unknown }> => JSON.parse(await readFile(path.join(modelDir, 'model.json'), 'utf8')) as { [key: string]: unknown };
async function loadWeights(): Promise<ArrayBuffer> {
  const manifest = (await loadJson()) as { weightsManifest?: { paths: string[] }[] };
  const shards = await Promise.all((manifest.weightsManifest ?? []).flatMap((group) => group.paths).map((shard) => readFile(path.join(modelDir, shard))));
  const whole = Buffer.concat(shards);
  return whole.buffer.slice(whole.byteOffset, whole.byteOffset + whole.byteLength) as ArrayBuffer;
}

const [input, output] = process.argv.slice(2);
if (!input || !output) throw new Error('usage: modelOutputs.ts SET.json OUT.json');
const snippets = readBenchSet(input);
const model = new languageDetection.ModelOperations({ modelJsonLoaderFunc: loadJson, weightsLoaderFunc: loadWeights });
await model.runModel('function warmUp(value) { return value * 2; }');
const outputs: ModelGuess[][] = [];
let right = 0;
let elapsed = 0;
for (const snippet of snippets) {
  const started = performance.now();
  const guesses = wantsModel(snippet.text) ? await model.runModel(snippet.text) : [];
  elapsed += performance.now() - started;
  outputs.push(guesses.slice(0, 10).map((guess) => ({ languageId: guess.languageId, confidence: Number(guess.confidence.toFixed(5)) })));
  if (guesses[0] !== undefined && specificFromGuesslang(guesses[0].languageId) === snippet.language) right++;
}
await writeFile(output, JSON.stringify(outputs));
console.log(`guesslang alone: ${((100 * right) / snippets.length).toFixed(1)}% of ${snippets.length}; ${(elapsed / snippets.length).toFixed(2)} ms a snippet`);
