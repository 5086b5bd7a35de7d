// Satchel's own modules the extension's bundle loads on first use from a bundle of their own in dist/
// (docs/performance.md, activation): VS Code counts compiling and running the extension's bundle as
// Satchel's activation, and the command handlers, what agents run, Connect an Agent and Show History
// (a third of the code it compiled) run only when a command, a tool, `@satchel`, a connect or the history does.
//
// An on-demand bundle must not hold its own copy of a module the extension's bundle also holds: a copy
// has its own state and its own classes (`instanceof ClientError` would fail across the two). So each
// module both would hold (shared) is in the extension's bundle only, which keeps what the on-demand
// bundle imports of it in a table; the on-demand bundle requires it as `satchel-shared:<path>`, and
// scripts/onDemandSourceLoader.cjs answers those requires from the table. Modules only the on-demand
// bundle uses are in it alone. An on-demand module exports only functions: the extension's bundle
// holds, in its place, one function of each name that calls its namesake in the loaded bundle.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Source module → its bundle in dist/. */
export const onDemandSources = { 'src/extension/commands/all.ts': 'extensionCommands.cjs', 'src/extension/agents/agentHandlers.ts': 'agentHandlers.cjs', 'src/extension/agents/connectFlows.ts': 'agentConnect.cjs', 'src/extension/history/historyFlows.ts': 'historyFlows.cjs' };

export const SHARED_PREFIX = 'satchel-shared:';

const LOADER = fileURLToPath(new URL('./onDemandSourceLoader.cjs', import.meta.url));

const relative = (file) => path.relative(process.cwd(), file).split(path.sep).join('/');
const PROBE = { write: false, metafile: true };

/**
 * Builds each on-demand bundle; returns the plugin the extension's bundle takes them in with, and the
 * source files each holds (for out/bundles.json). `bundleOf` maps each on-demand source module (a path
 * relative to the working directory, as every path here is) to its bundle's name beside `main.outfile`.
 * `esbuild` is the package, `main` the extension bundle's options, `options(entry)` what any bundle is
 * built with (settings and the plugins every bundle has, added to the entry's own).
 */
export async function buildOnDemandSources(esbuild, main, options, bundleOf = onDemandSources) {
  const entryOf = (source) => ({ ...main, entryPoints: [source], outfile: path.join(path.dirname(main.outfile), bundleOf[source]) });
  // As ES modules, so the output names what each exports and what it imports from each shared module.
  const asModule = (entry, plugins) => options({ ...entry, ...PROBE, plugins: [...plugins, ...main.plugins], format: 'esm', minify: false, outfile: undefined, outdir: 'out/on-demand-probe' });
  const sources = Object.keys(bundleOf);

  // Each on-demand module on its own: its exports and the files it would hold.
  const alone = {};
  for (const source of sources) alone[source] = entryOutput(await esbuild.build(asModule(entryOf(source), [])));
  for (const source of sources) {
    const other = sources.find((name) => name !== source && alone[source].files.includes(name));
    if (other) throw new Error(`on-demand module ${source} imports ${other}, another one: it would hold a copy of it`);
  }
  // What the extension's bundle holds without them, by file (not the modules plugins make up: each
  // bundle has its own of those, and they hold no state).
  const stubs = (bundles) => onDemandStubs(Object.fromEntries(sources.map((source) => [source, { bundle: bundleOf[source], names: alone[source].exports, shared: {}, ...bundles[source] }])));
  const mainProbe = await esbuild.build(options({ ...main, ...PROBE, plugins: [stubs({}), ...main.plugins] }));
  // A file two on-demand bundles would hold goes to the extension's bundle too, to be held once.
  const held = new Map();
  for (const source of sources) for (const file of alone[source].files) held.set(file, (held.get(file) ?? 0) + 1);
  const inMain = new Set([...filesOf(mainProbe), ...[...held].filter(([, bundles]) => bundles > 1).map(([file]) => file)]);

  const bundles = {};
  for (const source of sources) {
    const shared = new Set(alone[source].files.filter((file) => inMain.has(file)));
    const linked = await esbuild.build(asModule(entryOf(source), [sharedFromMain(shared)]));
    const text = linked.outputFiles.find((file) => file.path.endsWith('.js')).text;
    const imported = importsFromShared(text);
    const missed = [...text.matchAll(new RegExp(`"${SHARED_PREFIX}([^"]+)"`, 'g'))].map((match) => match[1]).filter((file) => !imported[file]);
    if (missed.length > 0) throw new Error(`${source}: imports of ${missed.join(', ')} not read`);
    bundles[source] = { shared: imported };
    const built = await esbuild.build(options({ ...entryOf(source), metafile: true, plugins: [sharedFromMain(shared), ...main.plugins] }));
    bundles[source].files = filesOf(built);
  }
  return { plugin: stubs(bundles), files: Object.fromEntries(sources.map((source) => [bundleOf[source], bundles[source].files])) };
}

/** The source files a build's output holds code of. */
export function filesOf(result) {
  return Object.values(result.metafile.outputs)
    .flatMap((output) => Object.entries(output.inputs).filter(([file, input]) => input.bytesInOutput > 0 && existsSync(file)).map(([file]) => file))
    .sort();
}

function entryOutput(result) {
  const [output] = Object.values(result.metafile.outputs).filter((out) => out.entryPoint);
  for (const name of output.exports) if (!/^[A-Za-z_$][\w$]*$/.test(name) || name === 'default') throw new Error(`on-demand module ${output.entryPoint}: export ${name} is not a plain function name`);
  return { exports: output.exports.slice().sort(), files: filesOf(result) };
}

/**
 * Shared module → the names an on-demand bundle imports from it (`*` for the whole module), read from
 * esbuild's ES module output, where each external module is one import statement.
 */
export function importsFromShared(text) {
  const byFile = {};
  const statement = new RegExp(`^import\\s+([^"';]*?)\\s*from\\s*"${SHARED_PREFIX}([^"]+)"`, 'gm');
  for (const [, file] of text.matchAll(new RegExp(`^import\\s*"${SHARED_PREFIX}([^"]+)"`, 'gm'))) byFile[file] ??= new Set();
  for (const [, clause, file] of text.matchAll(statement)) {
    const names = (byFile[file] ??= new Set());
    const braces = /\{([^}]*)\}/.exec(clause);
    const outside = clause.replace(/\{[^}]*\}/, '').split(',').map((part) => part.trim()).filter(Boolean);
    for (const part of outside) names.add(part.startsWith('*') ? '*' : 'default');
    for (const specifier of braces?.[1].split(',') ?? []) {
      const name = specifier.trim().split(/\s+as\s+/)[0];
      if (name) names.add(name);
    }
  }
  return Object.fromEntries(Object.entries(byFile).map(([file, names]) => [file, [...names].sort()]));
}

/** The on-demand bundle's plugin: each shared module required by name from the extension's bundle. */
function sharedFromMain(shared) {
  return {
    name: 'shared-from-main',
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData?.sharedProbe || args.kind === 'entry-point') return undefined;
        const resolved = await build.resolve(args.path, { kind: args.kind, importer: args.importer, namespace: args.namespace, resolveDir: args.resolveDir, pluginData: { sharedProbe: true } });
        if (resolved.errors.length > 0 || resolved.external || resolved.namespace !== 'file') return undefined;
        const file = relative(resolved.path);
        return shared.has(file) ? { path: SHARED_PREFIX + file, external: true } : undefined;
      });
    },
  };
}

/**
 * The extension bundle's plugin: each on-demand source module resolved to functions that load its
 * bundle, once, when one is first called. It holds the shared modules' table.
 */
function onDemandStubs(bundles) {
  const sources = new Map(Object.keys(bundles).map((source) => [path.resolve(source), source]));
  return {
    name: 'on-demand-sources',
    setup(build) {
      build.onResolve({ filter: /^\.{1,2}\// }, (args) => {
        const source = sources.get(path.resolve(args.resolveDir, args.path));
        return source === undefined || args.namespace === 'on-demand-source' ? undefined : { path: source, namespace: 'on-demand-source' };
      });
      build.onLoad({ filter: /.*/, namespace: 'on-demand-source' }, (args) => ({
        contents: stubSource(bundles[args.path]),
        loader: 'js',
        resolveDir: process.cwd(),
      }));
    },
  };
}

/**
 * An ES module, so the shared modules stay where esbuild hoists them (a module a `require()` reaches is
 * wrapped to run on first require, and so is every module it imports), importing only what the bundle
 * uses of each, so the rest is still left out where unused. Each entry of the table reads its binding
 * when read, as an import would.
 */
function stubSource({ bundle, names, shared }) {
  const imports = [];
  const table = Object.entries(shared).map(([file, used], index) => {
    const local = `shared${index}`;
    if (used.includes('*')) {
      imports.push(`import * as ${local} from ${JSON.stringify('./' + file)};`);
      return `  ${JSON.stringify(file)}: ${local},`;
    }
    imports.push(`import { ${used.map((name) => `${name} as ${local}_${name}`).join(', ')} } from ${JSON.stringify('./' + file)};`);
    return `  ${JSON.stringify(file)}: { ${used.map((name) => `get ${name}() { return ${local}_${name}; }`).join(', ')} },`;
  });
  return [
    ...imports,
    'const shared = {',
    ...table,
    '};',
    'let loaded;',
    `const load = () => (loaded ??= require(${JSON.stringify(LOADER)}).loadBundle(require('node:path').join(__dirname, ${JSON.stringify(bundle)}), ${JSON.stringify(SHARED_PREFIX)}, shared, ${JSON.stringify(names)}));`,
    ...names.map((name) => `export function ${name}(...args) { return load().${name}(...args); }`),
  ].join('\n');
}
