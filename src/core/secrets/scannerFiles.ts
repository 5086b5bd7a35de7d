/**
 * Where the scan worker is, in each of the ways Satchel runs: TypeScript sources (tests) and the
 * esbuild bundles in dist/ (a VSIX ships only dist/; esbuild.mjs builds the worker beside them).
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const bundledScanWorker = 'secretsWorker.cjs';

export function scanWorkerFile(): URL {
  // A CommonJS bundle has __dirname and no import.meta; the ES module sources have the reverse.
  if (typeof __dirname === 'string') return pathToFileURL(path.join(__dirname, bundledScanWorker));
  return new URL('./scanWorker.ts', import.meta.url);
}
