/** Embedding models told apart from text models by their GGUF metadata (imports without a usage). */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { detectUsage } from '../../../src/core/models/ggufUsage.ts';
import { tinyGguf } from '../../support/gguf.ts';
import { tempDir } from '../../support/helpers.ts';

const dir = tempDir('satchel-gguf-');
after(() => rmSync(dir, { recursive: true, force: true }));

const u32 = (n: number) => Buffer.from(new Uint32Array([n]).buffer);
const u64 = (n: number) => Buffer.from(new BigUint64Array([BigInt(n)]).buffer);
const str = (s: string) => Buffer.concat([u64(Buffer.byteLength(s)), Buffer.from(s)]);

/** A GGUF header with the given key-value pairs (already encoded as type + value) and no tensors. */
function header(pairs: Array<[string, Buffer]>): Buffer {
  return Buffer.concat([Buffer.from('GGUF'), u32(3), u64(0), u64(pairs.length), ...pairs.map(([key, value]) => Buffer.concat([str(key), value]))]);
}
const stringValue = (s: string) => Buffer.concat([u32(8), str(s)]);
const u32Value = (n: number) => Buffer.concat([u32(4), u32(n)]);
const stringArray = (items: string[]) => Buffer.concat([u32(9), u32(8), u64(items.length), ...items.map(str)]);
const f32Array = (count: number) => Buffer.concat([u32(9), u32(6), u64(count), Buffer.alloc(4 * count)]);

function file(name: string, bytes: Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

test('encoder architectures and pooled models are embedding models; llama text models are not', async () => {
  const vocabulary = Array.from({ length: 40_000 }, (_, i) => `token${i}`);
  assert.equal(await detectUsage(file('bert.gguf', header([['tokenizer.ggml.tokens', stringArray(vocabulary)], ['general.architecture', stringValue('bert')]]))), 'TEXT_EMBEDDING');
  assert.equal(
    await detectUsage(file('qwen3-embed.gguf', header([['general.architecture', stringValue('qwen3')], ['tokenizer.ggml.scores', f32Array(300_000)], ['qwen3.pooling_type', u32Value(3)]]))),
    'TEXT_EMBEDDING',
  );
  assert.equal(await detectUsage(file('tiny-llama.gguf', tinyGguf({ seed: 3 }))), undefined);
});

test('files that are not GGUF, cut short or lying about their lengths are left undecided', async () => {
  const bert = header([['general.architecture', stringValue('bert')]]);
  assert.equal(await detectUsage(file('cut.gguf', bert.subarray(0, bert.length - 3))), undefined);
  assert.equal(await detectUsage(file('text.gguf', Buffer.from('not a model at all'))), undefined);
  const lying = Buffer.concat([Buffer.from('GGUF'), u32(3), u64(0), u64(1), u64(2 ** 40), Buffer.from('x')]);
  assert.equal(await detectUsage(file('lying.gguf', lying)), undefined);
  assert.equal(await detectUsage(join(dir, 'missing.gguf')), undefined);
});
