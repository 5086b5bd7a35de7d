/**
 * The built extension bundle loads in a runtime without node:sqlite (some Electron releases that
 * desktop VS Code runs extensions on), so activation can explain the problem instead of VS Code
 * reporting a bare load failure. Runs dist/extension.cjs in a child Node whose node:sqlite is gone
 * and whose `vscode` module is a stub. Needs the bundles: npm test runs `npm run package` first.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { onDemandSources } from '../../scripts/onDemandSources.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Every name @types/vscode exports, so a bundle that extends a vscode class at load time
 * (`class X extends vscode.CompletionItem`) loads as it does in VS Code.
 */
const vscodeNames = [
  ...new Set(
    [...readFileSync(join(root, 'node_modules/@types/vscode/index.d.ts'), 'utf8').matchAll(/^\s*export (?:class|namespace|enum|const|function) (\w+)/gm)].map(
      (match) => match[1]!,
    ),
  ),
];

const child = `
const Module = require('node:module');
// Each export is a class whose every property is a further stub: constructible, extendable, callable.
const stub = () => new Proxy(class {}, { get: (target, key) => (key in target ? target[key] : stub()), apply: () => undefined });
const vscodeStub = Object.fromEntries(${JSON.stringify(vscodeNames)}.map((name) => [name, stub()]));
const getBuiltin = process.getBuiltinModule;
process.getBuiltinModule = (id) => (/^(node:)?sqlite$/.test(id) ? undefined : getBuiltin(id));
const load = Module._load;
Module._load = function (request, ...rest) {
  if (/^(node:)?sqlite$/.test(request)) throw new Error('No such built-in module: node:sqlite');
  if (request === 'vscode') return vscodeStub;
  return load.call(this, request, ...rest);
};
const extension = require(process.argv[1]);
console.log(JSON.stringify({ activate: typeof extension.activate, deactivate: typeof extension.deactivate }));
`;

test('dist/extension.cjs loads where node:sqlite is missing', () => {
  const bundle = join(root, 'dist', 'extension.cjs');
  assert.ok(existsSync(bundle), `${bundle} is missing: run npm run package`);
  const result = spawnSync(process.execPath, ['-e', child, bundle], { encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
  assert.deepEqual(JSON.parse(result.stdout.trim().split('\n').at(-1)!), { activate: 'function', deactivate: 'function' });
});

/**
 * What the data host keeps of its bundles for as long as it runs (docs/performance.md, the data host in
 * everyday use): V8 holds a source with a character above U+00FF at two bytes a character, and the
 * token model inlined stayed in the heap whether anything was classified or not.
 */
test('every bundle is Latin-1, and the token model is a file beside them, not part of the host or its worker', () => {
  for (const name of ['cli.cjs', 'classifyWorker.cjs', 'extensionMain.cjs', ...Object.values(onDemandSources), 'jsonWorker.cjs', 'secretsWorker.cjs', 'importHost.cjs', 'encoderHost.cjs', 'yaml.cjs', 'jsYaml.cjs', 'jsoncParser.cjs', 'smolToml.cjs', 'ws.cjs']) {
    const bundle = join(root, 'dist', name);
    assert.ok(existsSync(bundle), `${bundle} is missing: run npm run package`);
    const text = readFileSync(bundle, 'utf8');
    const wide = /[^\x00-\xff]/.exec(text);
    assert.equal(wide, null, `${name}: ${JSON.stringify(wide && text.slice(Math.max(0, wide.index - 30), wide.index + 10))}`);
    if (name === 'cli.cjs' || name === 'classifyWorker.cjs') assert.ok(!text.includes('Kcamel\\nKPascal') && !text.includes('Kcamel\nKPascal'), `${name} inlines the token model`);
  }
  const model = JSON.parse(readFileSync(join(root, 'dist', 'tokenModel.json'), 'utf8')) as { tokens: string };
  assert.ok(model.tokens.split('\n').length > 10_000);
});
