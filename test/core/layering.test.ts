/**
 * The dependency direction, enforced for every folder of src/ (a new folder fails until it has a rule):
 *
 *   core       domain; imports no other folder and no vscode, koa, ws, undici or zod
 *   wire       the operations' declarations (zod); over core's types and its pure value tables
 *   server     HTTP + WebSocket over core and wire
 *   client     typed client of the interface over wire; from core only types and the event helpers
 *   hosting    who serves a data directory (lock, port file, the host process) over core, wire, server and client
 *   extension  the vscode adapter over client, wire and core; sees hosting through its types only
 *   cli        the headless entry's subcommands (cli.ts's part of the composition root); no vscode
 *   extension.ts, cli.ts  composition roots: may import anything
 *
 * and no module imports itself through others (type imports included: a circle of types is still
 * two modules that cannot be understood apart).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('../../', import.meta.url).pathname;
const src = join(root, 'src');

interface Rule {
  /** Folders of src/ this one may import at run time. */
  readonly uses: readonly string[];
  /** Folders this one may import only with `import type` (nothing of theirs runs in it). */
  readonly typesFrom?: readonly string[];
  /** Files of an otherwise type-only folder that may be imported at run time. */
  readonly runtimeFiles?: readonly string[];
  /** Packages it must not import. */
  readonly forbiddenPackages: RegExp;
}

const RULES: Record<string, Rule> = {
  core: { uses: [], forbiddenPackages: /^(vscode|koa|@koa\/|ws$|undici|zod)/ },
  wire: {
    uses: [],
    typesFrom: ['core'],
    runtimeFiles: ['src/core/models/enums.ts', 'src/core/models/catalog.ts', 'src/core/import/formats.ts', 'src/core/history/authors.ts'],
    forbiddenPackages: /^(vscode|koa|@koa\/|ws$|undici)/ },
  server: { uses: ['core', 'wire'], forbiddenPackages: /^(vscode|undici)/ },
  client: { uses: ['wire'], typesFrom: ['core'], runtimeFiles: ['src/core/events.ts'], forbiddenPackages: /^(vscode|koa|@koa\/)/ },
  hosting: { uses: ['core', 'wire', 'server', 'client'], forbiddenPackages: /^(vscode|koa|@koa\/)/ },
  extension: { uses: ['client', 'wire', 'core'], typesFrom: ['hosting'], forbiddenPackages: /^(koa|@koa\/|ws$|undici)/ },
  cli: { uses: ['core', 'wire', 'client', 'hosting'], forbiddenPackages: /^(vscode|koa|@koa\/)/ },
};

function sources(dir: string): string[] {
  const out: string[] = [];
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sources(path));
    else if (name.endsWith('.ts')) out.push(path);
  }
  return out;
}

interface Import {
  readonly specifier: string;
  readonly typeOnly: boolean;
}

function imports(file: string): Import[] {
  const text = readFileSync(file, 'utf8');
  const found: Import[] = [];
  const statement = /(import|export)\s+(type\s+)?([^'"]*?)from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (const match of text.matchAll(statement)) {
    if (match[5] !== undefined) {
      found.push({ specifier: match[5], typeOnly: false });
      continue;
    }
    const names = match[3] ?? '';
    // `import { type A, type B }` is erased as wholly as `import type { A, B }`.
    const braces = /^\{([^}]*)\}\s*$/.exec(names.trim());
    const allTypes = braces !== null && braces[1]!.split(',').map((n) => n.trim()).filter(Boolean).every((n) => n.startsWith('type '));
    found.push({ specifier: match[4]!, typeOnly: match[2] !== undefined || allTypes });
  }
  return found;
}

/** The folder of src/ a relative import lands in ('' for the composition roots, undefined outside src). */
function folderOf(path: string): string | undefined {
  const rel = relative(src, path);
  if (rel.startsWith('..')) return undefined;
  const [first, ...rest] = rel.split('/');
  return rest.length === 0 ? '' : first;
}

function violations(): string[] {
  const out: string[] = [];
  for (const [folder, rule] of Object.entries(RULES)) {
    for (const file of sources(join(src, folder))) {
      for (const { specifier, typeOnly } of imports(file)) {
        const where = `${relative(root, file)} imports ${specifier}`;
        if (!specifier.startsWith('.')) {
          if (rule.forbiddenPackages.test(specifier)) out.push(`${where} (package not allowed in ${folder})`);
          continue;
        }
        const target = join(file, '..', specifier);
        const into = folderOf(target);
        if (into === undefined || into === folder) continue;
        if (rule.uses.includes(into)) continue;
        if (rule.runtimeFiles?.includes(relative(root, target))) continue;
        if (typeOnly && rule.typesFrom?.includes(into)) continue;
        out.push(`${where} (${folder} may not ${rule.typesFrom?.includes(into) ? 'run code from' : 'import'} ${into || 'a composition root'})`);
      }
    }
  }
  return out;
}

test('every folder of src/ has a layering rule', () => {
  const folders = readdirSync(src).filter((name) => statSync(join(src, name)).isDirectory());
  assert.deepEqual(folders.filter((name) => !(name in RULES)), []);
});

test('imports point only in the allowed directions', () => {
  assert.deepEqual(violations(), []);
});

test('the rules catch a wrong import (the checker is not vacuous)', () => {
  const parsed = imports(new URL(import.meta.url).pathname);
  assert.ok(parsed.some((i) => i.specifier === 'node:test' && !i.typeOnly));
  assert.equal(folderOf(join(src, 'server', 'app.ts')), 'server');
  assert.equal(folderOf(join(src, 'cli.ts')), '');
});

/** Every module of src/ and the modules of src/ it imports (type imports included). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sources(src)) {
    const targets = imports(file)
      .filter(({ specifier }) => specifier.startsWith('.'))
      .map(({ specifier }) => relative(root, join(file, '..', specifier)));
    graph.set(relative(root, file), targets);
  }
  return graph;
}

/** The import circles of `graph`, each as one path that comes back to its start. */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const found: string[][] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const onPath = new Set<string>();
  const visit = (module: string): void => {
    if (done.has(module)) return;
    if (onPath.has(module)) {
      found.push([...path.slice(path.indexOf(module)), module]);
      return;
    }
    onPath.add(module);
    path.push(module);
    for (const next of graph.get(module) ?? []) if (graph.has(next)) visit(next);
    path.pop();
    onPath.delete(module);
    done.add(module);
  };
  for (const module of graph.keys()) visit(module);
  return found;
}

test('no module of src/ imports itself through others', () => {
  assert.deepEqual(cycles(importGraph()).map((cycle) => cycle.join(' -> ')), []);
});

test('the cycle check finds a circle (it is not vacuous)', () => {
  const graph = new Map([
    ['a.ts', ['b.ts']],
    ['b.ts', ['c.ts']],
    ['c.ts', ['a.ts', 'd.ts']],
    ['d.ts', []],
  ]);
  assert.deepEqual(cycles(graph), [['a.ts', 'b.ts', 'c.ts', 'a.ts']]);
  assert.ok(importGraph().get('src/server/app.ts')?.includes('src/server/errors.ts'));
});
