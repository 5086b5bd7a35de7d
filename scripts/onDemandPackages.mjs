// The packages the extension's bundle requires on first use from their own bundles in dist/ (esbuild.mjs,
// docs/performance.md, activation): the config-file parsers, 190 kB of the 540 kB bundle that VS Code
// compiled and ran at every activation, read only when an agent's config is connected or inspected and
// when a file is imported. ws too (49 kB): the client's sockets load it when the first one opens
// (src/client/webSocket.ts). The data host and CLI keep them bundled. As with zod (scripts/zodOnDemand.cjs),
// the sources import the package as usual and are type-checked against it; only the extension's bundle
// takes, in its place, a module whose exports are getters that require the package's bundle the first
// time one is read.
import { createRequire } from 'node:module';
import path from 'node:path';

/** Package → its bundle in dist/. */
export const onDemandPackages = { yaml: 'yaml.cjs', 'js-yaml': 'jsYaml.cjs', 'jsonc-parser': 'jsoncParser.cjs', 'smol-toml': 'smolToml.cjs', ws: 'ws.cjs' };

/** The esbuild entry of each package's own bundle: everything it exports, nothing else. */
export function onDemandEntries() {
  return Object.entries(onDemandPackages).map(([name, file]) => ({
    stdin: { contents: `export * from '${name}';`, resolveDir: '.', loader: 'js' },
    outfile: path.join('dist', file),
  }));
}

/**
 * The module the extension's bundle holds in place of a package: one getter per export of the
 * package's bundle (`names`, read from the built bundle, so the two cannot differ), each requiring
 * that bundle, once, from beside the extension's bundle.
 */
export function onDemandSource(file, names) {
  return [
    "'use strict';",
    'let loaded;',
    `const load = () => (loaded ??= require(require('node:path').join(__dirname, ${JSON.stringify(file)})));`,
    `for (const name of ${JSON.stringify(names)}) Object.defineProperty(exports, name, { enumerable: true, get: () => load()[name] });`,
  ].join('\n');
}

/** The export names of each package's built bundle (call after building them). */
export function onDemandExports(dist) {
  const require = createRequire(import.meta.url);
  return Object.fromEntries(
    Object.entries(onDemandPackages).map(([name, file]) => {
      const bundle = path.resolve(dist, file);
      delete require.cache[bundle];
      return [name, Object.keys(require(bundle)).sort()];
    }),
  );
}

/** The extension bundle's plugin: each on-demand package, and its alias (scripts/bundleAliases.mjs), resolved to its on-demand module. */
export function onDemandPlugin(exportsByPackage, aliases) {
  const byPath = new Map(Object.keys(onDemandPackages).map((name) => [name, name]));
  for (const [name, target] of Object.entries(aliases)) if (byPath.has(name)) byPath.set(target, name);
  return {
    name: 'on-demand-packages',
    setup(build) {
      build.onResolve({ filter: /^[@a-z]/ }, (args) => {
        const name = byPath.get(args.path);
        return name === undefined || args.namespace === 'on-demand' ? undefined : { path: name, namespace: 'on-demand' };
      });
      build.onLoad({ filter: /.*/, namespace: 'on-demand' }, (args) => ({
        contents: onDemandSource(onDemandPackages[args.path], exportsByPackage[args.path]),
        loader: 'js',
      }));
    },
  };
}
