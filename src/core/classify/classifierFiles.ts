/**
 * Where the worker script and the guesslang model files are, in each of the three ways Satchel
 * runs: TypeScript sources (tests), the esbuild bundles in dist/, and a packaged VSIX that ships
 * only dist/ (esbuild.mjs copies the model next to the bundles).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export interface ClassifierFiles {
  readonly worker: URL;
  /** Holds model.json and the weight shard(s) it lists. */
  readonly modelDir: string;
}

/** The bundle's copy of the model, relative to dist/ (kept in step with esbuild.mjs). */
export const bundledModelDir = 'guesslang';
export const bundledWorker = 'classifyWorker.cjs';

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
