/**
 * The build's split of Satchel's own modules into on-demand bundles (scripts/onDemandSources.mjs), on a
 * small program of its own: the on-demand module is loaded on its first call, and a module both bundles
 * use exists once, with one state and one class, in the main bundle.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { buildOnDemandSources, importsFromShared, SHARED_PREFIX } from '../../scripts/onDemandSources.mjs';

const program = {
  'shared.ts': [
    'export class Failure extends Error {}',
    'export let count = 0;',
    'export function bump(): number { return ++count; }',
    "export function unused(): string { return 'NOT USED BY EITHER BUNDLE'; }",
  ].join('\n'),
  'lazy.ts': [
    "import { Failure, bump, count } from './shared.ts';",
    "import { helper } from './lazyOnly.ts';",
    "import { use } from './bothLazy.ts';",
    'export function check(error: unknown) { bump(); return { isFailure: error instanceof Failure, count, helper: helper(), uses: use() }; }',
  ].join('\n'),
  // Held by both on-demand bundles and not by main: in main, once.
  'bothLazy.ts': 'let uses = 0;\nexport function use(): number { return ++uses; }',
  'lazy2.ts': "import { use } from './bothLazy.ts';\nexport function again(): number { return use(); }",
  'lazyOnly.ts': "export function helper(): string { return 'ONLY THE LAZY BUNDLE'; }",
  // On demand, but exporting a value: the main bundle's function of that name refuses to stand in for it.
  'constant.ts': 'export const answer = 42;',
  'main.ts': [
    "import { answer } from './constant.ts';",
    'export function readAnswer(): unknown { try { return (answer as unknown as () => unknown)(); } catch (error) { return (error as Error).message; } }',
    "import { Failure, bump } from './shared.ts';",
    "import { check } from './lazy.ts';",
    "import { again } from './lazy2.ts';",
    'export function run() { bump(); return { ...check(new Failure("x")), again: again() }; }',
  ].join('\n'),
};

test('an on-demand module is loaded on its first call, and shares the main bundle\'s modules (and those two on-demand bundles use) instead of copying them', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'satchel-on-demand-sources-'));
  const cwd = process.cwd();
  try {
    for (const [name, text] of Object.entries(program)) writeFileSync(join(dir, name), `${text}\n`);
    process.chdir(dir);
    const main = { entryPoints: ['main.ts'], outfile: 'dist/main.cjs', plugins: [] };
    const options = (entry: esbuild.BuildOptions): esbuild.BuildOptions => ({ bundle: true, format: 'cjs', platform: 'node', logLevel: 'silent', absWorkingDir: dir, ...entry });
    const split = await buildOnDemandSources(esbuild, main, options, { 'lazy.ts': 'lazy.cjs', 'lazy2.ts': 'lazy2.cjs', 'constant.ts': 'constant.cjs' });
    await esbuild.build(options({ ...main, plugins: [split.plugin] }));
    assert.deepEqual(split.files, { 'lazy.cjs': ['lazy.ts', 'lazyOnly.ts'], 'lazy2.cjs': ['lazy2.ts'], 'constant.cjs': ['constant.ts'] });

    const mainText = readFileSync('dist/main.cjs', 'utf8');
    const lazyText = readFileSync('dist/lazy.cjs', 'utf8');
    assert.ok(!mainText.includes('ONLY THE LAZY BUNDLE') && lazyText.includes('ONLY THE LAZY BUNDLE'));
    assert.ok(!lazyText.includes('class Failure') && lazyText.includes(`${SHARED_PREFIX}shared.ts`));
    // The table takes only what the on-demand bundle uses: what neither uses is still left out.
    assert.ok(!mainText.includes('NOT USED BY EITHER BUNDLE'));

    const probe = `
const vm = require('node:vm');
const compiled = [];
const compileFunction = vm.compileFunction;
vm.compileFunction = (code, params, options) => (compiled.push(require('node:path').basename(options.filename)), compileFunction(code, params, options));
const main = require(process.argv[1]);
const before = compiled.slice();
const first = main.run();
const second = main.run();
const answer = main.readAnswer();
console.log(JSON.stringify({ before, first, second, answer, compiled }));
`;
    const result = spawnSync(process.execPath, ['-e', probe, join(dir, 'dist', 'main.cjs')], { encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout), {
      before: [],
      // One Failure class and one counter: main's bump and the lazy module's both count.
      first: { isFailure: true, count: 2, helper: 'ONLY THE LAZY BUNDLE', uses: 1, again: 2 },
      second: { isFailure: true, count: 4, helper: 'ONLY THE LAZY BUNDLE', uses: 3, again: 4 },
      answer: 'constant.cjs exports answer as something else than a function',
      compiled: ['lazy.cjs', 'lazy2.cjs', 'constant.cjs'],
    });
  } finally {
    process.chdir(cwd);
    rmSync(dir, { recursive: true, force: true });
  }
});

test("what an on-demand bundle imports of each shared module is read from esbuild's ES module output", () => {
  const text = [
    `import { a, b as b2 } from "${SHARED_PREFIX}src/x.ts";`,
    `import {\n  c,\n  d as d3\n} from "${SHARED_PREFIX}src/y.ts";`,
    `import * as whole from "${SHARED_PREFIX}src/z.ts";`,
    `import named, { e } from "${SHARED_PREFIX}src/w.ts";`,
    `import "${SHARED_PREFIX}src/v.ts";`,
    `import { importX } from "./elsewhere.ts";`,
    `var importer = "from ${SHARED_PREFIX}src/not.ts";`,
  ].join('\n');
  assert.deepEqual(importsFromShared(text), {
    'src/x.ts': ['a', 'b'],
    'src/y.ts': ['c', 'd'],
    'src/z.ts': ['*'],
    'src/w.ts': ['default', 'e'],
    'src/v.ts': [],
  });
});
