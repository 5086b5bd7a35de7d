/**
 * What a neural model file (trainNeural.ts) would cost the host: the memory loading it adds, and
 * the time it takes a snippet (docs/languages.md, fifth pass):
 *
 *   node --expose-gc --experimental-strip-types test/bench/languages/neuralHeap.ts MODEL.bin SNIPPETS.json
 */
import { readFileSync, statSync } from 'node:fs';
import { readBenchSet } from './benchSet.ts';
import { NeuralModel } from './neuralModel.ts';

const [modelFile, snippetsFile] = process.argv.slice(2);
if (!modelFile || !snippetsFile) throw new Error('usage: neuralHeap.ts MODEL.bin SNIPPETS.json');
const texts = readBenchSet(snippetsFile).map((snippet) => snippet.text);

const collect = (): void => {
  const gc: unknown = Reflect.get(globalThis, 'gc');
  if (typeof gc === 'function') gc();
};
/** `external` counts array buffers too. */
const usage = (): { heap: number; buffers: number } => {
  collect();
  const { heapUsed, external } = process.memoryUsage();
  return { heap: heapUsed, buffers: external };
};
const before = usage();
const model = new NeuralModel(readFileSync(modelFile));
model.score(texts[0]!);
const after = usage();
const times = texts.map((text) => {
  const started = performance.now();
  model.score(text);
  return performance.now() - started;
}).sort((a, b) => a - b);
const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(2)} MiB`;
const at = (share: number): string => `${times[Math.min(times.length - 1, Math.floor(share * times.length))]!.toFixed(3)} ms`;
console.log(`file ${mib(statSync(modelFile).size)}; loaded: heap +${mib(after.heap - before.heap)}, buffers +${mib(after.buffers - before.buffers)}`);
console.log(`a snippet (${texts.length}): p50 ${at(0.5)}, p95 ${at(0.95)}, p99 ${at(0.99)}`);
