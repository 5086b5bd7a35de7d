/**
 * Where the worker script, the guesslang model files and the token model are, in each of the three
 * ways Satchel runs: TypeScript sources (tests), the esbuild bundles in dist/, and a packaged VSIX
 * that ships only dist/ (esbuild.mjs copies the models next to the bundles).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface ClassifierFiles {
  readonly worker: URL;
  /** Holds model.json and the weight shard(s) it lists. */
  readonly modelDir: string;
}

/** The bundle's copy of the model, relative to dist/ (kept in step with esbuild.mjs). */
export const bundledModelDir = 'guesslang';
export const bundledWorker = 'classifyWorker.cjs';
/** The token model (decision.ts), beside the bundles: read from its file when first used, not part of any bundle. */
export const tokenModelName = 'tokenModel.json';

/**
 * The token model's file. Kept out of the bundles: inlined, its 4.6 MB of text stayed in every
 * host's heap twice over (the bundle's source and the literal's strings) whether a snippet was ever
 * classified or not.
 */
export function tokenModelFile(): string {
  return typeof __dirname === 'string' ? path.join(__dirname, tokenModelName) : fileURLToPath(new URL(`./${tokenModelName}`, import.meta.url));
}

export function classifierFiles(): ClassifierFiles {
  // A CommonJS bundle has __dirname and no import.meta; the ES module sources have the reverse.
  if (typeof __dirname === 'string') {
    const bundled = path.join(__dirname, bundledModelDir);
    return {
      worker: pathToFileURL(path.join(__dirname, bundledWorker)),
      modelDir: existsSync(path.join(bundled, 'model.json')) ? bundled : packageModelDir(createRequire(__filename)),
    };
  }
  return {
    worker: new URL('./classifyWorker.ts', import.meta.url),
    modelDir: packageModelDir(createRequire(import.meta.url)),
  };
}

function packageModelDir(require: NodeJS.Require): string {
  return path.join(path.dirname(require.resolve('@vscode/vscode-languagedetection/package.json')), 'model');
}
