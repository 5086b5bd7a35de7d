/**
 * What loading Satchel costs the extension host (docs/performance.md, activation): the extension's
 * bundle carries neither zod nor undici, and requiring and activating it, as VS Code does, builds no
 * schema, so zod's own bundle (dist/zod.cjs) stays unloaded; that bundle is required only when a
 * schema is first built. ws (with the zlib and TLS it requires) is loaded when the first socket
 * opens, after activation, from its own bundle (dist/ws.cjs), as are the config-file parsers (yaml,
 * js-yaml, jsonc-parser, smol-toml): each required on first use (scripts/onDemandPackages.mjs). Needs the bundles: npm test
 * runs `npm run package` first.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onDemandPackages, onDemandSource } from '../../scripts/onDemandPackages.mjs';
import { onDemandSources, SHARED_PREFIX } from '../../scripts/onDemandSources.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dist = join(root, 'dist');

// Activates the required bundle as VS Code does, with the manifest beside its dist/ (a probe's line).
const ACTIVATE =
  "extension.activate({ subscriptions: [], extensionPath: path.resolve(path.dirname(bundle), '..'), extension: { packageJSON: require(path.resolve(path.dirname(bundle), '..', 'package.json')), extensionKind: 1 } });";

// Requires and activates the bundle with `vscode` stubbed, then, in the same turn (before the data
// host's discovery starts), lists what of dist/ is loaded.
const child = `
const path = require('node:path');
const [stub, bundle, dataDir] = process.argv.slice(1);
require(stub).installVscode({ dataDirectory: dataDir });
const extension = require(bundle);
${ACTIVATE}
console.log(JSON.stringify(Object.keys(require.cache).filter((file) => path.dirname(file) === path.dirname(bundle)).map((file) => path.basename(file)).sort()));
process.exit(0);
`;

/** Runs `script` (the child above, or a probe made from it) on the built extension; its output lines. */
function activateInChild(script: string): string[] {
  const scratch = mkdtempSync(join(tmpdir(), 'satchel-activation-'));
  try {
    const result = spawnSync(process.execPath, ['-e', script, join(root, 'test', 'support', 'vscodeStub.cjs'), join(dist, 'extension.cjs'), scratch], {
      encoding: 'utf8',
      env: { ...process.env, XDG_CACHE_HOME: scratch },
    });
    assert.equal(result.status, 0, result.stderr);
    return result.stdout.trim().split('\n');
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

test("the extension's bundle holds neither zod nor undici", () => {
  const bundle = join(dist, 'extensionMain.cjs');
  assert.ok(existsSync(bundle), `${bundle} is missing: run npm run package`);
  const source = readFileSync(bundle, 'utf8');
  // undici's base error's name and zod's base type name, which no other code spells (the client
  // names undici's error codes where it reads them).
  assert.doesNotMatch(source, /UndiciError/, 'undici is bundled');
  assert.doesNotMatch(source, /\$ZodType/, 'zod is bundled');
  assert.match(readFileSync(join(dist, 'zod.cjs'), 'utf8'), /\$ZodType/);
});

test('requiring and activating the extension loads no zod: no schema is built', () => {
  assert.deepEqual(JSON.parse(activateInChild(child).at(-1)!), ['extension.cjs']);
});

test('requiring and activating the extension loads no ws: neither zlib nor tls, which only it requires, is loaded', () => {
  const probe = child.replace('console.log(', 'const builtins = process.moduleLoadList.filter((name) => /^NativeModule (zlib|tls|https)$/.test(name));\nconsole.log(JSON.stringify(builtins));\nconsole.log(');
  assert.deepEqual(JSON.parse(activateInChild(probe).at(-2)!), []);
});

test("activation measures its own share on the thread's clocks: loading the bundle and activate(), not the wait between them", () => {
  // VS Code awaits the extension's context between requiring the bundle and calling activate(), and runs
  // other extensions then: a 60 ms pause there is none of Satchel's.
  const probe = child
    .replace('const extension = require(bundle);', 'const before = performance.now();\nconst extension = require(bundle);\nAtomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60);')
    .replace(ACTIVATE, `const api = ${ACTIVATE.replace(/;$/, '')};\nconsole.log(JSON.stringify({ ...api.activation, totalMs: performance.now() - before }));`);
  const lines = activateInChild(probe);
  const figures = JSON.parse(lines.at(-2)!) as {
    activateMs: number;
    compileMs: number;
    runMs: number;
    totalMs: number;
    own: { wallMs: number; cpuMs: number; waitedMs?: number };
    steps: Record<string, number>;
    stepsOnCore: Record<string, number>;
  };
  const { own } = figures;
  assert.ok(own.wallMs >= figures.activateMs + figures.compileMs + figures.runMs - 0.5, JSON.stringify(figures));
  assert.ok(own.wallMs <= figures.totalMs - 59, `the pause between require and activate() is counted: ${JSON.stringify(figures)}`);
  // The thread's CPU clock and the monotonic wall clock are read from different kernel sources; on a virtual
  // machine the first can run a little ahead of the second (43.8 ms on a core over 42.4 ms wall in one CI run).
  // That it is this thread's CPU and not the process's is threadClock.test.ts's to show.
  assert.ok(own.cpuMs > 0 && own.cpuMs <= own.wallMs * 1.1 + 2, JSON.stringify(figures));
  if (process.platform === 'linux') assert.equal(typeof own.waitedMs, 'number');
  // activate()'s parts on the CPU clock too, none longer than the whole.
  assert.deepEqual(Object.keys(figures.stepsOnCore), Object.keys(figures.steps));
  assert.ok(Object.values(figures.stepsOnCore).reduce((sum, ms) => sum + ms, 0) <= own.cpuMs + 1, JSON.stringify(figures));
});

test("the extension's zod is its own bundle, required when a schema is first built", () => {
  // The on-demand module beside dist/zod.cjs, as esbuild puts both in the extension's dist/.
  const scratch = mkdtempSync(join(tmpdir(), 'satchel-zod-'));
  try {
    copyFileSync(join(root, 'scripts', 'zodOnDemand.cjs'), join(scratch, 'onDemand.cjs'));
    copyFileSync(join(dist, 'zod.cjs'), join(scratch, 'zod.cjs'));
    const probe = `
const onDemand = require(process.argv[1] + '/onDemand.cjs');
const loaded = () => Object.keys(require.cache).some((file) => file.endsWith('zod.cjs'));
const before = loaded();
const parsed = onDemand.z.object({ a: onDemand.z.string() }).safeParse({ a: 1 }).success;
console.log(JSON.stringify({ before, after: loaded(), parsed }));
`;
    const result = spawnSync(process.execPath, ['-e', probe, scratch], { encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout.trim()), { before: false, after: true, parsed: false });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});

/**
 * Whether the code around each marker (a string the bundle spells once) ran while the bundle was
 * required and activated, from V8's precise coverage: it ran if a function holding it was called, or if
 * no function but the bundle's top level holds it (code that runs as the bundle loads). Not a timing:
 * which code runs at activation is the same on any machine.
 */
function ranAtActivation(markers: readonly string[]): Record<string, boolean> {
  const probe = `
const path = require('node:path');
const { readFileSync } = require('node:fs');
const { wrap, wrapper } = require('node:module');
const { Session } = require('node:inspector');
const [stub, bundle, dataDir, markers] = process.argv.slice(1);
require(stub).installVscode({ dataDirectory: dataDir });
const session = new Session();
session.connect();
let coverage;
session.post('Profiler.enable');
session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
const extension = require(bundle);
${ACTIVATE}
session.post('Profiler.takePreciseCoverage', (error, result) => { if (error) throw error; coverage = result.result; });
const main = path.join(path.dirname(bundle), 'extensionMain.cjs');
// The loader compiles the bundle wrapped as a CommonJS module: offsets are in that text.
const text = wrap(readFileSync(main, 'utf8'));
const functions = coverage.find((script) => script.url.endsWith('extensionMain.cjs')).functions.map((fn) => fn.ranges[0]);
const ran = {};
for (const marker of JSON.parse(markers)) {
  const at = text.indexOf(marker);
  if (at === -1 || text.indexOf(marker, at + 1) !== -1) throw new Error('not spelled once in the bundle: ' + marker);
  // Not the script nor the module wrapper: the bundle's top level.
  const holding = functions.filter((range) => range.startOffset >= wrapper[0].length && range.startOffset <= at && at < range.endOffset);
  ran[marker] = holding.length === 0 || holding.some((range) => range.count > 0);
}
console.log(JSON.stringify(ran));
process.exit(0);
`;
  const scratch = mkdtempSync(join(tmpdir(), 'satchel-coverage-'));
  try {
    const result = spawnSync(process.execPath, ['-e', probe, join(root, 'test', 'support', 'vscodeStub.cjs'), join(dist, 'extension.cjs'), scratch, JSON.stringify(markers)], {
      encoding: 'utf8',
      env: { ...process.env, XDG_CACHE_HOME: scratch },
    });
    assert.equal(result.status, 0, result.stderr);
    return JSON.parse(result.stdout.trim().split('\n').at(-1)!) as Record<string, boolean>;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

test("the command handlers are a bundle of their own, and no on-demand bundle holds a copy of a module another bundle holds", () => {
  // One message of each of two command modules (agentChangeCommands.ts, assetCommands.ts).
  const markers = ['Pick a change under Agent changes in the Assets view.', 'Open an editor to insert the asset into.'];
  const main = readFileSync(join(dist, 'extensionMain.cjs'), 'utf8');
  const commands = readFileSync(join(dist, onDemandSources['src/extension/commands/all.ts']), 'utf8');
  for (const marker of markers) {
    assert.ok(!main.includes(marker), `extensionMain.cjs holds "${marker}"`);
    assert.ok(commands.includes(marker), `extensionCommands.cjs lacks "${marker}"`);
  }
  // Every source file is in one bundle only: a copy would have its own state and classes (`instanceof
  // ClientError` in trashCommands.ts would never hold for the client's errors). The command bundle
  // requires the client's errors from the extension's bundle.
  const files = JSON.parse(readFileSync(join(root, 'out', 'bundles.json'), 'utf8')) as Record<string, string[]>;
  const inMain = new Set(files['extensionMain.cjs']);
  assert.ok(inMain.has('src/client/errors.ts') && files['extensionCommands.cjs']!.includes('src/extension/commands/trashCommands.ts'));
  assert.ok(commands.includes(JSON.stringify(`${SHARED_PREFIX}src/client/errors.ts`)));
  const onDemand = Object.values(onDemandSources);
  assert.deepEqual(Object.keys(files).sort(), ['extensionMain.cjs', ...onDemand].sort());
  const held = new Map<string, string>();
  for (const bundle of onDemand) {
    assert.deepEqual(files[bundle]!.filter((file) => inMain.has(file)), [], `${bundle} holds a copy of modules the extension's bundle holds`);
    for (const file of files[bundle]!) {
      assert.equal(held.get(file), undefined, `${file} is in both ${held.get(file)} and ${bundle}`);
      held.set(file, bundle);
    }
  }
});

test("activation builds none of the language tables (core/classify/languages.ts): they are built on first use", () => {
  // Two entries of the table by file name (specificFromFileName), built on first use as the others are.
  const markers = ['cmakelists.txt', 'gnumakefile'];
  assert.deepEqual(ranAtActivation(markers), Object.fromEntries(markers.map((marker) => [marker, false])));
});

test('activation registers the commands the manifest contributes, and a command builds its handler when first run', () => {
  const probe = `
const path = require('node:path');
const [stub, bundle, dataDir] = process.argv.slice(1);
require(stub).installVscode({ dataDirectory: dataDir });
const registered = new Map();
require('vscode').commands = { registerCommand: (id, handler) => (registered.set(id, handler), { dispose() {} }), executeCommand: async () => undefined };
require('vscode').window.showErrorMessage = async () => undefined;
// The bundles compiled as functions (an on-demand bundle; the loader compiles the extension's as a script).
const vm = require('node:vm');
const compiled = [];
const compileFunction = vm.compileFunction;
vm.compileFunction = (code, params, options) => (compiled.push(path.basename(options.filename)), compileFunction(code, params, options));
const extension = require(bundle);
${ACTIVATE}
const run = (id) => registered.get(id)().then(() => 'done', (error) => error.message);
(async () => {
  const atActivation = compiled.slice();
  const copyUrl = await run('satchel.server.copyUrl');
  await run('satchel.server.copyUrl');
  console.log(JSON.stringify({ ids: [...registered.keys()].sort(), copyUrl, atActivation, compiled }));
})().finally(() => process.exit(0));
`;
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { contributes: { commands: { command: string }[] } };
  const reply = JSON.parse(activateInChild(probe).at(-1)!) as { ids: string[]; copyUrl: string; atActivation: string[]; compiled: string[] };
  // Every one (views and editors register a few commands of their own beside them).
  assert.deepEqual(manifest.contributes.commands.map((entry) => entry.command).filter((id) => !reply.ids.includes(id)), []);
  // Its handler ran, built on this first call: with no data host yet, it says so.
  assert.equal(reply.copyUrl, 'Satchel has no server yet.');
  // From the command bundle, loaded on that first call and only then, once.
  assert.deepEqual(reply.atActivation, []);
  assert.deepEqual(reply.compiled, ['extensionCommands.cjs']);
});

test("activation registers the language-model tools, and a tool's work is loaded from the agents' bundle when first prepared", () => {
  const probe = `
const path = require('node:path');
const [stub, bundle, dataDir] = process.argv.slice(1);
require(stub).installVscode({ dataDirectory: dataDir });
const tools = new Map();
require('vscode').lm = { registerTool: (name, tool) => (tools.set(name, tool), { dispose() {} }) };
const vm = require('node:vm');
const compiled = [];
const compileFunction = vm.compileFunction;
vm.compileFunction = (code, params, options) => (compiled.push(path.basename(options.filename)), compileFunction(code, params, options));
const extension = require(bundle);
${ACTIVATE}
const atActivation = compiled.slice();
Promise.resolve(tools.get('satchel_search_snippets').prepareInvocation({ input: { query: 'retry with backoff' } }, undefined)).then((prepared) => {
  console.log(JSON.stringify({ tools: [...tools.keys()].sort(), atActivation, prepared, compiled }));
}).finally(() => process.exit(0));
`;
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { contributes: { languageModelTools: { name: string }[] } };
  const reply = JSON.parse(activateInChild(probe).at(-1)!) as { tools: string[]; atActivation: string[]; prepared: { invocationMessage: string }; compiled: string[] };
  assert.deepEqual(reply.tools, manifest.contributes.languageModelTools.map((tool) => tool.name).sort());
  assert.deepEqual(reply.atActivation, []);
  assert.equal(reply.prepared.invocationMessage, 'Searching saved snippets for "retry with backoff"');
  assert.deepEqual(reply.compiled, [onDemandSources['src/extension/agents/agentHandlers.ts']]);
});

test("the bundle reads the vscode API object itself: it never lists the API's exports to copy them", () => {
  // A namespace import of the external module made the bundle copy all ~300 exports onto a new object as
  // it loaded (esbuild's __reExport); listing the keys is the first step of that copy.
  const probe = `
const path = require('node:path');
const Module = require('node:module');
const [stub, bundle, dataDir] = process.argv.slice(1);
require(stub).installVscode({ dataDirectory: dataDir });
let listed = 0;
const api = new Proxy(require('vscode'), { ownKeys: (target) => (listed++, Reflect.ownKeys(target)) });
const load = Module._load;
Module._load = function (request, ...rest) { return request === 'vscode' ? api : load.call(this, request, ...rest); };
const extension = require(bundle);
${ACTIVATE}
console.log(JSON.stringify({ listed }));
process.exit(0);
`;
  assert.deepEqual(JSON.parse(activateInChild(probe).at(-1)!), { listed: 0 });
});

test('activation refreshes no view: with no data host yet, each new tree is already empty', () => {
  // Each tree view's refreshes and the properties set on it, until activate() returns.
  const probe = `
const path = require('node:path');
const [stub, bundle, dataDir] = process.argv.slice(1);
require(stub).installVscode({ dataDirectory: dataDir });
const window = require('vscode').window;
const createTreeView = window.createTreeView;
const events = [];
window.createTreeView = (id, options) => {
  options.treeDataProvider.onDidChangeTreeData?.(() => events.push(id + ' refreshed'));
  return new Proxy(createTreeView(id, options), { set: (view, key, value) => (events.push(id + '.' + String(key) + ' set'), Reflect.set(view, key, value)) });
};
const extension = require(bundle);
${ACTIVATE}
console.log(JSON.stringify(events));
process.exit(0);
`;
  assert.deepEqual(JSON.parse(activateInChild(probe).at(-1)!), []);
});

// A string of each on-demand package's own code (an error message) that Satchel's sources never spell.
const onDemandMarkers: Record<keyof typeof onDemandPackages, string> = {
  yaml: 'Implicit map keys',
  'js-yaml': 'duplicated mapping key',
  'jsonc-parser': 'InvalidSymbol',
  'smol-toml': 'Invalid TOML',
  ws: 'Invalid WebSocket frame',
};

test("the extension's bundle holds neither a config-file parser nor ws: each is its own bundle, and activation loads none", () => {
  const source = readFileSync(join(dist, 'extensionMain.cjs'), 'utf8');
  for (const [name, marker] of Object.entries(onDemandMarkers)) {
    assert.ok(!source.includes(marker), `${name} is bundled in extensionMain.cjs`);
    const file = onDemandPackages[name as keyof typeof onDemandPackages];
    assert.ok(readFileSync(join(dist, file), 'latin1').includes(marker), `${file} does not hold ${name}`);
    // The extension's bundle, or one of its on-demand bundles (the command handlers'), requires it by
    // name, from beside itself.
    const requiring = ['extensionMain.cjs', ...Object.values(onDemandSources)].filter((bundle) => readFileSync(join(dist, bundle), 'utf8').includes(JSON.stringify(file)));
    assert.notDeepEqual(requiring, [], `no bundle of the extension requires ${file}`);
  }
  // And activating loads none of them (nor anything else of dist/ but the loader).
  const loaded: unknown = JSON.parse(activateInChild(child).at(-1)!);
  assert.ok(Array.isArray(loaded));
  for (const file of Object.values(onDemandPackages)) assert.ok(!loaded.includes(file), `${file} loaded at activation`);
});

test('an on-demand package is required from its bundle when first read, and works as the package does', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'satchel-on-demand-'));
  try {
    for (const file of Object.values(onDemandPackages)) copyFileSync(join(dist, file), join(scratch, file));
    const names = (file: string): string[] => {
      const listed = spawnSync(process.execPath, ['-e', 'console.log(JSON.stringify(Object.keys(require(process.argv[1]))))', join(scratch, file)], { encoding: 'utf8' });
      assert.equal(listed.status, 0, listed.stderr);
      const keys: unknown = JSON.parse(listed.stdout);
      assert.ok(Array.isArray(keys) && keys.every((key) => typeof key === 'string'));
      return keys;
    };
    for (const [name, file] of Object.entries(onDemandPackages)) writeFileSync(join(scratch, `${name}.onDemand.cjs`), onDemandSource(file, names(file)));
    const probe = `
const dir = process.argv[1];
const loaded = (file) => Object.keys(require.cache).some((path) => path.endsWith('/' + file));
const toml = require(dir + '/smol-toml.onDemand.cjs');
const jsonc = require(dir + '/jsonc-parser.onDemand.cjs');
const yaml = require(dir + '/yaml.onDemand.cjs');
const jsYaml = require(dir + '/js-yaml.onDemand.cjs');
const ws = require(dir + '/ws.onDemand.cjs');
const before = ['smolToml.cjs', 'jsoncParser.cjs', 'yaml.cjs', 'jsYaml.cjs', 'ws.cjs'].filter(loaded);
let tomlError = false;
try { toml.parse('a = '); } catch (error) { tomlError = error instanceof toml.TomlError; }
const parsed = [toml.parse('a = 1').a, jsonc.parse('{"a": 2, /* c */}').a, yaml.parseDocument('a: 3').toJS().a, jsYaml.load('a: 4').a];
// The client's socket class (src/client/webSocket.ts reads the named export), echoing over loopback.
const server = new ws.WebSocketServer({ host: '127.0.0.1', port: 0 }, () => {
  server.on('connection', (socket) => socket.on('message', (data) => socket.send(data)));
  const socket = new ws.WebSocket('ws://127.0.0.1:' + server.address().port);
  socket.on('open', () => socket.send('ping'));
  socket.on('message', (data) => {
    socket.close();
    server.close();
    console.log(JSON.stringify({ before, after: ['smolToml.cjs', 'jsoncParser.cjs', 'yaml.cjs', 'jsYaml.cjs', 'ws.cjs'].filter(loaded), parsed, tomlError, isMap: yaml.isMap(yaml.parseDocument('a: 1').contents), echoed: String(data) }));
  });
});
`;
    const result = spawnSync(process.execPath, ['-e', probe, scratch], { encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout.trim()), {
      before: [],
      after: ['smolToml.cjs', 'jsoncParser.cjs', 'yaml.cjs', 'jsYaml.cjs', 'ws.cjs'],
      parsed: [1, 2, 3, 4],
      tomlError: true,
      isMap: true,
      echoed: 'ping',
    });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});
